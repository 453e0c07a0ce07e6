"""Nothing lost, nothing silent (#45) from Python: a count given as a fraction, bounds the wrong way
round and ``normalize=True`` are refused as the CLI refuses their options; forward_survey's result is
observed data as it is; an output that names an input is refused before the run.

Small grids and few steps: the whole file runs in seconds on two cores.
"""
import inspect
import re

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


# The hostile-input round: a value of the wrong kind is refused with a sentence naming it, never
# taken by bool() or float() as something else.

def _start_and_observed():
    obs = revwave.forward(**SMALL)
    return np.full(SMALL["shape"], 2000.0), obs, {k: v for k, v in SMALL.items() if k not in ("shape", "tn")}


@pytest.mark.parametrize("bad", ["no", "false", 0.5, 1, None])
def test_a_bool_keyword_takes_only_a_bool(bad):
    start, obs, kw = _start_and_observed()
    sentence = f"^estimate_wavelet {re.escape(repr(bad))} is not a bool: give True or False$"
    with pytest.raises(revwave.InputError, match=sentence):
        revwave.gradient(start, observed=obs, estimate_wavelet=bad, **kw)
    if bad is not None:  # density_gradient=None is its default: "with a density"
        with pytest.raises(revwave.InputError, match=f"^density_gradient {re.escape(repr(bad))} is not a bool"):
            revwave.gradient(start, observed=obs, density=np.full(SMALL["shape"], 1000.0), density_gradient=bad, **kw)
    with pytest.raises(revwave.InputError, match=f"^actions {re.escape(repr(bad))} is not a bool"):
        revwave.schedule(steps=10, snaps=2, actions=bad)
    with pytest.raises(revwave.InputError, match=f"^free_surface {re.escape(repr(bad))} is not a bool"):
        revwave.forward(free_surface=bad, **SMALL)
    with pytest.raises(revwave.InputError, match=f"^estimate_wavelet {re.escape(repr(bad))} is not a bool"):
        revwave.invert(vmin=1500, vmax=2500, iterations=1, estimate_wavelet=bad, **SMALL)


def test_a_numpy_bool_is_a_bool():
    assert revwave.schedule(steps=10, snaps=2, actions=np.True_) == revwave.schedule(steps=10, snaps=2, actions=True)
    assert "actions" not in revwave.schedule(steps=10, snaps=2, actions=np.False_)
    start, obs, kw = _start_and_observed()
    g = revwave.gradient(start, observed=obs, density=np.full(SMALL["shape"], 1000.0), density_gradient=np.False_, **kw)
    assert g.density_gradient is None


@pytest.mark.parametrize("call, keyword, option", [
    ("forward", "tn", "--tn"), ("forward", "spacing", "--spacing"), ("forward", "f0", "--f0"),
    ("forward", "dt", "--dt"), ("forward", "velocity", "--velocity"), ("forward_survey", "tn", "--tn"),
    ("adjtest", "tolerance", "--tolerance"), ("gradtest", "scale", "--scale"),
    ("gradient", "stop_energy", "--stop-energy"),
    ("invert", "smooth", "--smooth"), ("invert", "vmin", "--vmin"),
    ("invert", "tolerance", "--tolerance"), ("invert", "first_step", "--first-step"),
    ("invert", "mask_depth", "--mask-depth"), ("schedule", "slot_bytes", "--slot-bytes")])
@pytest.mark.parametrize("bad, shown", [(True, "True"), ("abc", "'abc'"), ("1_0", "'1_0'"), (" 0.2", "' 0.2'"),
                                        ([0.2], r"\[0.2\]")])
def test_a_number_keyword_refuses_a_bool_and_what_is_not_a_number(call, keyword, option, bad, shown):
    kw = dict(SMALL)
    if call == "schedule":
        kw = dict(steps=10, snaps=2, strategy="multilevel", tier=["memory:2:1:1"])
    elif call == "invert":
        kw.update(vmin=1500, vmax=2500, iterations=1)
    elif call == "gradient" and keyword == "stop_energy":
        kw.update(strategy="online")
    kw[keyword] = bad
    with pytest.raises(revwave.InputError, match=f"^{option} {shown} is invalid: it must be a number"):
        getattr(revwave, call)(**kw)


def test_a_number_given_as_its_text_is_that_number():
    # As the CLI reads "--tn 0.2": optional sign, digits, a point, an exponent.
    kw = dict(SMALL)
    kw["tn"] = "+0.2"
    assert revwave.forward(**kw).data.tobytes() == revwave.forward(**SMALL).data.tobytes()
    kw["tn"] = np.float32(0.2)
    assert revwave.forward(**kw).data.shape == revwave.forward(**SMALL).data.shape


@pytest.mark.parametrize("call, keyword, option", [("forward", "tn", "--tn"), ("forward", "spacing", "--spacing"),
                                                   ("forward", "f0", "--f0"), ("forward_survey", "tn", "--tn"),
                                                   ("adjtest", "spacing", "--spacing"),
                                                   ("gradient", "spacing", "--spacing"),
                                                   ("gradtest", "scale", "--scale"), ("invert", "smooth", "--smooth"),
                                                   ("invert", "tolerance", "--tolerance")])
def test_none_where_a_number_is_required_is_refused(call, keyword, option):
    kw = dict(SMALL)
    if call == "invert":
        kw.update(vmin=1500, vmax=2500, iterations=1)
    kw[keyword] = None
    with pytest.raises(revwave.InputError, match=f"^{option} None is invalid: it must be a number"):
        getattr(revwave, call)(**kw)


@pytest.mark.parametrize("bad", ["1_0", " 5", "5 ", "5\n", "0x5", "٥", "+-5", ""])
def test_a_count_given_as_text_is_read_as_the_cli_reads_it(bad):
    kw = dict(SMALL)
    kw["nbl"] = bad
    with pytest.raises(revwave.InputError, match=f"^--nbl {re.escape(repr(bad))} is invalid: it must be an integer"):
        revwave.forward(**kw)


def test_a_count_given_as_its_digits_is_that_count():
    kw = dict(SMALL)
    kw["nbl"] = "+4"
    assert revwave.forward(**kw).data.tobytes() == revwave.forward(**SMALL).data.tobytes()


def test_gradtest_refuses_observed_data_with_a_true_model():
    start, obs, kw = _start_and_observed()
    with pytest.raises(revwave.InputError, match="^--observed excludes --true-model$"):
        revwave.gradtest(start, observed=obs, true_model=start, halvings=2, **kw)


def test_an_aperture_is_a_finite_distance():
    shots = revwave.forward_survey(src=[[40.0, 40.0, 20.0], [70.0, 70.0, 20.0]], **SMALL)
    start = np.full(SMALL["shape"], 2000.0)
    kw = {k: v for k, v in SMALL.items() if k not in ("shape", "tn")}
    for bad, shown in ((-1, "-1"), (-1.0, "-1"), (-10, "-10"), (-0.5, "-0.5"), (float("nan"), "nan"),
                       (float("inf"), "inf")):
        with pytest.raises(revwave.InputError, match=f"^--aperture {shown} m is invalid: it must be finite and >= 0$"):
            revwave.gradient(start, observed=shots, aperture=bad, **kw)
        with pytest.raises(revwave.InputError, match=f"^--aperture {shown} m is invalid: it must be finite and >= 0$"):
            revwave.invert(start, observed=shots, vmin=1500, vmax=2500, iterations=1, aperture=bad, **kw)
    with pytest.raises(revwave.InputError, match="^--aperture True is invalid: it must be a number"):
        revwave.gradient(start, observed=shots, aperture=True, **kw)
    whole = revwave.gradient(start, observed=shots, **kw)
    assert revwave.gradient(start, observed=shots, aperture=None, **kw).gradient.tobytes() == whole.gradient.tobytes()
    assert revwave.gradient(start, observed=shots, aperture=60, **kw).stats["aperture"] == 60
    # None (the default) is the whole model; -1 is not a way of saying so.
    for f in (revwave.gradient, revwave.invert):
        assert inspect.signature(f).parameters["aperture"].default is None


def test_one_tier_given_as_text_is_that_tier():
    # Not its characters, one tier each ("--tier 'm' is invalid").
    kw = dict(steps=10, snaps=2, strategy="multilevel")
    assert revwave.schedule(tier="memory:2:1:1", **kw) == revwave.schedule(tier=["memory:2:1:1"], **kw)


def test_the_numbers_of_objective_and_of_a_record_refuse_a_bool(tmp_path):
    with pytest.raises(revwave.InputError, match="^velocity_scale True is invalid: it must be a number"):
        revwave.Objective((4, 4, 4), velocity_scale=True)
    with pytest.raises(revwave.InputError, match="^--vmin True is invalid: it must be a number"):
        revwave.Objective((4, 4, 4)).bounds(True, 2000)
    start, obs, kw = _start_and_observed()
    given = dict(data=obs.data, dt=True, src=obs.src, rec=obs.rec, f0=obs.f0, t0=obs.t0)
    with pytest.raises(revwave.InputError, match="^observed dt True is invalid: it must be a number"):
        revwave.gradient(start, observed=given, **kw)
    with pytest.raises(revwave.InputError, match=r"^observed\[0\] f0 'x' is invalid: it must be a number"):
        revwave.gradient(start, observed=[dict(given, dt=obs.dt, f0="x")], **kw)
    with pytest.raises(revwave.InputError, match="^dt True is invalid: it must be a number"):
        revwave.ShotRecord(data=obs.data, dt=True, src=obs.src, rec=obs.rec, f0=obs.f0,
                           t0=obs.t0).save(tmp_path / "r.npy")


def test_a_resumed_inversion_refuses_another_out_dir(tmp_path):
    # The CLI refuses --resume A --out-dir B; out_dir= was ignored and the run wrote into A.
    kw = dict(vmin=1500, vmax=2500, iterations=1, **SMALL)
    revwave.invert(out_dir=tmp_path / "inv", **kw)
    before = sorted(p.name for p in (tmp_path / "inv").iterdir())
    with pytest.raises(revwave.InputError, match="and --resume .* differ: a resumed inversion writes where it began"):
        revwave.invert(resume=tmp_path / "inv", out_dir=tmp_path / "other", **{**kw, "iterations": 2})
    assert not (tmp_path / "other").exists()
    assert sorted(p.name for p in (tmp_path / "inv").iterdir()) == before


def test_a_count_in_a_zero_dimensional_array_is_the_count_it_holds():
    # np.array(5) was refused as "a fraction is not cut to one".
    assert revwave.forward(**{**SMALL, "nbl": np.array(4)}).data.tobytes() == revwave.forward(**SMALL).data.tobytes()
    with pytest.raises(revwave.InputError, match="--nbl"):
        revwave.forward(**{**SMALL, "nbl": np.array(4.5)})


# A given empty value is refused, not read as "not given" (None is that): the CLI refuses --bands '',
# --out-dir '', --rec-grid '' ...; bands=[] ran as "band 1/1: the data as they are" and out_dir=''
# as out_dir=None (nothing written).

@pytest.mark.parametrize("empty", [[], (), "", np.array([])])
def test_empty_bands_are_refused_not_read_as_no_bands(tmp_path, empty):
    with pytest.raises(revwave.InputError, match=r"^--bands .* is invalid: F1,F2,\.\.\. cut-offs in Hz \(leave bands "
                                                 r"out, None, to invert the data as they are\)$"):
        revwave.invert(vmin=1500, vmax=2500, iterations=1, bands=empty, out_dir=tmp_path / "run", **SMALL)
    assert not (tmp_path / "run").exists()


def test_an_empty_output_name_is_refused_as_the_cli_refuses_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(revwave.InputError, match="^--out-dir: an empty name: give a file name$"):
        revwave.invert(vmin=1500, vmax=2500, iterations=1, out_dir="", **SMALL)
    with pytest.raises(revwave.InputError, match="^--resume '' is invalid: give the directory of the inversion"):
        revwave.invert(vmin=1500, vmax=2500, iterations=1, resume="", **SMALL)
    with pytest.raises(revwave.InputError, match="^--out: an empty name: give a file name$"):
        revwave.forward_survey(src=[[40.0, 40.0, 20.0]], out="", **SMALL)
    with pytest.raises(revwave.InputError, match=r"^--rec-grid \[\] is invalid: expected NX,NY,Z"):
        revwave.forward(rec_grid=[], **SMALL)
    with pytest.raises(revwave.InputError, match="^--src-grid '' is invalid: expected NX,NY,Z"):
        revwave.forward_survey(src_grid="", **SMALL)
    with pytest.raises(revwave.InputError, match="^--origin '' is invalid: expected 3 comma-separated numbers$"):
        revwave.forward_survey(src_grid=(1, 1, 20.0), origin="", out="s.sgy", **SMALL)
    assert list(tmp_path.iterdir()) == []


def test_the_empty_names_read_as_the_cli_words_them(cli, tmp_path):
    _, _, err = cli("forward", "--shape", "12,12,12", "--out", "", check=False)
    with pytest.raises(revwave.InputError) as e:
        revwave.forward_survey(src=[[40.0, 40.0, 20.0]], out="", **SMALL)
    assert f"revwave: error: {e.value} (see 'revwave --help')" == err.strip()


# ShotRecord.save names its files as `revwave forward --out` does: save("obs.json") wrote .npy bytes
# over a record's sidecar (and obs.json.json), save("x.txt") wrote x.txt and x.txt.json.

def _small_record():
    return revwave.ShotRecord(data=np.arange(15, dtype=np.float32).reshape(5, 3), dt=0.001,
                              src=[[10.0, 10.0, 10.0]], rec=[[0.0, 0.0, 5.0], [10.0, 0.0, 5.0], [20.0, 0.0, 5.0]],
                              f0=10.0, t0=0.15)


def test_save_refuses_an_ending_that_is_not_a_records(tmp_path):
    r = _small_record()
    r.save(tmp_path / "obs.npy")
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(files) == ["obs.json", "obs.npy"]
    rule = r"a record is FILE\.npy, written with its sidecar FILE\.json \(a name without an ending gets \.npy\)$"
    with pytest.raises(revwave.InputError, match=r"^save .*obs\.json: its ending \.json is a sidecar's, not a "
                                                 r"record's: " + rule):
        r.save(tmp_path / "obs.json")
    with pytest.raises(revwave.InputError, match=r"^save .*x\.txt: its ending \.txt is none of revwave's for a "
                                                 r"record: " + rule):
        r.save(str(tmp_path / "x.txt"))
    with pytest.raises(revwave.InputError, match=r"^save .*/: names a directory, not a file: " + rule):
        r.save(str(tmp_path) + "/")
    with pytest.raises(revwave.InputError, match=r"^save: an empty name: give a file name; " + rule):
        r.save("")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files


def test_save_adds_npy_to_a_name_without_an_ending(tmp_path):
    r = _small_record()
    r.save(tmp_path / "obs.npy")
    r.save(tmp_path / "plain")  # as `revwave forward --out plain` writes plain.npy and plain.json
    (tmp_path / "d").mkdir()
    r.save(tmp_path / "d")  # a name without an ending, as the CLI's --out d beside a directory d
    (tmp_path / "taken.npy").mkdir()
    with pytest.raises(revwave.IoError, match="taken.npy: cannot write the file: a directory of that name exists"):
        r.save(tmp_path / "taken.npy")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "d.json", "d.npy", "obs.json", "obs.npy", "plain.json",
                                                          "plain.npy", "taken.npy"]
    for name in ("plain", "d"):
        assert (tmp_path / f"{name}.npy").read_bytes() == (tmp_path / "obs.npy").read_bytes()
        assert (tmp_path / f"{name}.json").read_bytes() == (tmp_path / "obs.json").read_bytes()
    assert revwave.ShotRecord.load(tmp_path / "plain.npy").data.tobytes() == r.data.tobytes()


# A Python int beyond the C++ field an option fills reached nanobind, whose 4-line TypeError
# "incompatible function arguments" named neither the option nor the rule.

_HUGE = [
    (lambda v: revwave.schedule(steps=v, snaps=3), 2 ** 63, "--steps '9223372036854775808'", "an integer >= 1"),
    (lambda v: revwave.schedule(steps=10, snaps=v), -2 ** 63 - 1, "--snaps '-9223372036854775809'", "an integer >= 1"),
    (lambda v: revwave.forward(**{**SMALL, "nbl": v}), 2 ** 64, "--nbl '18446744073709551616'", "an integer >= 0"),
    (lambda v: revwave.forward(**{**SMALL, "nbl": v}), "99999999999999999999", "--nbl '99999999999999999999'",
     "an integer >= 0"),
    (lambda v: revwave.forward(**{**SMALL, "space_order": v}), 2 ** 31, "--space-order 2147483648",
     r"an integer in \[2, 16\]"),
    (lambda v: revwave.forward(**{**SMALL, "threads": v}), 2 ** 40, "--threads 1099511627776",
     r"an integer in \[1, 65536\]"),
    (lambda v: revwave.gradient(**SMALL, snaps=v), 2 ** 63, "--snaps '9223372036854775808'", "an integer >= 1"),
    (lambda v: revwave.gradient(**SMALL, host_spacing=v), 2 ** 63, "--host-spacing '9223372036854775808'",
     "an integer >= 1"),
    (lambda v: revwave.gradient(**SMALL, shots_at_once=v), -2 ** 31 - 1, "--shots-at-once -2147483649",
     r"an integer in \[1, 8\]"),
    (lambda v: revwave.invert(vmin=1500, vmax=2500, iterations=v, **SMALL), 2 ** 31, "--iterations 2147483648",
     r"an integer in \[1, 100000\]"),
    (lambda v: revwave.invert(vmin=1500, vmax=2500, lbfgs_memory=v, **SMALL), 2 ** 100,
     "--lbfgs-memory '1267650600228229401496703205376'", r"an integer in \[1, 100\]"),
    (lambda v: revwave.gradtest(halvings=v, **SMALL), 2 ** 31, "--halvings 2147483648", r"an integer in \[2, 40\]"),
    (lambda v: revwave.adjtest(seed=v, **SMALL), 2 ** 64, "--seed '18446744073709551616'",
     r"an integer in \[0, 4294967295\]"),
    (lambda v: revwave.Objective((v, 4, 4)), 2 ** 63, "shape '9223372036854775808'", "an integer >= 1"),
]


@pytest.mark.parametrize("call, value, shown, rule", _HUGE)
def test_a_count_beyond_its_field_is_refused_with_its_rule(call, value, shown, rule):
    with pytest.raises(revwave.InputError, match=f"^{shown} is invalid: it must be {rule}$"):
        call(value)


def test_a_huge_count_reads_as_the_cli_words_it(cli):
    for args, call in [(("schedule", "--steps", str(2 ** 63), "--snaps", "3"),
                        lambda: revwave.schedule(steps=2 ** 63, snaps=3)),
                       (("forward", "--shape", "12,12,12", "--space-order", str(2 ** 31)),
                        lambda: revwave.forward(**{**SMALL, "space_order": 2 ** 31})),
                       (("forward", "--shape", "12,12,12", "--nbl", str(2 ** 64)),
                        lambda: revwave.forward(**{**SMALL, "nbl": 2 ** 64}))]:
        _, _, err = cli(*args, check=False)
        with pytest.raises(revwave.InputError) as e:
            call()
        assert f"revwave: error: {e.value}" == err.strip()


def test_a_message_that_quotes_bytes_that_are_not_utf8_keeps_its_words(tmp_path):
    # A sidecar holding a .npy file's bytes: the JSON parser's message quotes the byte 0x93, which
    # no str holds; the exception reached Python with no message at all.
    rec = revwave.forward(**SMALL)
    rec.save(str(tmp_path / "o.npy"))
    (tmp_path / "o.json").write_bytes((tmp_path / "o.npy").read_bytes())
    with pytest.raises(revwave.IoError) as raised:
        revwave.ShotRecord.load(str(tmp_path / "o.npy"))
    assert "o.json: not valid JSON" in str(raised.value)
    assert "\\x93" in str(raised.value)


# A seventh held-out round (#45): bytes paths reached the bindings' str-only fields (nanobind's
# "incompatible function arguments", or "a bytes-like object is required"), and Objective cast a
# complex model to real in silence.
_OBSERVED = {k: v for k, v in SMALL.items() if k != "tn"}  # the record brings its time axis
_BYTES_PATHS = [
    ("--out-dir", lambda d: revwave.invert(vmin=1500, vmax=2500, iterations=1, out_dir=bytes(d / "inv"), **SMALL)),
    ("--resume", lambda d: revwave.invert(vmin=1500, vmax=2500, iterations=1, resume=bytes(d / "inv"), **SMALL)),
    ("--checkpoint-dir", lambda d: revwave.gradient(store="disk", strategy="revolve", checkpoint_dir=bytes(d),
                                                    **SMALL)),
    ("--observed", lambda d: revwave.gradient(observed=bytes(d / "o.npy"), **_OBSERVED)),
    ("observed\\[0\\]", lambda d: revwave.gradient(observed=[bytes(d / "o.npy")], **_OBSERVED)),
    ("--out", lambda d: revwave.forward_survey(src_grid=(2, 1, 40), out=bytes(d / "s.sgy"), **SMALL)),
    ("load", lambda d: revwave.ShotRecord.load(bytes(d / "o.npy"))),
    ("save", lambda d: revwave.forward(**SMALL).save(bytes(d / "p.npy"))),
]


@pytest.mark.parametrize("option, call", _BYTES_PATHS, ids=[o for o, _ in _BYTES_PATHS])
def test_a_path_given_as_bytes_is_refused_naming_its_keyword(tmp_path, option, call):
    revwave.forward(**SMALL).save(str(tmp_path / "o.npy"))
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(revwave.InputError, match=f"^{option} b'.*' is invalid: a path is a str or an os.PathLike"):
        call(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_objective_refuses_a_complex_model_as_gradient_does():
    f = revwave.Objective((12, 12, 12), spacing=10, tn=0.2, threads=1, boundary="sponge", nbl=4)
    x = f.x(np.full((12, 12, 12), 2000.0))
    with pytest.raises(revwave.InputError, match="x: dtype complex128 is not a real number type"):
        f(x + 1j * x)
    with pytest.raises(revwave.InputError, match="velocity: dtype complex128 is not a real number type"):
        f.x(np.full((12, 12, 12), 2000.0 + 1j))
    assert f.model(x).dtype == np.float64 and np.all(f.model(x) == 2000.0)


# An eighth held-out round (#45): a misspelt Objective option surfaced at the first evaluation in
# gradient's words; a masked array's mask was dropped; revwave.torch.forward let torch's own errors
# through for an empty batch and a meta tensor.
def test_objective_refuses_an_unknown_option_when_it_is_made():
    with pytest.raises(revwave.InputError, match="^Objective: unknown option obsrved"):
        revwave.Objective((12, 12, 12), spacing=10, obsrved="o.npy")


@pytest.mark.parametrize("keyword", ["model", "density"])
def test_a_masked_array_is_refused_not_read_without_its_mask(keyword):
    v = np.ma.masked_less(np.full((12, 12, 12), 2000.0), 100)
    kw = dict(SMALL, model=np.full((12, 12, 12), 2000.0))
    kw[keyword] = v
    with pytest.raises(revwave.InputError, match=f"^{keyword}: a masked array is invalid: its mask would be ignored"):
        revwave.forward(**kw)


def test_torch_forward_refuses_an_empty_batch_and_a_tensor_without_values():
    torch = pytest.importorskip("torch")
    import revwave.torch as rt

    kw = {k: v for k, v in SMALL.items() if k != "shape"}  # the tensor's shape is the model's
    kw["dt"] = 0.001
    v = torch.full((12, 12, 12), 2000.0, dtype=torch.float64)
    with pytest.raises(revwave.InputError, match=r"^shots \[\] is invalid: give at least one source position"):
        rt.forward(v, shots=[], **kw)
    with pytest.raises(revwave.InputError, match="^velocity: a tensor on device 'meta' is invalid"):
        rt.forward(v.to("meta"), **kw)


def test_objective_refuses_a_shape_that_is_not_3d_when_it_is_made():
    # A ninth held-out round (#45): Objective((12, 12)) was made, and bounds() gave 144 pairs.
    with pytest.raises(revwave.InputError, match=r"^shape \(12, 12\) is invalid: a velocity model is 3-D"):
        revwave.Objective((12, 12), spacing=10)


# A tenth held-out round (#45): revwave.torch.forward checked its checkpointing options only in the
# backward (never, without one); Objective.x took a velocity of any shape.
@pytest.mark.parametrize("option, value, message", [("strategy", "nope", "--strategy 'nope' is invalid"),
                                                    ("store", "tape", "--store 'tape' is invalid"),
                                                    ("checkpoint_memory", "lots", "lots")])
def test_torch_forward_checks_its_checkpointing_options_before_it_runs(option, value, message):
    torch = pytest.importorskip("torch")
    import revwave.torch as rt

    kw = {k: v for k, v in SMALL.items() if k != "shape"}
    kw.update(dt=0.001, **{option: value})
    with torch.no_grad(), pytest.raises(revwave.InputError, match=message):
        rt.forward(torch.full((12, 12, 12), 2000.0, dtype=torch.float64), **kw)


def test_objective_x_refuses_a_velocity_of_another_shape():
    f = revwave.Objective((12, 12, 12), spacing=10)
    with pytest.raises(revwave.InputError, match=r"^velocity: shape \(12, 12, 13\) is invalid: it must be the "):
        f.x(np.full((12, 12, 13), 2000.0))
    assert f.x(np.full((12, 12, 12), 2000.0)).shape == (12 * 12 * 12,)
