"""revwave has one version number: CMakeLists.txt's project() line.

ctest runs this (label cli) with the build's revwave and the version CMake read from that line. It
checks that the others agree: `revwave --version`, pyproject.toml (which must take the version
from that line, not state one), the docs (docs/conf.py), CITATION.cff and the changelog's newest
release, and, where the build has the Python extension (-DREVWAVE_PYTHON=ON), its __version__.
tests/python/test_version.py checks the installed package (revwave.__version__, its metadata).

    python3 tests/cli/test_versions.py --binary build/revwave --version 0.2.0 [--extension-dir DIR]
"""
import argparse
import importlib
import pathlib
import re
import runpy
import subprocess
import sys
import tempfile
import tomllib
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
OPTIONS = argparse.Namespace()


class Versions(unittest.TestCase):
    def test_cmake_read_the_project_line(self):
        line = re.search(r"^project\(revwave VERSION (\S+) ", (ROOT / "CMakeLists.txt").read_text(), re.MULTILINE)
        self.assertIsNotNone(line, "CMakeLists.txt has no 'project(revwave VERSION X.Y.Z ...' line")
        self.assertEqual(line.group(1), OPTIONS.version)
        self.assertRegex(OPTIONS.version, r"^[0-9]+\.[0-9]+\.[0-9]+$")

    def test_the_program_prints_it(self):
        done = subprocess.run([OPTIONS.binary, "--version"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), f"revwave {OPTIONS.version}")

    def test_a_segy_survey_it_writes_names_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "survey.sgy"
            done = subprocess.run([OPTIONS.binary, "forward", "--shape", "12,12,12", "--tn", "0.02", "--backend", "cpu",
                                   "--src", "40,40,20", "--src", "70,70,20", "--rec-grid", "2,2,30", "--out", str(out)],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            # The 3200-byte text header, in EBCDIC as SEG-Y rev 1 writes it: forty 80-column cards.
            text = out.read_bytes()[:3200].decode("cp037")
        self.assertIn(f"WRITTEN BY REVWAVE {OPTIONS.version}:", text[:80])

    def test_pyproject_reads_it_from_cmake(self):
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())
        self.assertNotIn("version", project["project"], "pyproject.toml states a version of its own")
        self.assertIn("version", project["project"].get("dynamic", []))
        provider = project["tool"]["scikit-build"]["metadata"]["version"]
        self.assertEqual(provider["provider"], "scikit_build_core.metadata.regex")
        self.assertEqual(provider["input"], "CMakeLists.txt")
        # What scikit-build-core does with them (scikit_build_core/metadata/regex.py).
        found = re.search(provider["regex"], (ROOT / provider["input"]).read_text(), re.MULTILINE)
        self.assertIsNotNone(found, "pyproject.toml's version regex finds nothing in CMakeLists.txt")
        self.assertEqual(found.group("value"), OPTIONS.version)

    def test_the_docs_read_it(self):
        conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
        self.assertEqual(conf["version"], OPTIONS.version)
        self.assertEqual(conf["release"], OPTIONS.version)

    def test_the_citation_and_the_changelog_name_it(self):
        citation = re.search(r"^version: *\"?([^\"\s]+)\"?$", (ROOT / "CITATION.cff").read_text(), re.MULTILINE)
        self.assertIsNotNone(citation, "CITATION.cff has no version")
        self.assertEqual(citation.group(1), OPTIONS.version)
        releases = re.findall(r"^## \[([0-9][^\]]*)\]", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
        self.assertTrue(releases, "CHANGELOG.md has no release section")
        self.assertEqual(releases[0], OPTIONS.version, "the changelog's newest release")

    def test_the_built_extension_carries_it(self):
        if not OPTIONS.extension_dir:
            self.skipTest("this build has no Python extension (-DREVWAVE_PYTHON=ON); tests/python checks the package")
        sys.path.insert(0, OPTIONS.extension_dir)
        self.assertEqual(importlib.import_module("_revwave").__version__, OPTIONS.version)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--extension-dir", default="")
    OPTIONS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest])
