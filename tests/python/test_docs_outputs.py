"""The sample outputs the docs print, against the binary's: `gradient --png pics` in the README and
the quick start, `plan --checkpoint-memory 64MiB` and `schedule` on the strategies page, the
surveys page's end-to-end session (forward, gradient, the gradient under mpirun, the same bits) and
the inversion page's example.
Each line as printed, but for what measures this machine (times, memory, the plan's predicted peak
and time, which rank ran a shot) and the last digits of J and |g|, which rounding may move between
builds."""
import os
import pathlib
import re
import shutil
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
                                           ("docs/strategies.md", "plan --checkpoint-memory 64MiB"),
                                           ("docs/strategies.md", "schedule --steps 1615 --snaps 74")])
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


def documented_session(path, first):
    """The commands and outputs of the sample session that starts with `$ first`: a list of
    (command, output lines), the commands as printed after `$ `."""
    text = (ROOT / path).read_text()
    m = re.search(re.escape(f"$ {first}") + r".*?\n```", text, flags=re.S)
    assert m, f"{path}: no sample session starting with `{first}`"
    session, command, lines = [], None, []
    for line in m.group(0)[:-len("```")].rstrip("\n").splitlines():
        if line.startswith("$ "):
            if command is not None:
                session.append((command, lines))
            command, lines = line[2:], []
        elif line or lines:  # a blank line ends an output, not a command's first line
            lines.append(line)
    session.append((command, lines))
    return [(c, [l for l in out if l]) for c, out in session]


# A survey's lines that measure the machine, or that say which rank was free first.
SURVEY_MEASURED = ("  time loops ", "  wall time ", "  peak memory ", "  phases ")


def same_survey_line(doc, run):
    if doc.startswith(SURVEY_MEASURED):
        return run[:16] == doc[:16]
    shot = re.compile(r"rank [0-9]+, [0-9.e+-]+ s,")
    if doc.startswith("  shot "):
        return shot.sub("#", doc) == shot.sub("#", run)
    return same_line(doc, run)


def test_the_surveys_end_to_end_session_is_what_the_binary_prints(tmp_path):
    binary = os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))
    if not os.path.exists(binary):
        pytest.skip(f"no revwave binary at {binary} (build it: bash .ci/build)")
    mpirun = shutil.which("mpirun") or shutil.which("mpiexec")
    session = documented_session("docs/surveys.md", "./build/revwave forward --shape 40,40,40")
    assert [c.split()[0] for c, _ in session] == ["./build/revwave", "./build/revwave", "mpirun", "cmp"]
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "revwave").symlink_to(binary)
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMPI_ALLOW_RUN_AS_ROOT": "1",
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    for command, doc in session:
        if command.startswith("mpirun") and mpirun is None:
            continue  # no MPI here: the page's one-process lines were checked; the bits below need both
        if command.startswith("cmp") and not (tmp_path / "g2.npy").exists():
            continue
        p = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
        assert p.returncode == 0, f"{command}\n{p.stderr}"
        run = [l for l in p.stdout.splitlines() if l]
        assert len(doc) == len(run), f"`{command}`: {len(doc)} lines documented, {len(run)} printed:\n{p.stdout}"
        for d, r in zip(doc, run):
            assert same_survey_line(d, r), f"`{command}`: docs/surveys.md documents\n{d}\nthe binary prints\n{r}"


def same_numbers_line(doc, run):
    """The same words, and numbers within 1e-3 of the documented ones; the seconds a line ends with
    (an iteration's, the run's) and the time line left out."""
    if doc.startswith("  time "):
        return run.startswith("  time ")
    seconds = re.compile(r", [0-9.e+-]+ s$|, [0-9.e+-]+ s \(|in all, [0-9.e+-]+ s$")
    doc, run = seconds.sub("#", doc), seconds.sub("#", run)
    numbers = re.compile(r"[-+]?[0-9]+\.?[0-9]*(?:e[-+][0-9]+)?")
    a, b = numbers.findall(doc), numbers.findall(run)
    return numbers.sub("#", doc) == numbers.sub("#", run) and len(a) == len(b) and \
        all(abs(float(x) - float(y)) <= 1e-3 * abs(float(x)) for x, y in zip(a, b))


def test_the_inversion_pages_example_is_what_the_binary_prints(tmp_path):
    binary = os.environ.get("REVWAVE_BINARY", str(ROOT / "build" / "revwave"))
    if not os.path.exists(binary):
        pytest.skip(f"no revwave binary at {binary} (build it: bash .ci/build)")
    command = ("invert --shape 20,20,16 --tn 0.4 --f0 15 --src-grid 2,2,20 --rec-grid 8,8,10 --vmin 1400 "
               "--vmax 3000 --bands 8,14 --iterations 4 --boundary sponge --threads 1 --out-dir inv")
    doc = documented("docs/inversion.md", command)
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    p = subprocess.run([binary, *command.split()], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    run = p.stdout.splitlines()
    assert len(doc) == len(run), f"docs/inversion.md: {len(doc)} lines documented, {len(run)} printed:\n{p.stdout}"
    for d, r in zip(doc, run):
        assert same_numbers_line(d, r), f"docs/inversion.md documents\n{d}\nthe binary prints\n{r}"
