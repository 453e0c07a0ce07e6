"""The Python package against the CLI: same numbers bit for bit, same refusals, arrays, threads.

Small grids and few steps: the whole file runs in well under a minute on two cores.
"""
import json
import os
import threading
import time

import numpy as np
import pytest

import revwave

SMALL = dict(shape=(20, 20, 18), tn=0.12)
CLI_SMALL = ["--shape", "20,20,18", "--tn", "0.12"]


def blob_model(shape, background=2000.0, peak=2300.0, spacing=10.0):
    nx, ny, nz = shape
    x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    r2 = ((x - nx / 2) ** 2 + (y - ny / 2) ** 2 + (z - nz / 2) ** 2) / (0.2 * min(shape)) ** 2
    return (background + (peak - background) * np.exp(-r2)).astype(np.float64)


def cli_error(cli, *args, env=None):
    rc, _, err = cli(*args, env=env, check=False)
    assert rc != 0
    line = err.strip().splitlines()[-1]
    assert line.startswith("revwave: error: "), err
    return line[len("revwave: error: "):]


# ---- round trips and equality with the CLI ----------------------------------------------------

def test_forward_equals_cli_and_round_trips(cli, tmp_path):
    rec = revwave.forward(**SMALL)
    assert rec.data.dtype == np.float32 and rec.data.flags.owndata or rec.data.base is not None
    assert rec.data.shape == (rec.nt, 256) and rec.src.shape == (1, 3) and rec.rec.shape == (256, 3)
    cli("forward", *CLI_SMALL, "--out", tmp_path / "shot.npy")
    theirs = revwave.ShotRecord.load(tmp_path / "shot.npy")
    assert theirs.data.dtype == np.float32
    assert theirs.data.tobytes() == rec.data.tobytes()
    assert (theirs.dt, theirs.f0, theirs.t0) == (rec.dt, rec.f0, rec.t0)
    np.testing.assert_array_equal(theirs.rec, rec.rec)
    # Written by Python, read back by Python and accepted by the CLI.
    rec.save(tmp_path / "mine.npy")
    back = revwave.ShotRecord.load(tmp_path / "mine.npy")
    assert back.data.tobytes() == rec.data.tobytes() and back.dt == rec.dt
    assert np.load(tmp_path / "mine.npy").tobytes() == np.load(tmp_path / "shot.npy").tobytes()


@pytest.mark.parametrize("precision", ["float", "double"])
def test_gradient_equals_cli_bit_for_bit(cli, tmp_path, precision):
    shape = (20, 20, 18)
    true = blob_model(shape)
    start = np.full(shape, 2000.0)
    np.save(tmp_path / "true.npy", true)
    np.save(tmp_path / "start.npy", start)
    cli("forward", "--model", tmp_path / "true.npy", "--tn", "0.12", "--precision", precision,
        "--out", tmp_path / "obs.npy")
    j = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "obs.npy",
                 "--strategy", "revolve", "--snaps", "4", "--precision", precision, "--out", tmp_path / "g.npy")
    theirs = np.load(tmp_path / "g.npy")
    observed = revwave.ShotRecord.load(tmp_path / "obs.npy")
    r = revwave.gradient(start, observed=observed, strategy="revolve", snaps=4, precision=precision)
    assert r.gradient.dtype == theirs.dtype == (np.float32 if precision == "float" else np.float64)
    assert r.gradient.shape == shape
    assert r.gradient.tobytes() == theirs.tobytes()
    assert r.objective == j["objective"]
    for key in ("forward_steps", "stores", "restores", "steps", "nt", "dt", "snaps", "predicted_forward_steps",
                "gradient_norm", "strategy", "checkpoint_bytes", "slot_bytes"):
        assert r.stats[key] == j[key], key
    # The observed record given as a path reads the same file the CLI read.
    r2 = revwave.gradient(start, observed=tmp_path / "obs.npy", strategy="revolve", snaps=4, precision=precision)
    assert r2.gradient.tobytes() == theirs.tobytes()


def test_modelled_gradient_equals_cli(cli, tmp_path):
    j = cli.json("gradient", *CLI_SMALL, "--out", tmp_path / "g.npy")
    r = revwave.gradient(**SMALL)
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    assert r.objective == j["objective"] and r.stats["observed"] == "modelled"
    assert r.observed is not None and r.observed.data.shape == (j["nt"], 256)


def test_every_strategy_equals_full(tmp_path):
    shape = (16, 16, 16)
    true = blob_model(shape)
    obs = revwave.forward(true, tn=0.1)
    start = np.full(shape, 2000.0)
    full = revwave.gradient(start, observed=obs, strategy="full")
    assert np.abs(full.gradient).max() > 0
    runs = [dict(strategy="revolve", snaps=3), dict(strategy="revolve", checkpoint_memory="5M"),
            dict(strategy="revolve", snaps=5, store="disk", checkpoint_dir=str(tmp_path)),
            dict(strategy="online", snaps=4), dict(strategy="multilevel", tier=["memory:2:0:0", "disk:20:1:1"],
                                                   checkpoint_dir=str(tmp_path))]
    for kw in runs:
        r = revwave.gradient(start, observed=obs, **kw)
        assert r.gradient.tobytes() == full.gradient.tobytes(), kw
        assert r.objective == full.objective, kw
        assert r.stats["strategy"] == kw["strategy"]
        if kw["strategy"] == "revolve":  # (multilevel reports predicted_time_steps instead, as the CLI)
            assert r.stats["forward_steps"] == r.stats["predicted_forward_steps"], kw


def test_compressed_checkpoints_are_lossy_within_their_bound_and_reported(cli, tmp_path):
    shape = (16, 16, 16)
    obs = revwave.forward(blob_model(shape), tn=0.1)
    start = np.full(shape, 2000.0)
    exact = revwave.gradient(start, observed=obs, strategy="revolve", snaps=3)
    assert exact.stats["compression"]["mode"] == "none"
    half = revwave.gradient(start, observed=obs, strategy="revolve", snaps=3, compress="fp16")
    assert half.stats["compression"]["mode"] == "fp16"
    assert half.stats["compression"]["fields_compressed"] > 0
    err = np.linalg.norm(half.gradient - exact.gradient) / np.linalg.norm(exact.gradient)
    assert 0 < err < 0.05  # lossy, within the CPU tests' fp16 bound (1.5e-2 measured there)
    # The same bits as the CLI with --compress fp16.
    obs.save(tmp_path / "obs.npy")
    np.save(tmp_path / "start.npy", start)
    j = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "obs.npy", "--strategy",
                 "revolve", "--snaps", "3", "--compress", "fp16", "--out", tmp_path / "g.npy")
    assert np.load(tmp_path / "g.npy").tobytes() == half.gradient.tobytes()
    for key in ("mode", "ratio", "raw_bytes", "compressed_bytes", "fields_compressed", "fields_decompressed"):
        assert j["compression"][key] == half.stats["compression"][key], key
    with pytest.raises(ValueError, match="--compress"):
        revwave.gradient(start, observed=obs, compress="lz4")


def test_schedule_equals_cli(cli):
    for args, kw in [(["--steps", "50", "--snaps", "5"], dict(steps=50, snaps=5)),
                     (["--steps", "40", "--snaps", "3", "--strategy", "online"], dict(steps=40, snaps=3, strategy="online")),
                     (["--steps", "30", "--strategy", "multilevel", "--tier", "memory:2:0:0", "--tier", "disk:6:2:3"],
                      dict(steps=30, strategy="multilevel", tier=["memory:2:0:0", "disk:6:2:3"]))]:
        assert revwave.schedule(**kw) == cli.json("schedule", *args)
    listed = revwave.schedule(steps=10, snaps=2, actions=True)
    assert listed["actions"] == cli.json("schedule", "--steps", "10", "--snaps", "2", "--actions")["actions"]
    assert sum(a.startswith("advance") or a.startswith("first_reverse") for a in listed["actions"]) > 0


def test_adjtest_and_gradtest():
    a = revwave.adjtest(shape=(16, 16, 16), tn=0.1)
    assert a["pass"] and a["relative_error"] < 1e-12 and a["forward_product"] != 0
    t = revwave.gradtest(shape=(14, 14, 14), tn=0.1, halvings=3)
    assert t["pass"], t
    assert abs(t["rate_first"] - 1) < 0.1 and t["rate_second"] > 1.9


# ---- arrays -----------------------------------------------------------------------------------

def test_c_contiguous_float_arrays_are_read_in_place():
    for dtype in (np.float32, np.float64):
        a = np.full((4, 4, 4), 2000.0, dtype=dtype)
        b = revwave._as_input(a, "model")
        assert b is a
        assert revwave._revwave._address(b) == a.ctypes.data


def test_other_layouts_and_dtypes_are_converted_losslessly():
    shape = (14, 12, 16)
    true = blob_model(shape)
    obs = revwave.forward(true, tn=0.08)
    c = revwave.gradient(np.full(shape, 2000.0), observed=obs, strategy="full")
    fortran = np.asfortranarray(np.full(shape, 2000.0))
    ints = np.full(shape, 2000, dtype=np.int32)
    strided = np.full((28, 12, 16), 2000.0)[::2]
    for m in (fortran, ints, strided, np.full(shape, 2000.0, dtype=np.float16)):
        r = revwave.gradient(m, observed=obs, strategy="full")
        assert r.gradient.tobytes() == c.gradient.tobytes()
    # A list of points, and one point as a flat triple.
    s = revwave.forward(true, tn=0.08, src=[70.0, 60.0, 20.0], rec=[[10, 10, 10], [20, 20, 20]])
    assert s.data.shape[1] == 2


def test_refused_dtypes():
    with pytest.raises(ValueError, match="not a real number type"):
        revwave.forward(np.full((8, 8, 8), 2000 + 0j))
    with pytest.raises(ValueError, match="without loss"):
        revwave.forward(np.full((8, 8, 8), 2 ** 60 + 1, dtype=np.int64))
    with pytest.raises(ValueError, match="must be 3D"):
        revwave.forward(np.full((8, 8), 2000.0))


# ---- refusals, with the CLI's sentences -------------------------------------------------------

def test_refusals_carry_the_cli_sentence(cli, tmp_path):
    bad = np.full((10, 10, 10), 2000.0)
    bad[3, 4, 5] = -1500.0
    np.save(tmp_path / "bad.npy", bad)
    with pytest.raises(revwave.InputError) as e:
        revwave.forward(bad, tn=0.05)
    assert isinstance(e.value, ValueError)
    # The same sentence, each naming its model: the array, or the file the CLI read.
    said = cli_error(cli, "forward", "--model", tmp_path / "bad.npy", "--tn", "0.05", "--out", tmp_path / "x.npy")
    assert said.startswith(f"--model {tmp_path / 'bad.npy'}: ")
    assert str(e.value) == "the model: " + said.split(": ", 1)[1]
    nan = np.full((10, 10, 10), 2000.0)
    nan[0, 0, 0] = np.nan
    np.save(tmp_path / "nan.npy", nan)
    with pytest.raises(ValueError) as e:
        revwave.forward(nan, tn=0.05)
    said = cli_error(cli, "forward", "--model", tmp_path / "nan.npy", "--tn", "0.05", "--out", tmp_path / "x.npy")
    assert said.startswith(f"--model {tmp_path / 'nan.npy'}: ")
    assert str(e.value) == "the model: " + said.split(": ", 1)[1]
    cases = [
        (dict(spacing=-3.0), ["--spacing", "-3"]),
        (dict(dt=0.01), ["--dt", "0.01"]),
        (dict(src=[[1000.0, 50.0, 50.0]]), ["--src", "1000,50,50"]),
        (dict(space_order=5), ["--space-order", "5"]),
        (dict(nbl=-1), ["--nbl", "-1"]),
        (dict(rec_grid="0,4,20"), ["--rec-grid", "0,4,20"]),
    ]
    for kw, args in cases:
        with pytest.raises(ValueError) as e:
            revwave.forward(shape=(10, 10, 10), tn=0.05, **kw)
        theirs = cli_error(cli, "forward", "--shape", "10,10,10", "--tn", "0.05", *args, "--out", tmp_path / "x.npy")
        assert theirs.endswith(str(e.value)), (kw, theirs, str(e.value))
    with pytest.raises(ValueError) as e:
        revwave.gradient(shape=(10, 10, 10), tn=0.05, snaps=0)
    assert "--snaps 0 is invalid" in str(e.value)
    record = revwave.forward(shape=(10, 10, 10), tn=0.05)
    with pytest.raises(ValueError, match="--observed excludes --src"):
        revwave.gradient(shape=(10, 10, 10), observed=record, src=[[1, 1, 1]])
    with pytest.raises(ValueError, match="--observed excludes --tn"):
        revwave.gradient(shape=(10, 10, 10), observed=record, tn=0.05)
    with pytest.raises(ValueError, match="--f0: the record observed carries its wavelet"):
        revwave.gradient(shape=(10, 10, 10), observed=record, f0=10.0)


def test_io_memory_and_backend_errors(cli, tmp_path):
    with pytest.raises(OSError):
        revwave.gradient(observed=tmp_path / "missing.npy")
    np.save(tmp_path / "lonely.npy", np.zeros((5, 3), dtype=np.float32))  # no sidecar
    with pytest.raises(revwave.IoError) as e:
        revwave.ShotRecord.load(tmp_path / "lonely.npy")
    assert isinstance(e.value, OSError)
    assert str(e.value) == cli_error(cli, "gradient", "--shape", "10,10,10", "--observed", tmp_path / "lonely.npy",
                                     "--out", tmp_path / "g.npy")
    with pytest.raises(OSError):
        revwave.gradient(shape=(10, 10, 10), observed=tmp_path / "lonely.npy")
    limit = {"REVWAVE_MEMORY_LIMIT": "1M"}
    os.environ.update(limit)
    try:
        with pytest.raises(revwave.OutOfMemoryError) as e:
            revwave.gradient(shape=(30, 30, 30), tn=0.1)
    finally:
        del os.environ["REVWAVE_MEMORY_LIMIT"]
    assert isinstance(e.value, MemoryError)
    assert str(e.value) == cli_error(cli, "gradient", "--shape", "30,30,30", "--tn", "0.1", "--out", tmp_path / "g.npy",
                                     env=limit)
    # backend="cuda": the pip-built package has the CPU backend only (NotCompiledError, a RuntimeError);
    # a build with the CUDA backend and no device refuses with the CLI's "--backend cuda: ..." (ValueError).
    try:
        revwave.forward(shape=(10, 10, 10), tn=0.05, backend="cuda")
    except RuntimeError as err:
        assert isinstance(err, revwave.NotCompiledError) and "--backend cuda" in str(err)
    except ValueError as err:
        assert "--backend cuda" in str(err)
    else:
        pytest.skip("a CUDA device ran the forward model")
    # A bad record given in memory.
    r = revwave.forward(shape=(10, 10, 10), tn=0.05)
    r.data[3, 2] = np.inf
    with pytest.raises(ValueError, match="must be finite"):
        revwave.gradient(shape=(10, 10, 10), observed=r)
    with pytest.raises(ValueError, match="field 'dt'"):
        revwave.gradient(shape=(10, 10, 10),
                         observed=revwave.ShotRecord(np.zeros_like(r.data), -1.0, r.src, r.rec, r.f0, r.t0))


# ---- threads ----------------------------------------------------------------------------------

def test_gil_is_released_while_revwave_computes():
    """A Python thread keeps running while a gradient runs: impossible if the call held the GIL."""
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        # The compiled call alone, timed from inside: ticks must fall well within it.
        started = time.perf_counter()
        r = revwave.gradient(shape=(24, 24, 24), tn=0.2, strategy="revolve", snaps=3, threads=1)
        ended = time.perf_counter()
    finally:
        stop.set()
        t.join()
    assert r.objective > 0
    duration = ended - started
    inside = [x for x in ticks if started + 0.2 * duration < x < ended - 0.2 * duration]
    assert duration > 0.05 and len(inside) >= 3, (duration, len(inside))


def test_threads_option_lasts_one_call():
    before = revwave._revwave._max_threads()
    revwave.forward(shape=(10, 10, 10), tn=0.05, threads=before + 1)
    revwave.gradient(shape=(10, 10, 10), tn=0.05, threads=before + 1)
    assert revwave._revwave._max_threads() == before


def test_two_threads_compute_two_shots():
    shape = (16, 16, 16)
    true = blob_model(shape)
    start = np.full(shape, 2000.0)
    obs = [revwave.forward(true, tn=0.1, src=[[x, 75.0, 20.0]]) for x in (40.0, 110.0)]
    alone = [revwave.gradient(start, observed=o, strategy="revolve", snaps=3) for o in obs]
    together = [None, None]

    def run(i):
        together[i] = revwave.gradient(start, observed=obs[i], strategy="revolve", snaps=3)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(alone, together):
        assert a.gradient.tobytes() == b.gradient.tobytes() and a.objective == b.objective
    assert alone[0].gradient.tobytes() != alone[1].gradient.tobytes()


# ---- an inversion -----------------------------------------------------------------------------

def test_lbfgsb_inversion_moves_towards_the_true_model():
    """scipy's L-BFGS-B with revwave.gradient as jac, on m = 1/c^2 of a small 3D transmission problem."""
    optimize = pytest.importorskip("scipy.optimize")
    shape = (16, 16, 16)
    h = 10.0
    true = blob_model(shape, background=2000.0, peak=2250.0)
    start = np.full(shape, 2000.0)
    ext = (np.array(shape) - 1) * h
    src = [[ext[0] / 2, ext[1] / 2, h]]
    kw = dict(spacing=h, nbl=10, strategy="full", precision="double")
    # Receivers across the bottom face: the waves cross the anomaly on their way.
    observed = revwave.forward(true, tn=0.2, dt=0.0015, src=src, rec_grid=(8, 8, ext[2] - h), precision="double")
    m_true, m0 = 1 / true ** 2, 1 / start ** 2
    scale = m0.mean()
    j0 = revwave.gradient(start, observed=observed, **kw).objective

    def fun(x):
        m = x.reshape(shape) * scale
        r = revwave.gradient(1 / np.sqrt(m), observed=observed, **kw)
        return r.objective / j0, (r.gradient.ravel() * scale / j0)

    bounds = [(1 / 2600.0 ** 2 / scale, 1 / 1600.0 ** 2 / scale)] * m0.size
    res = optimize.minimize(fun, (m0 / scale).ravel(), jac=True, method="L-BFGS-B", bounds=bounds,
                            options=dict(maxiter=5))
    m = res.x.reshape(shape) * scale
    # Five iterations: the objective falls at least 20-fold (measured: 177-fold) and the distance to
    # the true model by at least 15% (measured: 25%).
    assert res.fun < 0.05, res
    assert np.linalg.norm(m - m_true) < 0.85 * np.linalg.norm(m0 - m_true)


# ---- surveys ----------------------------------------------------------------------------------

def test_survey_gradient_equals_cli(cli, tmp_path):
    shape = (16, 16, 14)
    np.save(tmp_path / "true.npy", blob_model(shape))
    start = np.full(shape, 2000.0)
    np.save(tmp_path / "start.npy", start)
    cli("forward", "--model", tmp_path / "true.npy", "--tn", "0.08", "--src-grid", "2,1,20",
        "--out", tmp_path / "shots")
    j = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "shots", "--snaps", "4",
                 "--out", tmp_path / "g.npy")
    theirs = np.load(tmp_path / "g.npy")
    r = revwave.gradient(start, observed=tmp_path / "shots", snaps=4)
    assert r.gradient.tobytes() == theirs.tobytes()
    assert r.objective == j["objective"] and r.stats["shots"] == 2
    assert r.stats["shot_objectives"] == j["shot_objectives"]
    records = [revwave.ShotRecord.load(f) for f in sorted((tmp_path / "shots").glob("*.npy"))]
    assert len(records) == 2
    r2 = revwave.gradient(start, observed=records, snaps=4)
    assert r2.gradient.tobytes() == theirs.tobytes() and r2.objective == j["objective"]
    # One shot alone is a different sum: the survey really has two.
    one = revwave.gradient(start, observed=records[:1], snaps=4)
    assert one.objective != r2.objective
    # Compressed checkpoints over a survey: the same bits as the CLI, and its compression block.
    jc = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "shots", "--snaps", "4",
                  "--compress", "fp16", "--out", tmp_path / "gc.npy")
    rc = revwave.gradient(start, observed=records, snaps=4, compress="fp16")
    assert rc.gradient.tobytes() == np.load(tmp_path / "gc.npy").tobytes()
    assert rc.stats["compression"]["mode"] == "fp16"
    assert rc.stats["compression"]["fields_compressed"] == jc["compression"]["fields_compressed"] > 0
    assert r2.stats["compression"]["fields_compressed"] == 0
    # SEG-Y: written by the CLI, read through the survey library.
    cli("forward", "--model", tmp_path / "true.npy", "--tn", "0.08", "--src-grid", "2,1,20",
        "--out", tmp_path / "shots.sgy")
    j = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "shots.sgy", "--snaps", "4",
                 "--out", tmp_path / "gs.npy")
    r3 = revwave.gradient(start, observed=str(tmp_path / "shots.sgy"), snaps=4)
    assert r3.gradient.tobytes() == np.load(tmp_path / "gs.npy").tobytes() and r3.objective == j["objective"]
    # One summary for both (revwave/setup): every field of the CLI's JSON but its files' and the wall clock's.
    # (the command's phases count from the process's start: a Python call has no such clock.)
    assert set(j) - set(r3.stats) == {"out", "config", "png", "shots_per_minute", "phases", "wall_seconds"}
    for key in ("survey", "shots", "processes", "objective", "gradient_norm", "strategy", "aperture", "forward_steps",
                "reverse_steps", "peak_partial_sums", "shot_objectives", "shape", "space_order", "backend", "precision"):
        assert r3.stats[key] == j[key], key
    assert [s["name"] for s in r3.stats["per_shot"]] == [s["name"] for s in j["per_shot"]]


def test_forward_survey_equals_cli(cli, tmp_path):
    """A survey's records from Python and from the CLI: the same SEG-Y bytes, the same records."""
    shape = (16, 16, 14)
    np.save(tmp_path / "true.npy", blob_model(shape))
    layout = dict(tn=0.08, src_grid=(2, 1, 20), rec_grid=(4, 4, 10), threads=1)
    args = ["--model", tmp_path / "true.npy", "--tn", "0.08", "--src-grid", "2,1,20", "--rec-grid", "4,4,10",
            "--threads", "1"]
    j = cli.json("forward", *args, "--out", tmp_path / "cli.sgy")
    mine = revwave.forward_survey(tmp_path / "true.npy", out=tmp_path / "py.sgy", **layout)
    assert (tmp_path / "py.sgy").read_bytes() == (tmp_path / "cli.sgy").read_bytes()
    assert len(mine.records) == 2 == j["shots"] == mine.stats["shots"]
    for key in ("traces", "nt", "dt", "format", "origin", "spread"):
        assert mine.stats[key] == j[key], key
    # Records in memory, and a directory of records as the CLI writes it.
    cli("forward", *args, "--out", tmp_path / "cli_records")
    kept = revwave.forward_survey(blob_model(shape), out=tmp_path / "py_records", **layout)
    for k, record in enumerate(kept.records):
        name = f"shot_{k:04d}.npy"
        assert (tmp_path / "py_records" / name).read_bytes() == (tmp_path / "cli_records" / name).read_bytes()
        assert record.data.tobytes() == np.load(tmp_path / "cli_records" / name).tobytes()
    assert revwave.forward_survey(blob_model(shape), **layout).records[1].data.tobytes() == kept.records[1].data.tobytes()
    with pytest.raises(revwave.InputError) as e:
        revwave.forward_survey(blob_model(shape), out=tmp_path / "one.npy", **layout)
    assert str(e.value) == cli_error(cli, "forward", *args, "--out", tmp_path / "one.npy")


# ---- an inversion, as revwave invert ------------------------------------------------------------

INVERT_ARGS = ["--spacing", "10", "--space-order", "4", "--nbl", "6", "--tn", "0.15", "--f0", "20",
               "--src-grid", "2,1,10", "--rec-grid", "4,4,10", "--threads", "1", "--strategy", "full",
               "--vmin", "1400", "--vmax", "2400", "--bands", "14,22", "--iterations", "2"]
INVERT_KW = dict(spacing=10, space_order=4, nbl=6, tn=0.15, f0=20, src_grid=(2, 1, 10), rec_grid=(4, 4, 10), threads=1,
                 strategy="full", vmin=1400, vmax=2400, bands=(14, 22), iterations=2)


def test_invert_equals_cli_bit_for_bit(cli, tmp_path):
    shape = (14, 12, 10)
    true = blob_model(shape, background=1800.0, peak=2000.0)
    start = np.full(shape, 1800.0)
    np.save(tmp_path / "true.npy", true)
    np.save(tmp_path / "start.npy", start)
    j = cli.json("invert", "--model", tmp_path / "start.npy", "--true-model", tmp_path / "true.npy", *INVERT_ARGS,
                 "--out-dir", tmp_path / "cli")
    r = revwave.invert(start, true_model=true, out_dir=tmp_path / "py", **INVERT_KW)
    files = sorted(p.name for p in (tmp_path / "cli").iterdir() if p.suffix in (".npy", ".bin"))
    assert "model_0001.npy" in files and "state.bin" in files
    assert files == sorted(p.name for p in (tmp_path / "py").iterdir() if p.suffix in (".npy", ".bin"))
    for name in files:
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert r.model.dtype == np.float32 and r.model.shape == shape
    assert r.model.tobytes() == np.load(tmp_path / "cli" / "model.npy").tobytes()
    lines = [json.loads(line) for line in (tmp_path / "cli" / "history.jsonl").read_text().splitlines()]
    drop = lambda h: [{k: v for k, v in e.items() if not k.startswith("seconds")} for e in h]  # times
    assert drop(r.history) == drop(lines) and len(lines) >= 4
    for key in ("iterations", "objective", "bands", "band_ends", "fingerprint"):
        assert r.stats[key] == j[key], key
    # Without a directory: the same model, nothing written; a paths' model and the same bits.
    again = revwave.invert(tmp_path / "start.npy", true_model=tmp_path / "true.npy", **INVERT_KW)
    assert again.model.tobytes() == r.model.tobytes() and drop(again.history) == drop(r.history)
    assert again.stats["out_dir"] == ""
    # The directory now holds an inversion: a new run there is refused, a resume has nothing left.
    with pytest.raises(revwave.InputError, match="continues it"):
        revwave.invert(start, true_model=true, out_dir=tmp_path / "py", **INVERT_KW)
    done = revwave.invert(start, true_model=true, resume=tmp_path / "py", **INVERT_KW)
    assert done.model.tobytes() == r.model.tobytes() and done.stats["this_run"] == []
    assert len(done.history) == len(r.history)


def test_invert_refusals_carry_the_cli_sentence(cli, tmp_path):
    small = dict(velocity=2000.0, shape=(12, 12, 10), tn=0.1, src=[[50, 50, 10]], rec=[[30, 30, 10]])
    cli_small = ["--velocity", "2000", "--shape", "12,12,10", "--tn", "0.1", "--src", "50,50,10", "--rec", "30,30,10",
                 "--out-dir", tmp_path / "x"]
    for kw, args in [(dict(vmax=3000), ["--vmax", "3000"]),
                     (dict(vmin=1500, vmax=3000, bands=(10, 5)), ["--vmin", "1500", "--vmax", "3000", "--bands", "10,5"]),
                     (dict(vmin=1500, vmax=3000, mask_depth=500), ["--vmin", "1500", "--vmax", "3000", "--mask-depth", "500"]),
                     (dict(vmin=2500, vmax=3000), ["--vmin", "2500", "--vmax", "3000"])]:
        with pytest.raises(revwave.InputError) as e:
            revwave.invert(**small, **kw)
        assert str(e.value) == cli_error(cli, "invert", *cli_small, *args)
    with pytest.raises(revwave.InputError, match="--lbfgs-memory 0 is invalid"):
        revwave.invert(**small, vmin=1500, vmax=3000, lbfgs_memory=0)
    # Several shots at once is the CUDA backend's: out of range, or on the CPU, refused as by the CLI.
    for n, args in [(9, ["--shots-at-once", "9"]), (2, ["--backend", "cpu", "--shots-at-once", "2"])]:
        kw = dict(backend="cpu") if "--backend" in args else {}
        with pytest.raises(revwave.InputError) as e:
            revwave.invert(**small, vmin=1500, vmax=3000, shots_at_once=n, **kw)
        assert str(e.value) == cli_error(cli, "invert", *cli_small, "--vmin", "1500", "--vmax", "3000", *args)
    with pytest.raises(revwave.InputError, match=r"--mask \(an array\) has shape \(10\)"):
        revwave.invert(**small, vmin=1500, vmax=3000, mask=np.ones(10))
