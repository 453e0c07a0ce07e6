"""Beyond L2 from Python: the built-in misfits (the CLI's bits), a misfit written in Python (the
built-in L2 gradient bit for bit; its exceptions unchanged; a bad result refused with one line), dJ/dc,
the synthetic traces and residual, observed data in memory, sampled and estimated wavelets, and the
objective's scaling for off-the-shelf optimisers.

Small grids and few steps, one thread: the file runs in well under a minute on two cores."""
import numpy as np
import pytest

import revwave

SHAPE = (16, 16, 14)
OPT = dict(threads=1)


def blob(shape=SHAPE, background=2000.0, peak=2250.0):
    nx, ny, nz = shape
    x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    r2 = ((x - nx / 2) ** 2 + (y - ny / 2) ** 2 + (z - nz / 2) ** 2) / (0.2 * min(shape)) ** 2
    return background + (peak - background) * np.exp(-r2)


@pytest.fixture(scope="module")
def case():
    """Observed data in the blob model, a homogeneous start, in float and in double."""
    start = np.full(SHAPE, 2000.0)
    obs = {p: revwave.forward(blob(), tn=0.12, precision=p, **OPT) for p in ("float", "double")}
    return start, obs


def l2(synthetic, observed):
    r = synthetic - observed
    return 0.5 * float(np.sum(r.astype(np.float64) ** 2)), r


@pytest.mark.parametrize("precision", ["float", "double"])
@pytest.mark.parametrize("strategy", [dict(strategy="full"), dict(strategy="revolve", snaps=3), dict(strategy="online", snaps=4)])
def test_a_python_l2_misfit_gives_the_builtin_gradient(case, precision, strategy):
    start, obs = case
    builtin = revwave.gradient(start, observed=obs[precision], precision=precision, **strategy, **OPT)
    mine = revwave.gradient(start, observed=obs[precision], precision=precision, misfit=l2, **strategy, **OPT)
    # The adjoint source is the same residual in the run's dtype: the same gradient, bit for bit.
    assert mine.gradient.tobytes() == builtin.gradient.tobytes()
    assert abs(mine.objective - builtin.objective) <= 1e-12 * abs(builtin.objective)
    assert mine.stats["misfit"] == "custom" and "misfit" not in builtin.stats


def test_the_misfit_is_called_once_per_shot_with_the_runs_arrays(case):
    start, obs = case
    calls = []

    def spy(synthetic, observed):
        calls.append((synthetic.shape, synthetic.dtype, observed.dtype))
        return l2(synthetic, observed)

    revwave.gradient(start, observed=obs["float"], strategy="revolve", snaps=3, misfit=spy, **OPT)
    assert calls == [((obs["float"].nt, obs["float"].data.shape[1]), np.float32, np.float32)]
    calls.clear()
    revwave.gradient(start, observed=[obs["double"], obs["double"]], precision="double", misfit=spy, **OPT)
    assert len(calls) == 2 and calls[0][1] == np.float64


def test_an_exception_in_the_misfit_reaches_the_caller_unchanged(case):
    start, obs = case

    class Mine(Exception):
        pass

    raised = Mine("from inside the misfit", 42)

    def fails(synthetic, observed):
        raise raised

    with pytest.raises(Mine) as e:
        revwave.gradient(start, observed=obs["float"], strategy="revolve", snaps=3, misfit=fails, **OPT)
    assert e.value is raised and e.value.args == ("from inside the misfit", 42)
    with pytest.raises(ZeroDivisionError):
        revwave.gradient(start, observed=[obs["float"]], misfit=lambda s, d: 1 / 0, **OPT)


@pytest.mark.parametrize("result, words", [
    (lambda s, d: (0.0, np.zeros((3, 4), np.float32)), "shape (3, 4), expected an array of shape"),
    (lambda s, d: (0.0, np.zeros(s.shape, np.float64)), "dtype is not float32"),
    (lambda s, d: (0.0, (s - d).tolist()), "expected an array of shape"),
    (lambda s, d: s - d, "expected a pair (J, adjoint_source)"),
    (lambda s, d: ("J", s - d), "J is a str"),
    (lambda s, d: (float("nan"), s - d), "is not finite"),
    # A finite J with a NaN or inf in its adjoint source: the misfit named, not the propagator blamed.
    (lambda s, d: (0.0, np.where(np.arange(s.shape[1]) == 2, np.float32("nan"), s - d).astype(np.float32)),
     "misfit <lambda>: its adjoint source is NaN at sample 0, receiver 2;"),
    (lambda s, d: (0.0, np.full(s.shape, np.inf, np.float32)), "its adjoint source is inf at sample 0, receiver 0"),
])
def test_a_bad_misfit_result_is_refused_with_one_line(case, result, words):
    start, obs = case
    with pytest.raises(revwave.InputError) as e:
        revwave.gradient(start, observed=obs["float"], misfit=result, **OPT)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert "--precision double" not in str(e.value)


@pytest.mark.parametrize("misfit", ["correlation", "envelope"])
def test_builtin_misfits_give_the_clis_bits(cli, case, tmp_path, misfit):
    start, obs = case
    obs["float"].save(tmp_path / "obs.npy")
    np.save(tmp_path / "start.npy", start)
    j = cli.json("gradient", "--model", tmp_path / "start.npy", "--observed", tmp_path / "obs.npy", "--misfit", misfit,
                 "--snaps", "3", "--threads", "1", "--out", tmp_path / "g.npy")
    r = revwave.gradient(start, observed=obs["float"], misfit=misfit, snaps=3, **OPT)
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    assert r.objective == j["objective"] and j["misfit"] == misfit == r.stats["misfit"]
    if misfit == "correlation":
        assert -obs["float"].data.shape[1] <= r.objective < 0  # minus a sum of correlations, one per trace
    with pytest.raises(ValueError, match="--misfit 'l1' is invalid"):
        revwave.gradient(start, observed=obs["float"], misfit="l1", **OPT)


def test_wrt_velocity_is_the_chain_rule_and_both_derivatives_come_back(case):
    start, obs = case
    m = revwave.gradient(start, observed=obs["double"], precision="double", **OPT)
    c = revwave.gradient(start, observed=obs["double"], precision="double", wrt="velocity", **OPT)
    assert m.wrt == "m" and c.wrt == "velocity"
    assert m.gradient.tobytes() == m.dj_dm.tobytes() == c.dj_dm.tobytes()
    assert c.gradient.tobytes() == c.dj_dc.tobytes()
    np.testing.assert_allclose(c.dj_dc, -2 * m.dj_dm / start ** 3, rtol=1e-15)
    with pytest.raises(ValueError, match="wrt"):
        revwave.gradient(start, observed=obs["double"], wrt="slowness", **OPT)


def test_results_carry_the_synthetic_traces_and_the_residual(case):
    start, obs = case
    r = revwave.gradient(start, observed=obs["float"], **OPT)
    modelled = revwave.forward(start, tn=0.12, dt=obs["float"].dt, **OPT)  # obs's geometry and time axis
    assert r.synthetic.tobytes() == modelled.data.tobytes()
    assert r.residual.tobytes() == (modelled.data - obs["float"].data).tobytes()
    assert revwave.gradient(start, observed=[obs["float"]], **OPT).synthetic is None  # a survey's are not kept


def test_observed_in_memory_with_its_axis_and_geometry_or_refused(case):
    start, obs = case
    o = obs["double"]
    as_record = revwave.gradient(start, observed=o, precision="double", **OPT)
    as_dict = revwave.gradient(start, observed=dict(data=o.data, dt=o.dt, src=o.src, rec=o.rec, f0=o.f0, t0=o.t0),
                               precision="double", **OPT)
    assert as_dict.gradient.tobytes() == as_record.gradient.tobytes()
    with pytest.raises(ValueError, match="an array alone has no time axis or geometry: pass revwave.ShotRecord"):
        revwave.gradient(start, observed=o.data, **OPT)
    with pytest.raises(ValueError, match="missing dt"):
        revwave.gradient(start, observed=dict(data=o.data, src=o.src, rec=o.rec), **OPT)
    with pytest.raises(ValueError, match="neither a Ricker wavelet"):
        revwave.gradient(start, observed=revwave.ShotRecord(o.data, o.dt, o.src, o.rec), **OPT)


def test_a_sampled_wavelet_for_forward_and_gradient(case, tmp_path):
    start, obs = case
    nt = obs["double"].nt
    t = np.arange(nt) * obs["double"].dt
    w = np.sin(2 * np.pi * 20 * (t - 0.03)) * np.exp(-((t - 0.04) / 0.015) ** 2)  # not a Ricker
    rec = revwave.forward(blob(), tn=0.12, precision="double", wavelet=w, **OPT)
    assert rec.wavelet is not None and rec.f0 is None and np.array_equal(rec.wavelet, w)
    assert np.abs(rec.data - obs["double"].data).max() > 0.1 * np.abs(rec.data).max()
    # The record's own wavelet: in the true model, J = 0.
    assert revwave.gradient(blob(), observed=rec, precision="double", **OPT).objective == 0.0
    # Modelled data with wavelet=: the data and the gradient both use it.
    mod = revwave.gradient(start, true_model=blob(), tn=0.12, precision="double", wavelet=w, **OPT)
    assert mod.observed.data.tobytes() == rec.data.tobytes()
    with pytest.raises(ValueError, match="nt = "):
        revwave.forward(blob(), tn=0.12, wavelet=w[:-1], **OPT)
    with pytest.raises(ValueError, match="sampled one"):
        rec.save(tmp_path / "r.npy")


def test_an_estimated_wavelet_is_the_clis_and_near_the_truth(cli, tmp_path):
    shape = (14, 14, 12)
    src, recs = [(65.0, 65.0, 30.0)], [(10.0 + 25 * i, 10.0 + 25 * j, 90.0) for i in range(5) for j in range(5)]
    true = blob(shape)
    probe = revwave.forward(true, tn=0.8, src=src, rec=recs, precision="double", **OPT)
    t = np.arange(probe.nt) * probe.dt
    a = (np.pi * 15 * (t - 0.12)) ** 2
    w = (1 - 2 * a) * np.exp(-a)  # a delayed Ricker, not the default one
    obs = revwave.forward(true, tn=0.8, src=src, rec=recs, precision="double", wavelet=w, **OPT)
    r = revwave.gradient(true, observed=revwave.ShotRecord(obs.data, obs.dt, obs.src, obs.rec, f0=15.0, t0=0.1),
                         precision="double", estimate_wavelet=True, **OPT)
    assert np.linalg.norm(r.wavelet - w) / np.linalg.norm(w) < 0.01
    assert r.stats["estimated_wavelet"]["samples"] == probe.nt
    with pytest.raises(ValueError, match="estimate_wavelet excludes wavelet"):
        revwave.gradient(true, observed=obs, estimate_wavelet=True, wavelet=w, **OPT)
    # The CLI writes the same signature next to its gradient.
    revwave.ShotRecord(obs.data, obs.dt, obs.src, obs.rec, f0=15.0, t0=0.1).save(tmp_path / "obs.npy")
    np.save(tmp_path / "true.npy", true)
    j = cli.json("gradient", "--model", tmp_path / "true.npy", "--observed", tmp_path / "obs.npy", "--precision", "double",
                 "--estimate-wavelet", "--threads", "1", "--out", tmp_path / "g.npy")
    assert j["wavelet"] == str(tmp_path / "g.wavelet.npy")
    assert np.load(tmp_path / "g.wavelet.npy").tobytes() == r.wavelet.tobytes()
    assert np.load(tmp_path / "g.npy").tobytes() == r.gradient.tobytes()


def test_normalize_scales_the_objective_and_the_gradient(case):
    start, obs = case
    raw = revwave.gradient(start, observed=obs["double"], precision="double", wrt="velocity", **OPT)
    scaled = revwave.gradient(start, observed=obs["double"], precision="double", wrt="velocity",
                              normalize=raw.objective, **OPT)
    assert scaled.objective == 1.0 and scaled.scale == raw.objective
    np.testing.assert_allclose(scaled.gradient, raw.gradient / raw.objective, rtol=1e-15)
    assert scaled.stats["objective"] == raw.objective  # the statistics keep J as computed
    with pytest.raises(ValueError, match="normalize"):
        revwave.gradient(start, observed=obs["double"], normalize=0, **OPT)


def test_scipy_lbfgsb_converges_with_the_objective_helper(case):
    scipy_optimize = pytest.importorskip("scipy.optimize", reason="scipy is not installed")
    start, obs = case
    f = revwave.Objective(SHAPE, observed=obs["double"], precision="double", strategy="revolve", snaps=4, **OPT)
    res = scipy_optimize.minimize(f, f.x(start), jac=True, method="L-BFGS-B", bounds=f.bounds(1800, 2450),
                                  options=dict(maxiter=8))
    assert res.nit >= 3 and f.history[0] == f.j0  # it stepped (unscaled, it stopped at iteration 0)
    assert res.fun < 0.2  # J fell below a fifth of J0
    err_start = np.linalg.norm(start - blob())
    assert np.linalg.norm(f.model(res.x) - blob()) < err_start
