import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line("markers", "mpi: runs revwave under mpirun (CTest label mpi)")


@pytest.fixture(scope="session")
def cli():
    """Runs the built `revwave` binary (REVWAVE_BINARY, default build/revwave): returns (rc, stdout, stderr)."""
    binary = os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))
    if not os.path.exists(binary):
        if "REVWAVE_BINARY" in os.environ:
            pytest.fail(f"REVWAVE_BINARY {binary} does not exist")
        pytest.skip(f"no revwave binary at {binary} (build it: bash .ci/build)")

    def run(*args, env=None, check=True):
        e = dict(os.environ)
        e.update(env or {})
        p = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=e)
        if check and p.returncode != 0:
            raise AssertionError(f"revwave {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr}")
        return p.returncode, p.stdout, p.stderr

    def run_json(*args, **kw):
        return json.loads(run(*args, "--json", **kw)[1])

    run.json = run_json
    return run
