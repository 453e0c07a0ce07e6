"""What the functions return: records, gradients, a survey's records, an inversion."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from . import _revwave
from ._arrays import _as_input, _points


@dataclass
class ShotRecord:
    """A shot record: ``data`` (nt, nrec) sampled at t = n dt (s), its geometry (m from the first
    interior point, z depth) and wavelet (Ricker peak frequency f0 in Hz, delay t0 in s). ``stats``
    holds the fields of ``revwave forward --json`` for a record modelled by ``forward``."""

    data: np.ndarray
    dt: float
    src: np.ndarray
    rec: np.ndarray
    f0: float
    t0: float
    stats: Optional[dict] = field(default=None, repr=False, compare=False)

    @property
    def nt(self) -> int:
        return int(self.data.shape[0])

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes PATH.npy and its sidecar .json as ``revwave forward --out`` does (both or neither)."""
        _revwave.write_shot_record(os.fspath(path), _as_input(self.data, "data"), float(self.dt), float(self.f0),
                                   float(self.t0), _points(self.src, "src"), _points(self.rec, "rec"))

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "ShotRecord":
        """Reads a record .npy and its sidecar .json (as written by ``revwave forward``), checked."""
        return cls._from(_revwave.read_shot_record(os.fspath(path)))

    @classmethod
    def _from(cls, d: dict) -> "ShotRecord":
        return cls(data=d["data"], dt=d["dt"], src=np.array(d["src"], dtype=np.float64).reshape(-1, 3),
                   rec=np.array(d["rec"], dtype=np.float64).reshape(-1, 3), f0=d["f0"], t0=d["t0"], stats=d.get("stats"))


@dataclass
class GradientResult:
    """What ``gradient`` returns: J(m), dJ/dm (shaped like the model, in the run's precision) and the
    statistics ``revwave gradient --json`` prints (a dict). ``observed`` holds the modelled data when
    none were given; ``density_gradient`` dJ/drho (shaped like the model) when a density was given."""

    objective: float
    gradient: np.ndarray
    stats: dict = field(repr=False)
    observed: Optional[ShotRecord] = field(default=None, repr=False)
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
    a resumed run's earlier lines included); and the fields of ``revwave invert --json``."""

    model: np.ndarray
    history: list = field(repr=False)
    stats: dict = field(repr=False)
