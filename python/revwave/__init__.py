"""revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing.

The functions mirror the command-line tool: keyword arguments are its long options with ``-``
as ``_`` and the same defaults, numpy arrays stand where the CLI reads files. Units are SI
(m, s, m/s); models are velocity arrays of shape (nx, ny, nz) with z (depth) fastest; shot
records are (nt, nrec). The gradient is dJ/dm of the L2 misfit, m = 1/c^2, exactly what
``revwave gradient`` writes (bit for bit, for the same inputs).

Arrays: C-contiguous float32/float64 arrays are read in place. Other inputs are converted
first where that loses nothing: Fortran-ordered or strided arrays are copied to C order,
lists and integer or float16 arrays become float64 when every value survives the round trip.
Anything else (complex, object, values that would round) is refused. Results are numpy arrays
that own their memory.

Errors: revwave's refusals carry the CLI's sentence, as ``InputError`` (a ``ValueError``),
``IoError`` (an ``OSError``), ``OutOfMemoryError`` (a ``MemoryError``), ``NonFiniteError`` and
``NotCompiledError`` (``RuntimeError``). The GIL is released while revwave computes, so threads
can run shots side by side.

The package built by ``pip install .`` has the CPU backend; ``backend="cuda"`` needs a build
with ``-C cmake.define.REVWAVE_CUDA=ON``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _revwave
from ._revwave import InputError, IoError, NonFiniteError, NotCompiledError, OutOfMemoryError

__all__ = [
    "ShotRecord", "GradientResult", "forward", "gradient", "schedule", "adjtest", "gradtest",
    "InputError", "IoError", "OutOfMemoryError", "NonFiniteError", "NotCompiledError",
]

ArrayLike = Any
Points = Union[ArrayLike, Sequence[Sequence[float]]]


def _as_input(a: ArrayLike, name: str) -> np.ndarray:
    """``a`` as a C-contiguous float32/float64 array: itself when it already is one, else a lossless copy."""
    arr = np.asarray(a)
    if arr.dtype in (np.float32, np.float64):
        return arr if arr.flags.c_contiguous else np.ascontiguousarray(arr)
    if arr.dtype.kind not in "iuf":
        raise InputError(f"{name}: dtype {arr.dtype} is not a real number type: give float32 or float64")
    target = np.float32 if arr.dtype == np.float16 else np.float64
    converted = np.ascontiguousarray(arr, dtype=target)
    back = converted.astype(arr.dtype)
    if not np.array_equal(back, arr, equal_nan=arr.dtype.kind == "f"):
        raise InputError(f"{name}: dtype {arr.dtype} does not convert to {np.dtype(target).name} without loss: "
                         f"give float32 or float64")
    return converted


def _points(p: Points, name: str) -> np.ndarray:
    arr = _as_input(p, name)
    if arr.ndim == 1 and arr.shape[0] == 3:
        arr = arr.reshape(1, 3)
    return arr


def _triple(v: Union[str, Sequence[float]]) -> str:
    if isinstance(v, str):
        return v
    # Integers as integers, other numbers at full precision (repr reads back as the same double).
    return ",".join(str(int(x)) if isinstance(x, (int, np.integer)) else repr(float(x)) for x in v)


def _choice(option: str, value: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise InputError(f"{option} '{value}' is invalid: it must be one of {', '.join(allowed)}")
    return value


def _memory(v: Union[None, int, str]) -> Optional[str]:
    return None if v is None else str(v)


@dataclass
class ShotRecord:
    """A shot record: ``data`` (nt, nrec) sampled at t = n dt, its geometry (m) and wavelet (Ricker f0, delay t0)."""

    data: np.ndarray
    dt: float
    src: np.ndarray
    rec: np.ndarray
    f0: float
    t0: float

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
                   rec=np.array(d["rec"], dtype=np.float64).reshape(-1, 3), f0=d["f0"], t0=d["t0"])


@dataclass
class GradientResult:
    """What ``gradient`` returns: J(m), dJ/dm (shaped like the model, in the run's precision) and the
    statistics ``revwave gradient --json`` prints (a dict). ``observed`` holds the modelled data when
    none were given."""

    objective: float
    gradient: np.ndarray
    stats: dict = field(repr=False)
    observed: Optional[ShotRecord] = field(default=None, repr=False)


def _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision, backend,
             threads, device_memory=None, host_memory=None, host_spacing=None) -> "_revwave.ProblemOptions":
    o = _revwave.ProblemOptions()
    if model is not None and velocity is not None:
        raise InputError("--model excludes --velocity")
    if model is not None:
        o.set_model(_as_input(model, "model"))
    o.velocity = None if velocity is None else float(velocity)
    o.shape = _triple(shape)
    o.spacing = float(spacing)
    o.nbl = int(nbl)
    o.space_order = int(space_order)
    o.tn = float(tn)
    o.dt = None if dt is None else float(dt)
    o.f0 = float(f0)
    if src is not None:
        o.set_sources(_points(src, "src"))
    if rec is not None and rec_grid is not None:
        raise InputError("--rec-grid excludes --rec")
    if rec is not None:
        o.set_receivers(_points(rec, "rec"))
    o.rec_grid = "" if rec_grid is None else _triple(rec_grid)
    o.precision = _choice("--precision", precision, ("float", "double"))
    o.backend = _choice("--backend", backend, ("auto", "cpu", "cuda"))
    o.threads = None if threads is None else int(threads)
    o.device_memory = _memory(device_memory)
    o.host_memory = _memory(host_memory)
    o.host_spacing = None if host_spacing is None else int(host_spacing)
    return o


def forward(model: Optional[ArrayLike] = None, *, velocity: Optional[float] = None,
            shape: Union[str, Sequence[int]] = "80,80,80", spacing: float = 10.0, nbl: int = 10,
            space_order: int = 8, tn: float = 0.5, dt: Optional[float] = None, f0: float = 12.0,
            src: Optional[Points] = None, rec: Optional[Points] = None,
            rec_grid: Union[None, str, Sequence[float]] = None, precision: str = "float",
            backend: str = "auto", threads: Optional[int] = None,
            device_memory: Union[None, int, str] = None) -> ShotRecord:
    """Models one shot record, as ``revwave forward``.

    model: velocity (nx, ny, nz) in m/s (default: the built-in model of ``shape``, or ``velocity``
    everywhere). src, rec: points (n, 3) in m from the first interior point (default: one source
    near the top centre, a 16 x 16 receiver grid at depth 2h; ``rec_grid=(NX, NY, Z)`` for another
    grid). dt: default 0.9 x the stability bound. Returns the record in the run's precision.
    """
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory)
    return ShotRecord._from(_revwave.forward(o))


def _is_survey_path(path: str) -> bool:
    return os.path.isdir(path) or path.lower().endswith((".sgy", ".segy"))


def _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy) -> None:
    """The strategy options of gradient and gradtest, checked as the CLI checks them."""
    o.strategy = _choice("--strategy", strategy, ("full", "revolve", "multilevel", "online"))
    o.snaps = None if snaps is None else int(snaps)
    o.checkpoint_memory = _memory(checkpoint_memory)
    o.store = None if store is None else _choice("--store", store, ("memory", "disk"))
    o.checkpoint_dir = os.fspath(checkpoint_dir)
    o.tiers = [str(t) for t in tier]
    o.stop_energy = None if stop_energy is None else float(stop_energy)


def gradient(model: Optional[ArrayLike] = None, *,
             observed: Union[None, ShotRecord, str, os.PathLike, Sequence[Union[ShotRecord, str, os.PathLike]]] = None,
             true_model: Optional[ArrayLike] = None, velocity: Optional[float] = None,
             shape: Union[str, Sequence[int]] = "80,80,80", spacing: float = 10.0, nbl: int = 10,
             space_order: int = 8, tn: Optional[float] = None, dt: Optional[float] = None,
             f0: Optional[float] = None, src: Optional[Points] = None, rec: Optional[Points] = None,
             rec_grid: Union[None, str, Sequence[float]] = None, strategy: str = "revolve",
             snaps: Optional[int] = None, checkpoint_memory: Union[None, int, str] = None,
             store: Optional[str] = None, checkpoint_dir: str = "", tier: Sequence[str] = (),
             stop_energy: Optional[float] = None, precision: str = "float", backend: str = "auto",
             threads: Optional[int] = None, device_memory: Union[None, int, str] = None,
             host_memory: Union[None, int, str] = None, host_spacing: Optional[int] = None,
             aperture: float = -1, compress: str = "none") -> GradientResult:
    """The misfit J(m) = 1/2 sum |S u - d|^2 and its gradient dJ/dm, as ``revwave gradient``.

    model: the starting velocity (nx, ny, nz), m/s. observed: a ShotRecord, or the path of a record
    .npy with its sidecar (its geometry, dt, nt and wavelet then define the run: src, rec, tn, dt
    and f0 must be left out). Without ``observed`` the data are modelled in ``true_model`` (default:
    the built-in model; without ``model`` the start is that model smoothed); tn (default 0.5 s) and
    dt then set the time axis.

    A survey: ``observed`` a list of ShotRecords, or a SEG-Y file (.sgy, .segy), a directory of
    records, or a list of such paths. J and g are summed over the shots on the CLI's fixed tree (the
    same bits as ``revwave gradient --observed``), each shot on its window of ``aperture`` m around
    its sources and receivers when given (default: the whole model); ``stats`` then holds the
    survey's fields (shots, shot_objectives, forward_steps, ...).

    strategy: full, revolve (``snaps`` slots, default 20, or ``checkpoint_memory`` such as "512M"),
    multilevel (``tier``: NAME:SLOTS[:STORE_COST:RESTORE_COST]) or online (``stop_energy``).
    store: memory or disk (``checkpoint_dir``). compress: none (default; the gradient equals full's
    bit for bit), fp16, bf16, zfp-rate:R or zfp-accuracy:E (lossy checkpoints, as ``--compress``).
    The result's ``gradient`` is in the run's precision
    (float32 for precision="float"), as the CLI writes it; ``stats`` holds its JSON fields.
    """
    given = {"src": src, "rec": rec, "rec_grid": rec_grid, "tn": tn, "dt": dt}
    if observed is not None:
        if true_model is not None:
            raise InputError("--observed excludes --true-model")
        for name, value in given.items():
            if value is not None:
                raise InputError(f"--observed excludes --{name.replace('_', '-')}")
    o = _revwave.GradientOptions()
    p = _problem(model, velocity, shape, spacing, nbl, space_order, 0.5 if tn is None else tn, dt,
                 12.0 if f0 is None else f0, src, rec,
                 rec_grid, precision, backend, threads, device_memory, host_memory, host_spacing)
    o.problem = p
    o.f0_given = f0 is not None
    records, paths = [], []
    if isinstance(observed, (list, tuple)):
        for i, item in enumerate(observed):
            if isinstance(item, ShotRecord):
                records.append(dict(data=_as_input(item.data, f"observed[{i}] data"), dt=float(item.dt),
                                    f0=float(item.f0), t0=float(item.t0), src=_points(item.src, f"observed[{i}] src"),
                                    rec=_points(item.rec, f"observed[{i}] rec")))
            else:
                paths.append(os.fspath(item))
        if records and paths:
            raise InputError("observed: give a list of ShotRecords or a list of paths, not both")
        if not records and not paths:
            raise InputError("observed: a survey needs at least one shot")
    elif isinstance(observed, ShotRecord):
        o.set_observed(_as_input(observed.data, "observed data"), float(observed.dt), float(observed.f0),
                       float(observed.t0), _points(observed.src, "observed src"), _points(observed.rec, "observed rec"))
    elif observed is not None:
        path = os.fspath(observed)
        if not os.path.exists(path):
            raise IoError(f"--observed: Path does not exist: {path}")
        if _is_survey_path(path):
            paths.append(path)
        else:
            o.set_observed_file(path)
    for path in paths:
        if not os.path.exists(path):
            raise IoError(f"--observed: Path does not exist: {path}")
    if aperture != -1 and not (records or paths):
        raise InputError("--aperture applies to a survey: give observed as a list, a SEG-Y file or a directory")
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    o.compress = str(compress)
    if records or paths:
        objective, g, stats, _ = _revwave.survey_gradient(o, records, paths, float(aperture))
        stats["command"] = "gradient"
        return GradientResult(objective=objective, gradient=g, stats=stats)
    objective, g, stats, modelled = _revwave.gradient(o)
    stats["command"] = "gradient"
    return GradientResult(objective=objective, gradient=g, stats=stats,
                          observed=None if modelled is None else ShotRecord._from(modelled))


def schedule(*, steps: int = 1000, snaps: int = 10, strategy: str = "revolve", actions: bool = False,
             tier: Sequence[str] = (), slot_bytes: Optional[float] = None) -> dict:
    """Counts a checkpoint schedule, as ``revwave schedule --json``: forward_steps, advances, stores,
    restores, reverses, recompute_ratio, peak_slots, repetition_number (and the online ratio or the
    multilevel tiers). With ``actions=True`` the dict's "actions" lists the action stream."""
    r = _revwave.ScheduleRequest()
    r.steps = int(steps)
    r.snaps = int(snaps)
    r.strategy = _choice("--strategy", strategy, ("revolve", "multilevel", "online"))
    r.actions = bool(actions)
    r.tiers = [str(t) for t in tier]
    r.slot_bytes = None if slot_bytes is None else float(slot_bytes)
    return _revwave.schedule(r)


def adjtest(model: Optional[ArrayLike] = None, *, velocity: Optional[float] = None,
            shape: Union[str, Sequence[int]] = "40,40,40", spacing: float = 10.0, nbl: int = 10,
            space_order: int = 8, tn: float = 0.25, dt: Optional[float] = None, f0: float = 12.0,
            src: Optional[Points] = None, rec: Optional[Points] = None,
            rec_grid: Union[None, str, Sequence[float]] = None, precision: str = "double", backend: str = "auto",
            threads: Optional[int] = None, device_memory: Union[None, int, str] = None, seed: int = 1234,
            tolerance: Optional[float] = None) -> dict:
    """The dot-product test <F w, d> = <w, F^T d>, as ``revwave adjtest`` (its defaults: 40^3, double).
    Returns forward_product, adjoint_product, relative_error, tolerance and pass."""
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory)
    if not 0 <= int(seed) <= 4294967295:
        raise InputError(f"--seed {seed} is invalid: it must be an integer in [0, 4294967295]")
    if tolerance is not None and not (tolerance > 0 and np.isfinite(tolerance)):
        raise InputError(f"--tolerance {tolerance} is invalid: it must be finite and > 0")
    r = _revwave.adjtest(o, int(seed))
    tol = tolerance if tolerance is not None else (1e-12 if precision == "double" else 1e-5)
    r["tolerance"] = tol
    r["pass"] = r["relative_error"] <= tol
    return r


def gradtest(model: Optional[ArrayLike] = None, *, observed: Union[None, ShotRecord, str, os.PathLike] = None,
             true_model: Optional[ArrayLike] = None, velocity: Optional[float] = None,
             shape: Union[str, Sequence[int]] = "40,40,40", spacing: float = 10.0, nbl: int = 10,
             space_order: int = 8, tn: Optional[float] = None, dt: Optional[float] = None,
             f0: Optional[float] = None,
             src: Optional[Points] = None, rec: Optional[Points] = None,
             rec_grid: Union[None, str, Sequence[float]] = None, strategy: str = "revolve",
             snaps: Optional[int] = None, checkpoint_memory: Union[None, int, str] = None,
             store: Optional[str] = None, checkpoint_dir: str = "", tier: Sequence[str] = (),
             stop_energy: Optional[float] = None, precision: str = "double", backend: str = "cpu",
             threads: Optional[int] = None, halvings: int = 6, scale: float = 0.02) -> dict:
    """The Taylor test of J and its gradient, as ``revwave gradtest`` (CPU backend; 40^3, double):
    |J(m + h dm) - J(m)| falls as h, |J(m + h dm) - J(m) - h <g, dm>| as h^2. Returns h, first_order,
    second_order, rate_first, rate_second and pass."""
    given = {"src": src, "rec": rec, "rec_grid": rec_grid, "tn": tn, "dt": dt}
    if observed is not None:
        for name, value in given.items():
            if value is not None:
                raise InputError(f"--observed excludes --{name.replace('_', '-')}")
    o = _revwave.GradientOptions()
    o.problem = _problem(model, velocity, shape, spacing, nbl, space_order, 0.3 if tn is None else tn, dt,
                         12.0 if f0 is None else f0, src,
                         rec, rec_grid, precision, backend, threads)
    o.f0_given = f0 is not None
    if isinstance(observed, ShotRecord):
        o.set_observed(_as_input(observed.data, "observed data"), float(observed.dt), float(observed.f0),
                       float(observed.t0), _points(observed.src, "observed src"), _points(observed.rec, "observed rec"))
    elif observed is not None:
        o.set_observed_file(os.fspath(observed))
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    return _revwave.gradtest(o, int(halvings), float(scale))
