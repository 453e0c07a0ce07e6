"""revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing.

The functions mirror the command-line tool: keyword arguments are its long options with ``-``
as ``_`` and the same defaults, numpy arrays stand where the CLI reads files. Units are SI
(m, s, m/s); models are velocity arrays of shape (nx, ny, nz) with z (depth) fastest (ny = 1: a
2D model in x and z, points at y = 0); shot records are (nt, nrec). The gradient is dJ/dm of the L2 misfit, m = 1/c^2, exactly what
``revwave gradient`` writes (bit for bit, for the same inputs); ``misfit=`` chooses another
(correlation, envelope, or a Python callable), ``wrt="velocity"`` gives dJ/dc.

What the CLI does, Python does through the same library functions: ``forward`` (one record),
``forward_survey`` (a survey's records, SEG-Y or a directory), ``gradient`` (one record or a
survey), ``invert`` (full-waveform inversion with the CLI's run directory and resume),
``schedule``, ``adjtest`` and ``gradtest``. ``Objective`` wraps ``gradient`` for scipy's optimisers,
``revwave.torch`` (when torch is installed) puts the modelling inside PyTorch's autograd.

Under ``mpiexec -n K python script.py`` a survey gradient or an inversion spreads its shots over the
K processes through the library's MPI runner (the CLI's bits for any K); every process returns the
same J and gradient (or model).

Arrays: C-contiguous float32/float64 arrays are read in place. Other inputs are converted
first where that loses nothing: Fortran-ordered or strided arrays are copied to C order,
lists and integer or float16 arrays become float64 when every value survives the round trip.
Anything else (complex, object, values that would round) is refused. Results are numpy arrays
that own their memory.

Ctrl-C (SIGINT) during a call ends the run at its next time step (within a second) and raises
KeyboardInterrupt; nothing of it is left behind. Numbers that run but look wrong (a grid too coarse
for the wavelet, ...) give a ``RevwaveWarning`` each, and ``stats["warnings"]`` lists them.

Errors: revwave's refusals carry the CLI's sentence, as ``InputError`` (a ``ValueError``),
``IoError`` (an ``OSError``), ``OutOfMemoryError`` (a ``MemoryError``), ``NonFiniteError``,
``UnstableRunError`` (a wavefield that grew without bound after the source ended, or became not
finite) and ``NotCompiledError`` (``RuntimeError``). The GIL is released while revwave computes, so threads
can run shots side by side.

The package built by ``pip install .`` has the CPU backend; ``backend="cuda"`` needs a build
with ``-C cmake.define.REVWAVE_CUDA=ON``.
"""
from __future__ import annotations

import os
from typing import Callable, Optional, Sequence, Union

import numpy as np

from . import _revwave
from ._arrays import ArrayLike, Points, _as_input, _path
from ._inputs import (RevwaveWarning, _aperture, _bool, _choice, _integer, _number, _observed_record,
                      _optional_number, _output_path, _problem, _refuse_with_observed, _set_gradient_observed,
                      _set_misfit, _set_record_observed, _set_strategy, _set_survey_layout, _tiers, _warn, _wavelet_input)
from ._docs import _documented
from ._inversion import invert
from ._progress import ProgressArg, _reporting
from ._objective import Objective
from ._results import GradientResult, InversionResult, ShotRecord, SurveyRecords
from ._revwave import InputError, IoError, NonFiniteError, NotCompiledError, OutOfMemoryError, UnstableRunError

# The build's version (CMakeLists.txt's project() line, compiled into the extension): the same
# number as `revwave --version` and the wheel's metadata.
__version__: str = _revwave.__version__

__all__ = [
    "ShotRecord", "GradientResult", "SurveyRecords", "InversionResult", "Objective", "forward", "forward_survey",
    "gradient", "invert", "schedule", "adjtest", "gradtest",
    "InputError", "IoError", "OutOfMemoryError", "NonFiniteError", "UnstableRunError", "NotCompiledError",
    "RevwaveWarning",
]

@_documented
def forward(model: Optional[ArrayLike] = None, *, velocity: Optional[float] = None,
            shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
            free_surface: bool = False,
            boundary: str = "cpml",
            space_order: int = 8, tn: float = 0.5, dt: Optional[float] = None, f0: float = 12.0,
            src: Optional[Points] = None, rec: Optional[Points] = None,
            rec_grid: Union[None, str, Sequence[float]] = None, precision: str = "float",
            backend: str = "auto", threads: Optional[int] = None,
            device_memory: Union[None, int, str] = None, wavelet: Optional[ArrayLike] = None,
            progress: ProgressArg = None, density: Union[None, ArrayLike, str, os.PathLike] = None,
            epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None, delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
            q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> ShotRecord:
    """Models one shot record, as ``revwave forward --out FILE.npy``.

    model: velocity (nx, ny, nz) in m/s (default: the built-in model of ``shape``, default 80^3, or
    ``velocity`` everywhere; a shape given with a model must be the model's). src, rec: points (n, 3)
    in m from the first interior point (default: one source near the top centre, a 16 x 16 receiver
    grid at depth 2h; ``rec_grid=(NX, NY, Z)`` for NX x NY receivers at cell centres). Several src
    fire at once: one shot of simultaneous sources (``forward_survey`` models one shot per source).
    dt: default 0.9 x the stability bound. wavelet: a sampled source signature of nt = tn / dt + 1
    samples (rounded up) instead of the Ricker wavelet of f0; the record then carries it (and f0, t0
    are None). density: kg/m^3 (nx, ny, nz), an array or a .npy path: the variable-density equation
    (default: constant density). epsilon, delta: Thomsen's parameters, a number, an array (nx, ny, nz)
    or a .npy path: a VTI medium (the other 0 unless given; boundary="sponge", backend "cpu").
    Returns the record in the run's precision.
    """
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, free_surface=free_surface, boundary=boundary, density=density,
                 epsilon=epsilon, delta=delta, q=q, q_frequency=q_frequency)
    w = _wavelet_input(wavelet)
    if w is not None:
        o.set_wavelet(w)
    with _reporting(progress, "forward"):
        record = ShotRecord._from(_revwave.forward(o))
    if w is not None:
        record.wavelet, record.f0, record.t0 = np.array(w, dtype=np.float64), None, None
    _warn(record.stats)
    return record


@_documented
def gradient(model: Optional[ArrayLike] = None, *,
             observed: Union[None, ShotRecord, str, os.PathLike, Sequence[Union[ShotRecord, str, os.PathLike]]] = None,
             true_model: Optional[ArrayLike] = None, velocity: Optional[float] = None,
             shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
             free_surface: bool = False,
             boundary: str = "cpml",
             space_order: int = 8, tn: Optional[float] = None, dt: Optional[float] = None,
             f0: Optional[float] = None, src: Optional[Points] = None, rec: Optional[Points] = None,
             rec_grid: Union[None, str, Sequence[float]] = None, strategy: str = "revolve",
             snaps: Optional[int] = None, checkpoint_memory: Union[None, int, str] = None,
             store: Optional[str] = None, checkpoint_dir: str = "", tier: Sequence[str] = (),
             stop_energy: Optional[float] = None, precision: str = "float", backend: str = "auto",
             threads: Optional[int] = None, device_memory: Union[None, int, str] = None,
             host_memory: Union[None, int, str] = None, host_spacing: Optional[int] = None, shots_at_once: Optional[int] = None,
             aperture: Optional[float] = None, compress: str = "none", misfit: Union[str, Callable] = "l2",
             wrt: str = "m", wavelet: Optional[ArrayLike] = None, estimate_wavelet: bool = False,
             normalize: Optional[float] = None, progress: ProgressArg = None,
             density: Union[None, ArrayLike, str, os.PathLike] = None, density_gradient: Optional[bool] = None,
             epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None, delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
             q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> GradientResult:
    """A misfit J and its gradient, as ``revwave gradient`` (the default: J(m) = 1/2 sum |S u - d|^2
    and dJ/dm, m = 1/c^2).

    model: the starting velocity (nx, ny, nz), m/s. observed: a ShotRecord, a dict with the same
    fields (data (nt, nrec), dt, src, rec, and f0, t0 or wavelet), or the path of a record .npy with
    its sidecar (its geometry, dt, nt and wavelet then define the run: src, rec, tn, dt and f0 must be
    left out); an array alone is refused (it has no time axis or geometry). Without ``observed`` the
    data are modelled in ``true_model`` (the built-in model only when ``model`` is not given either:
    the start is then that model smoothed; a model of your own needs ``observed`` or ``true_model``);
    tn (default 0.5 s) and dt then set the time axis.

    misfit: "l2", "correlation" (minus the sum over traces of the normalised zero-lag correlation),
    "envelope" (1/2 sum of squared Hilbert-envelope differences), or a callable
    fn(synthetic, observed) -> (J, adjoint_source) taking and returning numpy arrays (nt, nrec) in the
    run's dtype, called once per shot between the forward and the reverse sweep (any strategy; an
    exception it raises reaches you unchanged). wrt: "m" (``gradient`` is dJ/dm) or "velocity"
    (dJ/dc = -2 dJ/dm / c^3); both are in ``dj_dm`` and ``dj_dc``. wavelet: a sampled source
    signature of nt samples instead of the Ricker wavelet. estimate_wavelet: fit the source signature
    to the observed data in the starting model first (least squares, one for the whole survey) and use
    it; it is returned as ``wavelet``. normalize: a positive number J is divided by (``objective`` and
    ``gradient``; e.g. the first call's J, for optimisers whose tolerances assume J ~ 1). A number is the
    one meaning everywhere: ``revwave.Objective(normalize=X)`` divides by X too, and its
    ``normalize=True`` (divide by the first evaluation's |J|) has no meaning for one call, so True and
    False are refused here.

    A survey: ``observed`` a list of ShotRecords, or a SEG-Y file (.sgy, .segy), a directory of
    records, or a list of such paths. J and g are summed over the shots on the CLI's fixed tree (the
    same bits as ``revwave gradient --observed``), each shot on its window of ``aperture`` m (a finite
    distance >= 0) around its sources and receivers when given (default None: the whole model);
    ``stats`` then holds the survey's fields (shots, shot_objectives, forward_steps, ...).

    strategy: full, revolve (``snaps`` slots, default 20, or ``checkpoint_memory`` such as "512M"),
    multilevel (``tier``: NAME:SLOTS[:STORE_COST:RESTORE_COST]) or online (``stop_energy``).
    store: memory or disk (``checkpoint_dir``). compress: none (default; the gradient equals full's
    bit for bit), fp16, bf16, zfp-rate:R or zfp-accuracy:E (lossy checkpoints, as ``--compress``).
    The result's ``gradient`` is in the run's precision
    (float32 for precision="float"), as the CLI writes it; ``stats`` holds its JSON fields.

    density: kg/m^3 (nx, ny, nz), an array or a .npy path: the variable-density equation, the
    density known and fixed, the data modelled with it too (default: constant). One
    shot's result then holds dJ/drho as ``density_gradient`` (as ``--density-gradient`` writes it;
    ``density_gradient=False`` skips it, True without a density is refused); a survey takes a density
    but gives no dJ/drho (True is refused).

    epsilon, delta: Thomsen's parameters (a number, an array or a .npy path): a VTI medium, known and
    fixed, the data modelled in it too (a survey's windows cut them with the velocity); dJ/dm is the
    pair's (boundary="sponge", the CPU backend: docs/physics/anisotropy.md).
    """
    _refuse_with_observed(observed, true_model, src=src, rec=rec, rec_grid=rec_grid, tn=tn, dt=dt)
    wrt = _choice("wrt", wrt, ("m", "velocity"))
    if isinstance(normalize, (bool, np.bool_)):
        raise InputError(f"normalize={normalize} is invalid: gradient divides J by the number normalize gives (e.g. the "
                         "first call's J); revwave.Objective(normalize=True) divides by its first evaluation's |J|")
    scale = 1.0 if normalize is None else _number("normalize", normalize)
    if not (np.isfinite(scale) and scale > 0):
        raise InputError(f"normalize {normalize} is invalid: it must be a finite number > 0 (J is divided by it)")
    estimate_wavelet = _bool("estimate_wavelet", estimate_wavelet)
    density_gradient = None if density_gradient is None else _bool("density_gradient", density_gradient)
    aperture = _aperture(aperture)
    w = _wavelet_input(wavelet)
    if w is not None and estimate_wavelet:
        raise InputError("estimate_wavelet excludes wavelet: the signature is either given or estimated")
    o = _revwave.GradientOptions()
    p = _problem(model, velocity, shape, spacing, nbl, space_order, 0.5 if tn is None else tn, dt,
                 12.0 if f0 is None else f0, src, rec,
                 rec_grid, precision, backend, threads, device_memory, host_memory, host_spacing,
                 shots_at_once=shots_at_once, free_surface=free_surface, boundary=boundary, density=density,
                 epsilon=epsilon, delta=delta, q=q, q_frequency=q_frequency)
    o.problem = p
    o.f0_given = f0 is not None
    _set_misfit(o, misfit)
    o.estimate_wavelet = estimate_wavelet
    survey = _revwave.SurveyOptions()
    if aperture is not None:
        survey.aperture = aperture
    is_survey = _set_gradient_observed(o, survey, observed, w)
    if aperture is not None and not is_survey:
        raise InputError("--aperture applies to a survey: give observed as a list, a SEG-Y file or a directory")
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    o.compress = str(compress)
    o.keep_traces = not is_survey
    wants_rho = (density is not None and not is_survey) if density_gradient is None else density_gradient
    o.density_gradient = wants_rho
    try:
        with _reporting(progress, "gradient"):
            if is_survey:
                objective, g, stats, modelled, extras = _revwave.survey_gradient(o, survey)
            else:
                objective, g, stats, modelled, extras = _revwave.gradient(o)
    finally:
        # The options hold the callable; an exception it raised holds this frame, and so the options:
        # a cycle through C++ that Python's collector cannot see. Let go of the callable.
        o.misfit = "l2"
    stats["command"] = "gradient"
    _warn(stats)
    dj_dm, dj_dc = g, extras["dj_dc"]
    chosen = dj_dm if wrt == "m" else dj_dc
    return GradientResult(objective=objective / scale, gradient=chosen if scale == 1.0 else chosen / chosen.dtype.type(scale),
                          stats=stats, observed=None if modelled is None else ShotRecord._from(modelled), dj_dm=dj_dm,
                          dj_dc=dj_dc, synthetic=extras["synthetic"], residual=extras["residual"],
                          wavelet=extras["wavelet"], wrt=wrt, scale=scale,
                          density_gradient=extras.get("density_gradient"))


@_documented
def forward_survey(model: Union[None, ArrayLike, str, os.PathLike] = None, *, velocity: Optional[float] = None,
                   shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
                   free_surface: bool = False,
                   boundary: str = "cpml",
                   space_order: int = 8, tn: float = 0.5, dt: Optional[float] = None, f0: float = 12.0,
                   src: Optional[Points] = None, src_grid: Union[None, str, Sequence[float]] = None,
                   rec: Optional[Points] = None, rec_grid: Union[None, str, Sequence[float]] = None,
                   spread: str = "fixed", wavelet: Union[None, ArrayLike, str, os.PathLike] = None,
                   origin: Union[None, str, Sequence[float]] = None, out: Union[None, str, os.PathLike] = None,
                   precision: str = "float", backend: str = "auto", threads: Optional[int] = None,
                   device_memory: Union[None, int, str] = None, progress: ProgressArg = None,
                   density: Union[None, ArrayLike, str, os.PathLike] = None,
                   epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None, delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
                   q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> SurveyRecords:
    """Models a survey, as ``revwave forward --src-grid ...``: every source a shot, shot after shot.

    src_grid=(NX, NY, Z): NX x NY sources at the centres of equal cells of the x-y extent, at depth Z
    (m), else every point of ``src`` a shot. Receivers (``rec``, ``rec_grid``) are shared by every shot, or with
    ``spread="moving"`` the spread, centred on the model, moves with each source (receivers that
    leave the model are dropped). wavelet: a sampled source signature of nt samples (array or .npy
    path) instead of the Ricker wavelet of f0 Hz. out: FILE.sgy / FILE.segy (SEG-Y: dt is then a
    whole number of microseconds, the default rounded down to one, and the shots are modelled at the
    positions the file holds; ``origin`` (m) adds the file coordinates of the model's first interior
    point), FILE.npy (one shot) or a new directory of records; None writes nothing. Returns the
    records (data in the run's precision) and the summary's fields. density, epsilon, delta: as ``forward``'s.
    """
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, free_surface=free_surface, boundary=boundary, density=density, epsilon=epsilon,
                 delta=delta, q=q, q_frequency=q_frequency)
    survey = _revwave.SurveyOptions()
    _set_survey_layout(survey, src_grid, spread, wavelet, origin)
    with _reporting(progress, "forward_survey"):
        records, stats = _revwave.forward_survey(o, survey, _output_path("--out", out))
    stats["command"] = "forward"
    _warn(stats)
    return SurveyRecords(records=[ShotRecord._from(r) for r in records], stats=stats)


@_documented
def schedule(*, steps: int = 1000, snaps: int = 10, strategy: str = "revolve", actions: bool = False,
             tier: Sequence[str] = (), slot_bytes: Optional[float] = None) -> dict:
    """Counts a checkpoint schedule, as ``revwave schedule --json``: forward_steps, advances, stores,
    restores, reverses, recompute_ratio, peak_slots, repetition_number (and the online ratio or the
    multilevel tiers). With ``actions=True`` the dict's "actions" lists the action stream."""
    r = _revwave.ScheduleRequest()
    r.steps = _integer("--steps", steps)
    r.snaps = _integer("--snaps", snaps)
    r.strategy = _choice("--strategy", strategy, ("revolve", "multilevel", "online"))
    r.actions = _bool("actions", actions)
    r.tiers = _tiers(tier)
    r.slot_bytes = _optional_number("--slot-bytes", slot_bytes)
    return _revwave.schedule(r)


@_documented
def adjtest(model: Optional[ArrayLike] = None, *, velocity: Optional[float] = None,
            shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
            free_surface: bool = False,
            boundary: str = "cpml",
            space_order: int = 8, tn: float = 0.25, dt: Optional[float] = None, f0: float = 12.0,
            src: Optional[Points] = None, rec: Optional[Points] = None,
            rec_grid: Union[None, str, Sequence[float]] = None, precision: str = "double", backend: str = "auto",
            threads: Optional[int] = None, device_memory: Union[None, int, str] = None, seed: int = 1234,
            tolerance: Optional[float] = None, density: Union[None, ArrayLike, str, os.PathLike] = None,
            epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None, delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
            q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> dict:
    """The dot-product test <F w, d> = <w, F^T d>, as ``revwave adjtest`` (its defaults: 40^3, double).
    Returns the fields of ``revwave adjtest --json``: forward_product, adjoint_product, relative_error,
    tolerance (default 1e-12 in double, 1e-5 in float), pass, steps, ... With ``density`` (kg/m^3) it
    tests the variable-density equation and its transpose; with ``epsilon`` and ``delta`` the VTI pair's."""
    o = _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision,
                 backend, threads, device_memory, default_shape="40,40,40", free_surface=free_surface, boundary=boundary,
                 density=density, epsilon=epsilon, delta=delta, q=q, q_frequency=q_frequency)
    seed = _integer("--seed", seed)
    if not 0 <= seed <= 4294967295:
        raise InputError(f"--seed {seed} is invalid: it must be an integer in [0, 4294967295]")
    r = _revwave.adjtest(o, seed, _optional_number("--tolerance", tolerance))
    r["command"] = "adjtest"
    return r


@_documented
def gradtest(model: Optional[ArrayLike] = None, *, observed: Union[None, ShotRecord, str, os.PathLike] = None,
             true_model: Optional[ArrayLike] = None, velocity: Optional[float] = None,
             shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
             free_surface: bool = False,
             boundary: str = "cpml",
             space_order: int = 8, tn: Optional[float] = None, dt: Optional[float] = None,
             f0: Optional[float] = None,
             src: Optional[Points] = None, rec: Optional[Points] = None,
             rec_grid: Union[None, str, Sequence[float]] = None, strategy: str = "revolve",
             snaps: Optional[int] = None, checkpoint_memory: Union[None, int, str] = None,
             store: Optional[str] = None, checkpoint_dir: str = "", tier: Sequence[str] = (),
             stop_energy: Optional[float] = None, precision: str = "double", backend: str = "cpu",
             threads: Optional[int] = None, halvings: int = 6, scale: float = 0.02,
             misfit: Union[str, Callable] = "l2", density: Union[None, ArrayLike, str, os.PathLike] = None,
             epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None, delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
             q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> dict:
    """The Taylor test of J and its gradient, as ``revwave gradtest`` (on ``backend``; 40^3, double):
    |J(m + h dm) - J(m)| falls as h, |J(m + h dm) - J(m) - h <g, dm>| as h^2. Returns h, first_order,
    second_order, rate_first, rate_second and pass (the fields of ``revwave gradtest --json``).
    misfit: as for ``gradient`` (a name, or a callable: the test then checks its adjoint source).
    density: as for ``gradient`` (the test of J(m) with the density fixed)."""
    _refuse_with_observed(observed, true_model, src=src, rec=rec, rec_grid=rec_grid, tn=tn, dt=dt)
    o = _revwave.GradientOptions()
    o.problem = _problem(model, velocity, shape, spacing, nbl, space_order, 0.3 if tn is None else tn, dt,
                         12.0 if f0 is None else f0, src,
                         rec, rec_grid, precision, backend, threads, default_shape="40,40,40",
                         free_surface=free_surface, boundary=boundary, density=density, epsilon=epsilon,
                         delta=delta, q=q, q_frequency=q_frequency)
    o.f0_given = f0 is not None
    _set_misfit(o, misfit)
    if isinstance(observed, (ShotRecord, dict, np.ndarray)):
        _set_record_observed(o, _observed_record(observed), None)
    elif observed is not None:
        o.set_observed_file(_path(observed, "--observed"))
    if true_model is not None:
        o.set_true_model(_as_input(true_model, "true_model"))
    _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    try:
        r = _revwave.gradtest(o, _integer("--halvings", halvings), _number("--scale", scale))
    finally:
        o.misfit = "l2"  # let go of a callable (see gradient)
    r["command"] = "gradtest"
    return r
