"""Ctrl-C during a long call raises KeyboardInterrupt within a second and leaves nothing behind;
numbers that run but look wrong warn (RevwaveWarning) with the CLI's sentences; a model of one's own
needs data, and a shape given with it must be its own."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import revwave

# Each call runs for many seconds uninterrupted (one thread, long records: 2 s was too short for a fast
# machine, where a call could end before the signal); the child says "go" just before it, the test
# sends SIGINT a little later and times the KeyboardInterrupt. Every call is interrupted at 1.5 s, so
# their length costs nothing.
CALLS = {
    "forward": "revwave.forward(shape=(48, 48, 48), tn=40.0, threads=1)",
    "gradient": "revwave.gradient(shape=(40, 40, 40), tn=4.0, strategy='revolve', snaps=4, threads=1)",
    "survey": "revwave.forward_survey(shape=(40, 40, 40), tn=12.0, src_grid=(2, 2, 20), threads=1, out=OUT + '/records')",
    "invert": "revwave.invert(shape=(32, 32, 24), tn=2.0, src_grid=(2, 1, 20), vmin=1400, vmax=3200, threads=1, "
              "strategy='full', out_dir=OUT + '/inv')",
}

# The child handles Ctrl-C as an interactive Python does (KeyboardInterrupt), whatever it inherited:
# a runner that starts the suite as a background job without job control hands it SIGINT ignored.
CHILD = """
import signal, sys, time, revwave
signal.signal(signal.SIGINT, signal.default_int_handler)
OUT = sys.argv[1]
print("go", flush=True)
start = time.monotonic()
try:
    CALL
    print("finished", time.monotonic() - start, flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
"""


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_interrupts_a_long_call_within_a_second(name, tmp_path):
    child = subprocess.Popen([sys.executable, "-c", CHILD.replace("CALL", CALLS[name]), str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "go"
    time.sleep(1.5)  # well inside the call
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    words = out.split()
    assert words and words[0] == "interrupted", (name, out, err)
    latency = float(words[1]) - sent
    print(f"{name}: KeyboardInterrupt {latency:.3f} s after SIGINT")
    # A second is the promise; the margin is for a loaded machine (the check runs every 50 ms).
    assert latency < 1.5, (name, latency)
    # Nothing half-written: no records directory, no temporaries anywhere.
    leftovers = [str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if ".tmp." in p.name]
    assert leftovers == [], leftovers
    assert not (tmp_path / "records").exists()


def test_warnings_are_the_clis_sentences(cli, tmp_path):
    with pytest.warns(revwave.RevwaveWarning) as caught:
        r = revwave.forward(shape=(12, 12, 12), f0=60, tn=0.02)
    theirs = cli.json("forward", "--shape", "12,12,12", "--f0", "60", "--tn", "0.02", "--out", tmp_path / "w.npy")
    assert r.stats["warnings"] == theirs["warnings"]
    assert [str(w.message) for w in caught] == theirs["warnings"]
    assert len(theirs["warnings"]) == 2


def test_a_model_of_ones_own_needs_data_and_keeps_its_shape(cli, tmp_path):
    model = np.full((12, 12, 12), 2000.0)
    np.save(tmp_path / "mine.npy", model)
    with pytest.raises(revwave.InputError) as e:
        revwave.gradient(model, tn=0.1)
    assert "a gradient of your own model needs data to fit" in str(e.value)
    with pytest.raises(revwave.InputError) as e:
        revwave.forward(model, shape=(20, 20, 20), tn=0.05)
    assert "--shape 20,20,20 disagrees with the model, whose shape is (12, 12, 12)" in str(e.value)
    with pytest.raises(revwave.InputError) as e:
        revwave.forward(np.full((12, 12, 12), 2.0), tn=0.05)
    assert "velocity 2 m/s at point (0, 0, 0) is below 100 m/s" in str(e.value)
    rc, _, err = cli("forward", "--model", tmp_path / "mine.npy", "--shape", "20,20,20", "--tn", "0.05", check=False)
    assert rc == 2 and "disagrees with --model" in err
