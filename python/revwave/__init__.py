"""revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing.

The functions mirror the command-line tool: keyword arguments are its long options with ``-``
as ``_`` and the same defaults, numpy arrays stand where the CLI reads files. Units are SI
(m, s, m/s); models are velocity arrays of shape (nx, ny, nz) with z (depth) fastest; shot
records are (nt, nrec). The gradient is dJ/dm of the L2 misfit, m = 1/c^2, exactly what
``revwave gradient`` writes (bit for bit, for the same inputs).

What the CLI does, Python does through the same library functions: ``forward`` (one record),
``forward_survey`` (a survey's records, SEG-Y or a directory), ``gradient`` (one record or a
survey), ``invert`` (full-waveform inversion with the CLI's run directory and resume),
``schedule``, ``adjtest`` and ``gradtest``.

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
from typing import Optional, Sequence, Union

from . import _revwave
from ._arrays import ArrayLike, Points, _as_input, _points
from ._inputs import (_choice, _is_survey_path, _problem, _refuse_with_observed, _set_strategy, _set_survey_layout,
                      _set_survey_observed)
from ._inversion import invert
from ._results import GradientResult, InversionResult, ShotRecord, SurveyRecords
from ._revwave import InputError, IoError, NonFiniteError, NotCompiledError, OutOfMemoryError

__all__ = [
    "ShotRecord", "GradientResult", "SurveyRecords", "InversionResult", "forward", "forward_survey", "gradient", "invert",
    "schedule", "adjtest", "gradtest",
    "InputError", "IoError", "OutOfMemoryError", "NonFiniteError", "NotCompiledError",
]

def forward(model: Optional[ArrayLike] = None, *, velocity: Optional[float] = None,
            shape: Union[str, Sequence[int]] = "80,80,80", spacing: float = 10.0, nbl: int = 10,
            space_order: int = 8, tn: float = 0.5, dt: Optional[float] = None, f0: float = 12.0,
            src: Optional[Points] = None, rec: Optional[Points] = None,
            rec_grid: Union[None, str, Sequence[float]] = None, precision: str = "float",
            backend: str = "auto", threads: Optional[int] = None,
            device_memory: Union[None, int, str] = None, density: Union[None, ArrayLike, str, os.PathLike] = None
            ) -> ShotRecord:
    """Models one shot record, as ``revwave forward``.

    model: velocity (nx, ny, nz) in m/s (default: the built-in model of ``shape``, or ``velocity``
    everywhere). src, rec: points (n, 3) in m from the first interior point (default: one source
    near the top centre, a 16 x 16 receiver grid at depth 2h; ``rec_grid=(NX, NY, Z)`` for another
    grid). dt: default 0.9 x the stability bound. density: kg/m^3 (nx, ny, nz), an array or a .npy
    path, for the variable-density equation (default: constant density). Returns the record in the
    run's precision.
    """
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, density=density)
    return ShotRecord._from(_revwave.forward(o))


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
             aperture: float = -1, compress: str = "none", density: Union[None, ArrayLike, str, os.PathLike] = None,
             density_gradient: Optional[bool] = None) -> GradientResult:
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

    density: kg/m^3 (nx, ny, nz), an array or a .npy path: the variable-density equation, the
    density known and fixed (default: constant). The result's ``density_gradient`` is then dJ/drho
    (as ``--density-gradient`` writes it; ``density_gradient=False`` skips it, True without a density
    is refused); None otherwise. A survey's gradient takes a density but gives no dJ/drho.
    """
    _refuse_with_observed(observed, true_model, src=src, rec=rec, rec_grid=rec_grid, tn=tn, dt=dt)
    o = _revwave.GradientOptions()
    p = _problem(model, velocity, shape, spacing, nbl, space_order, 0.5 if tn is None else tn, dt,
                 12.0 if f0 is None else f0, src, rec,
                 rec_grid, precision, backend, threads, device_memory, host_memory, host_spacing, density)
    o.problem = p
    o.density_gradient = density is not None if density_gradient is None else bool(density_gradient)
    o.f0_given = f0 is not None
    survey = _revwave.SurveyOptions()
    survey.aperture = float(aperture)
    is_survey = False
    if isinstance(observed, (list, tuple)):
        _set_survey_observed(o, survey, observed)
        is_survey = True
    elif isinstance(observed, ShotRecord):
        o.set_observed(_as_input(observed.data, "observed data"), float(observed.dt), float(observed.f0),
                       float(observed.t0), _points(observed.src, "observed src"), _points(observed.rec, "observed rec"))
    elif observed is not None:
        path = os.fspath(observed)
        if not os.path.exists(path):
            raise IoError(f"--observed: Path does not exist: {path}")
        if _is_survey_path(path):
            o.set_observed_files([path])
            is_survey = True
        else:
            o.set_observed_file(path)
    if aperture != -1 and not is_survey:
        raise InputError("--aperture applies to a survey: give observed as a list, a SEG-Y file or a directory")
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    o.compress = str(compress)
    if is_survey:
        o.density_gradient = bool(density_gradient)  # refused by the library when True
        objective, g, stats, _, _ = _revwave.survey_gradient(o, survey)
        stats["command"] = "gradient"
        return GradientResult(objective=objective, gradient=g, stats=stats)
    objective, g, stats, modelled, g_rho = _revwave.gradient(o)
    stats["command"] = "gradient"
    return GradientResult(objective=objective, gradient=g, stats=stats,
                          observed=None if modelled is None else ShotRecord._from(modelled), density_gradient=g_rho)


def forward_survey(model: Union[None, ArrayLike, str, os.PathLike] = None, *, velocity: Optional[float] = None,
                   shape: Union[str, Sequence[int]] = "80,80,80", spacing: float = 10.0, nbl: int = 10,
                   space_order: int = 8, tn: float = 0.5, dt: Optional[float] = None, f0: float = 12.0,
                   src: Optional[Points] = None, src_grid: Union[None, str, Sequence[float]] = None,
                   rec: Optional[Points] = None, rec_grid: Union[None, str, Sequence[float]] = None,
                   spread: str = "fixed", wavelet: Union[None, ArrayLike, str, os.PathLike] = None,
                   origin: Union[None, str, Sequence[float]] = None, out: Union[None, str, os.PathLike] = None,
                   precision: str = "float", backend: str = "auto", threads: Optional[int] = None,
                   device_memory: Union[None, int, str] = None,
                   density: Union[None, ArrayLike, str, os.PathLike] = None) -> SurveyRecords:
    """Models a survey, as ``revwave forward --src-grid ...``: every source a shot, shot after shot.

    src_grid=(NX, NY, Z): NX x NY sources over the x-y extent at depth Z (m), else every point of
    ``src`` a shot. Receivers (``rec``, ``rec_grid``) are shared by every shot, or with
    ``spread="moving"`` the spread, centred on the model, moves with each source (receivers that
    leave the model are dropped). wavelet: a sampled source signature of nt samples (array or .npy
    path) instead of the Ricker wavelet of f0 Hz. out: FILE.sgy / FILE.segy (SEG-Y: dt is then a
    whole number of microseconds, the default rounded down to one, and the shots are modelled at the
    positions the file holds; ``origin`` (m) adds the file coordinates of the model's first interior
    point), FILE.npy (one shot) or a new directory of records; None writes nothing. Returns the
    records (data in the run's precision) and the summary's fields. density: as ``forward``'s.
    """
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, density=density)
    survey = _revwave.SurveyOptions()
    _set_survey_layout(survey, src_grid, spread, wavelet, origin)
    records, stats = _revwave.forward_survey(o, survey, "" if out is None else os.fspath(out))
    stats["command"] = "forward"
    return SurveyRecords(records=[ShotRecord._from(r) for r in records], stats=stats)


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
            tolerance: Optional[float] = None, density: Union[None, ArrayLike, str, os.PathLike] = None) -> dict:
    """The dot-product test <F w, d> = <w, F^T d>, as ``revwave adjtest`` (its defaults: 40^3, double).
    Returns the fields of ``revwave adjtest --json``: forward_product, adjoint_product, relative_error,
    tolerance (default 1e-12 in double, 1e-5 in float), pass, steps, ... With ``density`` (kg/m^3) it
    tests the variable-density equation and its transpose."""
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, density=density)
    if not 0 <= int(seed) <= 4294967295:
        raise InputError(f"--seed {seed} is invalid: it must be an integer in [0, 4294967295]")
    r = _revwave.adjtest(o, int(seed), None if tolerance is None else float(tolerance))
    r["command"] = "adjtest"
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
             threads: Optional[int] = None, halvings: int = 6, scale: float = 0.02,
             density: Union[None, ArrayLike, str, os.PathLike] = None) -> dict:
    """The Taylor test of J and its gradient, as ``revwave gradtest`` (CPU backend; 40^3, double):
    |J(m + h dm) - J(m)| falls as h, |J(m + h dm) - J(m) - h <g, dm>| as h^2. Returns h, first_order,
    second_order, rate_first, rate_second and pass (the fields of ``revwave gradtest --json``)."""
    given = {"src": src, "rec": rec, "rec_grid": rec_grid, "tn": tn, "dt": dt}
    if observed is not None:
        for name, value in given.items():
            if value is not None:
                raise InputError(f"--observed excludes --{name.replace('_', '-')}")
    o = _revwave.GradientOptions()
    o.problem = _problem(model, velocity, shape, spacing, nbl, space_order, 0.3 if tn is None else tn, dt,
                         12.0 if f0 is None else f0, src,
                         rec, rec_grid, precision, backend, threads, density=density)
    o.f0_given = f0 is not None
    if isinstance(observed, ShotRecord):
        o.set_observed(_as_input(observed.data, "observed data"), float(observed.dt), float(observed.f0),
                       float(observed.t0), _points(observed.src, "observed src"), _points(observed.rec, "observed rec"))
    elif observed is not None:
        o.set_observed_file(os.fspath(observed))
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    r = _revwave.gradtest(o, int(halvings), float(scale))
    r["command"] = "gradtest"
    return r
