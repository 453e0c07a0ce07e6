"""The sample outputs the docs print, against the binary's: `gradient --png pics` in the README and the
quick start, `plan --checkpoint-memory 64MiB` on the strategies page. Each line as printed, but for
what measures this machine (times, memory, the plan's predicted peak and time) and the last digits
of J and |g|, which rounding may move between builds."""
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
MEASURED = ("  time ", "  memory ", "  predicted peak ", "  predicted time ")


def documented(path, command):
    text = (ROOT / path).read_text()
    m = re.search(re.escape(f"$ ./build/revwave {command}") + r"\n(.*?)\n```", text, flags=re.S)
    assert m, f"{path}: no sample output of `{command}`"
    return m.group(1).splitlines()


def same_line(doc, run):
    if doc.startswith(MEASURED):
        return run[:18] == doc[:18]  # the label's column
    numbers = re.compile(r"[0-9]+\.[0-9]+e[-+][0-9]+|[0-9]+\.[0-9]+")
    if doc.startswith(("  objective ", "  gradient norm ")):
        a, b = numbers.findall(doc), numbers.findall(run)
        return len(a) == len(b) and all(abs(float(x) - float(y)) <= 1e-3 * abs(float(x)) for x, y in zip(a, b)) \
            and numbers.sub("#", doc) == numbers.sub("#", run)
    return doc == run


@pytest.mark.parametrize("path, command", [("README.md", "gradient --png pics"),
                                           ("docs/quickstart.md", "gradient --png pics"),
                                           ("docs/strategies.md", "plan --checkpoint-memory 64MiB")])
def test_a_documented_sample_output_is_what_the_binary_prints(tmp_path, path, command):
    binary = os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))
    if not os.path.exists(binary):
        pytest.skip(f"no revwave binary at {binary} (build it: bash .ci/build)")
    # The docs show a CPU run: on a machine with a GPU, --backend auto would take it.
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    p = subprocess.run([binary, *command.split()], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    doc, run = documented(path, command), p.stdout.splitlines()
    assert len(doc) == len(run), f"{path}: {len(doc)} lines documented, {len(run)} printed:\n{p.stdout}"
    for d, r in zip(doc, run):
        assert same_line(d, r), f"{path} documents\n{d}\nthe binary prints\n{r}"
