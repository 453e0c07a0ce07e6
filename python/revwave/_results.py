"""What the functions return: records, gradients, a survey's records, an inversion."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from . import _revwave
from ._arrays import _as_input, _path, _points


def _record_path(path: Union[str, os.PathLike]) -> str:
    """Where ``ShotRecord.save`` writes the record, as ``revwave forward --out`` names one record: FILE.npy
    (any case) as given, a name without an ending with .npy added; another ending, an empty name and a
    name of a directory (``out/``, ``.``) are refused naming the path and the rule."""
    p = _path(path, "save")
    rule = "a record is FILE.npy, written with its sidecar FILE.json (a name without an ending gets .npy)"
    if p == "":
        raise _revwave.InputError(f"save: an empty name: give a file name; {rule}")
    name = os.path.basename(p)
    if name in ("", ".", ".."):
        raise _revwave.InputError(f"save {p}: names a directory, not a file: {rule}")
    ending = os.path.splitext(name)[1]
    if ending == "":
        return p + ".npy"
    if ending.lower() == ".npy":
        return p
    if ending.lower() == ".json":
        raise _revwave.InputError(f"save {p}: its ending .json is a sidecar's, not a record's: {rule}")
    raise _revwave.InputError(f"save {p}: its ending {ending} is none of revwave's for a record: {rule}")


@dataclass
class ShotRecord:
    """A shot record: ``data`` (nt, nrec) sampled at t = n dt (s), its geometry (m from the first
    interior point, z depth) and its source: the Ricker wavelet of peak frequency f0 (Hz) and delay t0
    (s), or ``wavelet``, a sampled signature of nt samples (then f0 and t0 may be None). ``stats``
    holds the fields of ``revwave forward --json`` for a record modelled by ``forward``.

    Data of your own: ``ShotRecord(data=d, dt=dt, src=[(x, y, z)], rec=receivers, f0=f0, t0=1.5 / f0)``
    or ``wavelet=w`` instead of f0 and t0."""

    data: np.ndarray
    dt: float
    src: np.ndarray
    rec: np.ndarray
    f0: Optional[float] = None
    t0: Optional[float] = None
    stats: Optional[dict] = field(default=None, repr=False, compare=False)
    wavelet: Optional[np.ndarray] = field(default=None, repr=False, compare=False)

    @property
    def nt(self) -> int:
        return int(self.data.shape[0])

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes PATH.npy and its sidecar .json as ``revwave forward --out`` does (both or neither):
        FILE.npy writes FILE.npy and FILE.json, a name without an ending gets .npy; any other ending
        (.json, the sidecar's, among them) is refused before anything is written. The sidecar has no
        field for a sampled wavelet: a record with one is refused (save the wavelet with numpy and
        pass it again as ``wavelet=``)."""
        path = _record_path(path)
        if self.wavelet is not None:
            raise _revwave.InputError("save: the sidecar holds a Ricker wavelet (f0, t0), not a sampled one: "
                                      "numpy.save the record's wavelet and pass it as wavelet= when you use the record")
        if self.f0 is None or self.t0 is None:
            raise _revwave.InputError("save: the record has no Ricker wavelet (f0 and t0) for its sidecar")
        from ._inputs import _number  # (late: _inputs imports this module)

        _revwave.write_shot_record(path, _as_input(self.data, "data"), _number("dt", self.dt),
                                   _number("f0", self.f0), _number("t0", self.t0), _points(self.src, "src"),
                                   _points(self.rec, "rec"))

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "ShotRecord":
        """Reads a record .npy and its sidecar .json (as written by ``revwave forward``), checked."""
        return cls._from(_revwave.read_shot_record(_path(path, "load")))

    @classmethod
    def _from(cls, d: dict) -> "ShotRecord":
        return cls(data=d["data"], dt=d["dt"], src=np.array(d["src"], dtype=np.float64).reshape(-1, 3),
                   rec=np.array(d["rec"], dtype=np.float64).reshape(-1, 3), f0=d["f0"], t0=d["t0"], stats=d.get("stats"))


@dataclass
class GradientResult:
    """What ``gradient`` returns.

    objective, gradient: what an optimiser takes, J / normalize and its gradient with respect to
    ``wrt`` ("m": dJ/dm, m = 1/c^2, the default; "velocity": dJ/dc), shaped like the model, in the
    run's precision. dj_dm, dj_dc: both derivatives, unscaled. stats: the fields ``revwave gradient
    --json`` prints (``stats["objective"]`` is J unscaled). observed: the modelled data when none were
    given. synthetic, residual: one record's synthetic traces S u and the adjoint source the misfit
    gave (for L2 the residual S u - d), (nt, nrec); None for a survey. wavelet: the estimated source
    signature (estimate_wavelet=True), else None. scale: the divisor ``normalize`` set (1 without).
    density_gradient: dJ/drho (shaped like the model, in the run's precision) when one shot's gradient
    ran with a density; else None."""

    objective: float
    gradient: np.ndarray
    stats: dict = field(repr=False)
    observed: Optional[ShotRecord] = field(default=None, repr=False)
    dj_dm: Optional[np.ndarray] = field(default=None, repr=False)
    dj_dc: Optional[np.ndarray] = field(default=None, repr=False)
    synthetic: Optional[np.ndarray] = field(default=None, repr=False)
    residual: Optional[np.ndarray] = field(default=None, repr=False)
    wavelet: Optional[np.ndarray] = field(default=None, repr=False)
    wrt: str = "m"
    scale: float = 1.0
    density_gradient: Optional[np.ndarray] = field(default=None, repr=False)


@dataclass
class SurveyRecords:
    """What ``forward_survey`` returns: one ShotRecord per shot, and the fields of ``revwave forward
    --json`` for a survey (shots, traces, nt, dt, format, origin, ...)."""

    records: list
    stats: dict = field(repr=False)


@dataclass
class InversionResult:
    """What ``invert`` returns: the final velocity model (nx, ny, nz) in m/s, in the run's precision
    (as ``model.npy``); the history (one dict per line of ``history.jsonl``: iterations and band ends,
    a resumed run's earlier lines included); the fields of ``revwave invert --json``; and the source
    signature every shot used when ``estimate_wavelet=True`` (else None)."""

    model: np.ndarray
    history: list = field(repr=False)
    stats: dict = field(repr=False)
    wavelet: Optional[np.ndarray] = field(default=None, repr=False)
