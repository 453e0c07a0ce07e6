#!/usr/bin/env python3
"""The CI workflows (.github/workflows/*.yml) parse as YAML, and every script, file and CMake preset
their commands name exists in the tree: a renamed .ci/ script or preset fails here, not on a runner.
Also what each workflow is for: ci.yml runs the README's test command, gpu.yml runs on a
self-hosted GPU runner, selects the GPU suites by label, runs profiling/gpu_check.sh and keeps
its summary as an artifact.

    python3 tests/ci/test_workflows.py [--root REPO]
"""
import argparse
import json
import re
import shlex
import sys
import unittest
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

# A word that names a file of the tree: a relative path into one of its folders.
TREE_PATH = re.compile(r"^(?:\./)?(?:\.ci|\.github|profiling|tests|examples|docs|python|apps|host|cuda|cmake)/[\w./-]*[\w-]$")


def load(name):
    with open(ROOT / ".github" / "workflows" / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


def steps(workflow):
    for job in workflow["jobs"].values():
        yield from job.get("steps", [])


def run_words(workflow):
    """The words of every `run:` command, shell-split line by line (comments dropped)."""
    for step in steps(workflow):
        for line in step.get("run", "").splitlines():
            yield from shlex.split(line, comments=True)


def presets():
    data = json.loads((ROOT / "CMakePresets.json").read_text(encoding="utf-8"))
    return {kind: {p["name"] for p in data.get(kind, [])} for kind in ("configurePresets", "buildPresets", "testPresets")}


class Workflows(unittest.TestCase):
    def workflows(self):
        found = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
        self.assertTrue(found, "no workflow in .github/workflows")
        return {p.name: load(p.name) for p in found}

    def test_every_named_path_exists(self):
        for name, wf in self.workflows().items():
            words = list(run_words(wf))
            self.assertTrue(words, f"{name}: no run step")
            for word in words:
                value = word.split("=", 1)[1] if re.match(r"^[A-Z_]+=", word) else word
                if TREE_PATH.match(value) and not value.startswith(("build", "gpu-check-out")):
                    self.assertTrue((ROOT / value).exists(), f"{name}: names {value}, which is not in the tree")

    def test_every_preset_exists(self):
        known = presets()
        kinds = {"cmake": "configurePresets", "build": "buildPresets", "ctest": "testPresets"}
        for name, wf in self.workflows().items():
            for step in steps(wf):
                for line in step.get("run", "").splitlines():
                    words = shlex.split(line, comments=True)
                    for i, w in enumerate(words[:-1]):
                        if w != "--preset":
                            continue
                        kind = kinds["build"] if "--build" in words[:i] else kinds.get(words[0], "configurePresets")
                        self.assertIn(words[i + 1], known[kind], f"{name}: {kind} {words[i + 1]} is not in CMakePresets.json")

    def test_ci_runs_the_readme_test_command(self):
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        self.assertIn("bash .ci/test", readme, "the README no longer names bash .ci/test")
        commands = [s.get("run", "").strip() for s in steps(load("ci.yml"))]
        self.assertIn("bash .ci/test", commands)

    def test_gpu_workflow(self):
        wf = load("gpu.yml")
        for job in wf["jobs"].values():
            self.assertEqual(set(job["runs-on"]), {"self-hosted", "linux", "gpu"})
        runs = "\n".join(s.get("run", "") for s in steps(wf))
        self.assertIn("profiling/gpu_check.sh", runs)
        # The GPU suites by label: ctest -L gpu, or the test preset that filters on it.
        data = json.loads((ROOT / "CMakePresets.json").read_text(encoding="utf-8"))
        labels = {p["name"]: p.get("filter", {}).get("include", {}).get("label") for p in data["testPresets"]}
        by_preset = [m for m in re.findall(r"ctest --preset (\S+)", runs) if labels.get(m) == "gpu"]
        self.assertTrue("ctest -L gpu" in runs or by_preset, "gpu.yml runs no ctest -L gpu")
        uploads = [s for s in steps(wf) if str(s.get("uses", "")).startswith("actions/upload-artifact")]
        self.assertTrue(uploads, "gpu.yml keeps no artifact")
        self.assertTrue(any("gpu-check-out" in str(s.get("with", {}).get("path")) for s in uploads))
        self.assertIn("gpu-check-out", runs, "the artifact is not the directory gpu_check.sh writes")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=ROOT)
    args, rest = parser.parse_known_args()
    ROOT = args.root.resolve()
    unittest.main(argv=[sys.argv[0], *rest])
