"""help() names every parameter with its units; progress= reports increasing counts up to the total."""
import inspect
import re
import sys
import warnings

import pytest

import revwave
from revwave import _progress

SMALL = dict(shape=(20, 20, 18), tn=0.12)


def public_functions():
    modules = [revwave]
    try:
        import revwave.torch as rt
        modules.append(rt)
    except ImportError:  # torch not installed: revwave.torch cannot be imported
        pass
    for m in modules:
        for name in m.__all__:
            obj = getattr(m, name)
            if inspect.isfunction(obj):
                yield f"{m.__name__}.{name}", obj


# Parameters with a dimension, and the unit their line must name (what a reader needs to know).
UNITS = {"spacing": " m", "tn": " s", "dt": " s", "f0": "Hz", "src": " m", "rec": " m", "model": "m/s",
         "velocity": "m/s", "true_model": "m/s", "vmin": "m/s", "vmax": "m/s", "first_step": "m/s", "smooth": " m",
         "mask_depth": " m", "aperture": " m", "checkpoint_memory": "bytes", "device_memory": "bytes",
         "host_memory": "bytes", "slot_bytes": "bytes", "bands": "Hz", "tier": "forward steps"}


def test_every_public_function_names_each_parameter_with_its_unit():
    checked = 0
    for qualname, fn in public_functions():
        doc = inspect.getdoc(fn)
        assert doc, f"{qualname} has no docstring"
        for name in inspect.signature(fn).parameters:
            line = re.search(rf"^- {name}: (.*)$", doc, re.MULTILINE)
            assert line, f"{qualname}: parameter {name} is not described in help()"
            if name in UNITS:
                assert UNITS[name] in line.group(1), f"{qualname}: {name}'s description names no unit ({UNITS[name]!r})"
            checked += 1
    assert checked > 100  # forward, gradient, forward_survey, invert, schedule, adjtest, gradtest, torch.forward


def test_a_new_parameter_without_a_description_is_refused():
    def f(model, *, wobble=1):
        """f."""
    with pytest.raises(AssertionError, match="wobble"):
        revwave._docs._documented(f)


def test_progress_callback_counts_up_to_the_total():
    calls = []
    r = revwave.gradient(**SMALL, snaps=3, progress=lambda done, total, phase: calls.append((done, total, phase)))
    assert calls, "the callback was never called"
    assert {p for _, _, p in calls} == {"gradient"}
    totals = {t for _, t, _ in calls}
    assert len(totals) == 1
    dones = [d for d, _, _ in calls]
    assert all(b > a for a, b in zip(dones, dones[1:])), dones
    total = totals.pop()
    assert dones[-1] == total
    # The gradient's work: its forward steps (reverse steps included) plus the N reverse steps.
    assert total == r.stats["forward_steps"] + r.stats["reverse_steps"]


def test_an_exception_in_the_callback_ends_the_call():
    class Stop(Exception):
        pass

    def stop(done, total, phase):
        raise Stop()
    with pytest.raises(Stop):
        revwave.gradient(**SMALL, snaps=3, progress=stop)
    revwave.gradient(**SMALL, snaps=3)  # the hook is gone: the next call runs


def test_progress_true_without_tqdm_warns_once_and_goes_on(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    monkeypatch.setattr(_progress, "_told_no_tqdm", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = revwave.forward(**SMALL, progress=True)
        b = revwave.forward(**SMALL, progress=True)
    told = [w for w in caught if "tqdm" in str(w.message)]
    assert len(told) == 1 and issubclass(told[0].category, revwave.RevwaveWarning)
    assert a.data.shape == b.data.shape


def test_progress_true_draws_a_tqdm_bar(monkeypatch):
    bars = []

    class FakeBar:
        def __init__(self, **kw):
            self.total, self.n, self.closed, self.kw = None, 0, False, kw
            bars.append(self)

        def reset(self, total=None):
            self.total = total

        def refresh(self):
            pass

        def close(self):
            self.closed = True

    fake = type(sys)("tqdm")
    fake.tqdm = FakeBar
    monkeypatch.setitem(sys.modules, "tqdm", fake)
    revwave.forward(**SMALL, progress=True)
    assert len(bars) == 1 and bars[0].closed
    assert bars[0].total and bars[0].n == bars[0].total


def test_bad_progress_is_refused_in_one_line():
    with pytest.raises(revwave.InputError, match="progress 3 is invalid"):
        revwave.forward(**SMALL, progress=3)


# invert counts iterations (bands x iterations): an evaluation's time steps would restart its count.
INVERT = dict(spacing=10, space_order=4, nbl=6, tn=0.15, f0=20, src_grid=(2, 1, 10), rec_grid=(4, 4, 10), threads=1,
              strategy="full", vmin=1400, vmax=2400, bands=(14, 22), iterations=2)


def _invert_models(shape=(14, 12, 10)):
    import numpy as np
    x, y, z = np.meshgrid(*(np.arange(n) for n in shape), indexing="ij")
    r2 = sum((c - n / 2) ** 2 for c, n in zip((x, y, z), shape)) / (0.2 * min(shape)) ** 2
    return np.full(shape, 1800.0), 1800.0 + 200.0 * np.exp(-r2)


def test_invert_reports_every_iteration():
    start, true = _invert_models()
    calls = []
    r = revwave.invert(start, true_model=true, progress=lambda done, total, phase: calls.append((done, total, phase)),
                       **INVERT)
    assert r.stats["iterations"] >= 2
    assert [d for d, _, _ in calls] == list(range(1, r.stats["iterations"] + 1))
    assert {t for _, t, _ in calls} == {4}  # two bands of two iterations
    assert {p for _, _, p in calls} == {"invert"}


def test_invert_stops_when_the_progress_callback_raises(tmp_path):
    start, true = _invert_models()

    class Stop(Exception):
        pass

    def stop(done, total, phase):
        raise Stop()
    with pytest.raises(Stop):
        revwave.invert(start, true_model=true, out_dir=tmp_path / "run", progress=stop, **INVERT)
    # It stopped after the first iteration, which the run directory holds (a resume goes on from it).
    assert (tmp_path / "run" / "model_0001.npy").exists()
    assert not (tmp_path / "run" / "model_0002.npy").exists()
