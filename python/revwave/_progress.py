"""progress= for the long calls: a callback, or a tqdm bar (internal to the package).

``progress`` is None/False (nothing), True (a tqdm bar on stderr when tqdm is installed; without
tqdm a RevwaveWarning says so once and the call goes on without a bar) or a callable
``fn(done, total, phase)``: ``done`` of ``total`` units of work (time steps; a gradient counts its
forward and reverse steps, a survey its steps shot by shot), ``phase`` the call's name ("forward",
"gradient", "forward_survey", "invert"). It is called from the calling thread, at most every 50 ms
and once more when done == total; an exception it raises ends the run and reaches the caller.
``invert`` counts iterations instead, once after each (the run directory already holds it): ``done``
the iterations completed (a resumed run's included), ``total`` the bands times ``iterations`` (a band
that converges ends early, so the last call may stay below it).
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Callable, Iterator, Optional, Union

import numpy as np

from . import _revwave
from ._inputs import RevwaveWarning

ProgressArg = Union[None, bool, Callable[[int, int, str], object]]
_told_no_tqdm = False


def _tqdm_callback(phase: str):
    """A (callback, close) pair drawing a tqdm bar, or None (and a warning, once) without tqdm."""
    global _told_no_tqdm
    try:
        from tqdm import tqdm
    except ImportError:
        if not _told_no_tqdm:
            _told_no_tqdm = True
            warnings.warn("progress=True draws a tqdm bar, and tqdm is not installed (python3-tqdm, or pip install "
                          "tqdm): going on without one", RevwaveWarning, stacklevel=4)
        return None
    bar = tqdm(desc=phase, unit="step", leave=False)

    def draw(done: int, total: int, _phase: str) -> None:
        if bar.total != total:
            bar.reset(total=total)
        bar.n = done
        bar.refresh()
    return draw, bar.close


@contextlib.contextmanager
def _reporting(progress: ProgressArg, phase: str) -> Iterator[None]:
    """Reports the calls inside to ``progress`` (see the module's note)."""
    if isinstance(progress, np.bool_):
        progress = bool(progress)
    if progress is None or progress is False:
        yield
        return
    close: Optional[Callable[[], object]] = None
    if progress is True:
        made = _tqdm_callback(phase)
        if made is None:
            yield
            return
        callback, close = made
    elif callable(progress):
        callback = progress
    else:
        raise _revwave.InputError(f"progress {progress!r} is invalid: None, True (a tqdm bar) or a callable "
                                  "fn(done, total, phase)")
    last = [-1, -1]

    def hook(done: int, total: int) -> None:
        # The library's own pings (nothing done yet, or a unit of another loop's) tell nothing: only
        # steps forward within one total reach the callback.
        if done <= 0 or (total == last[1] and done <= last[0]):
            return
        last[0], last[1] = done, total
        callback(done, total, phase)

    _revwave._set_progress(hook)
    try:
        yield
    finally:
        _revwave._set_progress(None)
        if close is not None:
            close()
