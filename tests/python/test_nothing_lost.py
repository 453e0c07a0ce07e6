"""Nothing lost, nothing silent (#45) from Python: a count given as a fraction, bounds the wrong way
round and ``normalize=True`` are refused as the CLI refuses their options; forward_survey's result is
observed data as it is; an output that names an input is refused before the run.

Small grids and few steps: the whole file runs in seconds on two cores.
"""
import numpy as np
import pytest

import revwave

SMALL = dict(shape=(12, 12, 12), tn=0.2, threads=1, boundary="sponge", nbl=4)


@pytest.mark.parametrize("keyword, value, option", [("nbl", 10.9, "--nbl"), ("space_order", 4.5, "--space-order"),
                                                    ("threads", 1.5, "--threads"), ("nbl", True, "--nbl")])
def test_a_count_given_as_a_fraction_or_a_bool_is_refused(keyword, value, option):
    kw = dict(SMALL)
    kw[keyword] = value
    with pytest.raises(revwave.InputError, match=f"{option} .*{value}.* is invalid: it must be an integer"):
        revwave.forward(**kw)


def test_every_integer_keyword_refuses_a_fraction():
    with pytest.raises(revwave.InputError, match="--snaps '2.7' is invalid: it must be an integer"):
        revwave.gradient(strategy="revolve", snaps=2.7, **SMALL)
    with pytest.raises(revwave.InputError, match="--steps '100.5' is invalid"):
        revwave.schedule(steps=100.5, snaps=3)
    with pytest.raises(revwave.InputError, match="--snaps '3.5' is invalid"):
        revwave.schedule(steps=100, snaps=3.5)
    with pytest.raises(revwave.InputError, match="--seed '1.5' is invalid"):
        revwave.adjtest(seed=1.5, **SMALL)
    with pytest.raises(revwave.InputError, match="--halvings '2.5' is invalid"):
        revwave.gradtest(halvings=2.5, **SMALL)
    with pytest.raises(revwave.InputError, match="--iterations '2.5' is invalid"):
        revwave.invert(vmin=1500, vmax=2500, iterations=2.5, **SMALL)
    with pytest.raises(revwave.InputError, match="--lbfgs-memory '4.2' is invalid"):
        revwave.invert(vmin=1500, vmax=2500, lbfgs_memory=4.2, **SMALL)


def test_a_whole_float_is_the_integer_it_equals():
    # numpy arithmetic gives counts as floats (a config file's TOML float is refused: it is typed).
    kw = dict(SMALL)
    kw["nbl"] = np.float64(4.0)
    assert revwave.forward(**kw).data.tobytes() == revwave.forward(**SMALL).data.tobytes()
    assert revwave.schedule(steps=100.0, snaps=3.0) == revwave.schedule(steps=100, snaps=3)


def test_bounds_the_wrong_way_round_are_refused_as_the_cli_refuses_them():
    f = revwave.Objective((4, 4, 4))
    with pytest.raises(revwave.InputError, match="--vmax 1600 m/s is invalid: it must exceed --vmin 2400 m/s"):
        f.bounds(2400, 1600)
    with pytest.raises(revwave.InputError, match="--vmax 2000 m/s is invalid: it must exceed --vmin 2000 m/s"):
        f.bounds(2000, 2000)
    with pytest.raises(revwave.InputError, match="--vmin -5 m/s is invalid"):
        f.bounds(-5, 2000)
    assert f.bounds(1500, 2500)[0] == (1.5, 2.5)


def test_normalize_means_one_thing_everywhere():
    obs = revwave.forward(**SMALL)
    start = np.full(SMALL["shape"], 2000.0)
    kw = {k: v for k, v in SMALL.items() if k not in ("shape", "tn")}
    # gradient: a number J is divided by; True is Objective's "the first |J|", which one call has not.
    with pytest.raises(revwave.InputError, match="normalize=True is invalid.*Objective"):
        revwave.gradient(start, observed=obs, normalize=True, **kw)
    raw = revwave.gradient(start, observed=obs, precision="double", **kw)
    f = revwave.Objective(start.shape, observed=obs, precision="double", normalize=2.0 * raw.objective, **kw)
    j, _ = f(f.x(start))
    assert j == pytest.approx(0.5, rel=1e-12)
    first = revwave.Objective(start.shape, observed=obs, precision="double", **kw)
    assert first(first.x(start))[0] == 1.0 and first.j0 == raw.objective
    off = revwave.Objective(start.shape, observed=obs, precision="double", normalize=False, **kw)
    assert off(off.x(start))[0] == raw.objective
    for bad in (0, -1.0, float("nan"), "yes"):
        with pytest.raises(revwave.InputError, match="normalize"):
            revwave.Objective(start.shape, normalize=bad)


def test_gradient_takes_forward_surveys_result_as_it_is():
    shots = revwave.forward_survey(src=[[40.0, 40.0, 20.0], [70.0, 70.0, 20.0]], **SMALL)
    start = np.full(SMALL["shape"], 2000.0)
    kw = {k: v for k, v in SMALL.items() if k not in ("shape", "tn")}
    whole = revwave.gradient(start, observed=shots, **kw)
    listed = revwave.gradient(start, observed=shots.records, **kw)
    assert whole.objective == listed.objective
    assert whole.gradient.tobytes() == listed.gradient.tobytes()


def test_a_survey_written_over_its_model_is_refused_before_the_run(tmp_path):
    np.save(tmp_path / "m.npy", np.full(SMALL["shape"], 2000.0))
    kw = {k: v for k, v in SMALL.items() if k != "shape"}
    before = (tmp_path / "m.npy").read_bytes()
    with pytest.raises(revwave.InputError, match="would overwrite --model"):
        revwave.forward_survey(tmp_path / "m.npy", src=[[40.0, 40.0, 20.0]], out=tmp_path / "m.npy", **kw)
    assert (tmp_path / "m.npy").read_bytes() == before
    with pytest.raises(revwave.IoError, match="its directory .*missing does not exist"):
        revwave.forward_survey(src=[[40.0, 40.0, 20.0]], out=tmp_path / "missing" / "s.sgy", **SMALL)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npy"]
