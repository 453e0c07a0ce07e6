"""The README's tutorial as a new user runs it: every shell block between its markers, as written (the
binary under test for ./build/revwave, this interpreter for .venv/bin/python), in a fresh directory;
then what the text says of the outcome: the files, the survey's sample interval, the 2 steps a sample
of the inversion and the misfit falling band by band."""
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def tutorial_blocks():
    text = (ROOT / "README.md").read_text()
    start, end = text.index("<!-- tutorial-start -->"), text.index("<!-- tutorial-end -->")
    section = text[start:end]
    return section, re.findall(r"```sh\n(.*?)```", section, flags=re.S)


def test_the_readme_tutorial_runs_as_written(tmp_path):
    binary = os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))
    if not os.path.exists(binary):
        pytest.skip(f"no revwave binary at {binary} (build it: bash .ci/build)")
    pytest.importorskip("numpy")  # step 1 makes the models with it
    section, blocks = tutorial_blocks()
    assert len(blocks) == 4, "the tutorial's four steps"
    logs = []
    for block in blocks:
        script = block.replace("./build/revwave", shlex.quote(binary)).replace(".venv/bin/python",
                                                                              shlex.quote(sys.executable))
        p = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=1800)
        assert p.returncode == 0, f"{block}\nfailed ({p.returncode}): {p.stderr}"
        logs.append(p.stdout + p.stderr)
    for name in ("true.npy", "start.npy", "survey.sgy", "gradient.npy", "pics_gradient_xz.png", "pics_shot.png",
                 "inversion/model.npy", "inversion/history.jsonl", "inversion/start_xz.png"):
        assert (tmp_path / name).exists(), name
    # What the text says of step 4: the survey's sample interval, and 2 steps a sample.
    said = re.search(r"sample interval the true model allowed \(([0-9.]+) ms\)", section).group(1)
    assert f"records sampled every {said} ms are simulated in 2 steps" in logs[3], logs[3]
    history = [json.loads(line) for line in (tmp_path / "inversion/history.jsonl").read_text().splitlines()]
    iterations = [h for h in history if h["event"] == "iteration"]
    assert len(iterations) == 4, "two bands, two iterations each"
    for band in (1, 2):
        steps = [h for h in iterations if h["band"] == band]
        assert steps[-1]["objective"] < steps[0]["objective_before"], f"band {band}"
