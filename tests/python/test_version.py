"""The installed package's version is the build's: revwave.__version__ (compiled into the extension
from CMakeLists.txt's project() line) equals `revwave --version` and the wheel's metadata (which
scikit-build-core reads from the same line). tests/cli/test_versions.py checks the rest."""
import importlib.metadata
import pathlib
import re

import revwave

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_version_is_the_builds(cli):
    project = re.search(r"^project\(revwave VERSION (\S+) ", (ROOT / "CMakeLists.txt").read_text(), re.MULTILINE)
    assert revwave.__version__ == project.group(1)
    assert cli("--version")[1].strip() == f"revwave {revwave.__version__}"
    assert importlib.metadata.version("revwave") == revwave.__version__
