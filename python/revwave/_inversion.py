"""revwave.invert: full-waveform inversion from Python, the CLI's `revwave invert` on the same
library function (revwave/inversion/invert_run.hpp), its run directory and resume included."""
from __future__ import annotations

import json
import os
from typing import Optional, Sequence, Union

from . import _revwave
from ._arrays import ArrayLike, Points, _as_input, _path
from ._docs import _documented
from ._inputs import (_aperture, _bool, _choice, _cutoffs, _existing, _integer, _number, _optional_number,
                      _output_path, _problem, _refuse_with_observed, _set_strategy, _set_survey_layout,
                      _set_survey_observed, _survey_list, _warn)
from ._progress import ProgressArg, _reporting
from ._results import InversionResult, ShotRecord
from ._revwave import InputError


@_documented
def invert(model: Union[None, ArrayLike, str, os.PathLike] = None, *,
           observed: Union[None, ShotRecord, str, os.PathLike, Sequence[Union[ShotRecord, str, os.PathLike]]] = None,
           true_model: Union[None, ArrayLike, str, os.PathLike] = None, velocity: Optional[float] = None,
           vmin: Optional[float] = None, vmax: Optional[float] = None,
           bands: Union[None, str, Sequence[float]] = None, iterations: int = 10, lbfgs_memory: int = 5,
           tolerance: float = 1e-4, first_step: Optional[float] = None,
           mask: Union[None, ArrayLike, str, os.PathLike] = None, mask_depth: Optional[float] = None,
           precondition: str = "illumination", smooth: float = 0.0,
           out_dir: Union[None, str, os.PathLike] = None, resume: Union[None, str, os.PathLike] = None,
           shape: Union[None, str, Sequence[int]] = None, spacing: float = 10.0, nbl: int = 10,
           free_surface: bool = False,
           boundary: str = "cpml",
           space_order: int = 8, tn: Optional[float] = None, dt: Optional[float] = None,
           f0: Optional[float] = None, src: Optional[Points] = None, src_grid: Union[None, str, Sequence[float]] = None,
           rec: Optional[Points] = None, rec_grid: Union[None, str, Sequence[float]] = None, spread: str = "fixed",
           wavelet: Union[None, ArrayLike, str, os.PathLike] = None, origin: Union[None, str, Sequence[float]] = None,
           aperture: Optional[float] = None, strategy: str = "revolve", snaps: Optional[int] = None,
           checkpoint_memory: Union[None, int, str] = None, store: Optional[str] = None, checkpoint_dir: str = "",
           tier: Sequence[str] = (), stop_energy: Optional[float] = None, compress: str = "none",
           precision: str = "float", backend: str = "auto", threads: Optional[int] = None,
           device_memory: Union[None, int, str] = None, host_memory: Union[None, int, str] = None,
           host_spacing: Optional[int] = None, shots_at_once: Optional[int] = None, misfit: str = "l2", estimate_wavelet: bool = False,
           progress: ProgressArg = None, density: Union[None, ArrayLike, str, os.PathLike] = None,
           epsilon: Union[None, float, ArrayLike, str, os.PathLike] = None,
           delta: Union[None, float, ArrayLike, str, os.PathLike] = None,
           q: Union[None, float, ArrayLike, str, os.PathLike] = None, q_frequency: Optional[float] = None) -> InversionResult:
    """Full-waveform inversion, as ``revwave invert``: projected L-BFGS on the velocity (m/s) within
    [vmin, vmax] (required), band after band, the same bits as the CLI for the same options.

    model: the starting velocity (nx, ny, nz) in m/s, an array or a .npy path (default: the true
    model smoothed). observed: a ShotRecord, a list of them, or paths (records with sidecars, SEG-Y
    files, directories of records); without it the data are modelled in ``true_model`` (array or
    path; default the built-in model) on the layout of src/src_grid, rec/rec_grid and spread, and
    for a default dt the time step is stable for vmax. bands: low-pass cut-offs in Hz, increasing
    (e.g. (8, 14)): data and wavelet are low-passed with a zero-phase Butterworth filter; None inverts
    the data as they are (an empty list is refused, as ``--bands ''``). iterations: per band;
    tolerance: a band ends when an iteration lowers J by less than this fraction; first_step: the
    largest velocity change (m/s) of a band's first trial (default 2% of vmax). mask: weights in [0, 1] per grid point (array or .npy path; 0 is never
    updated), or mask_depth: no update above this depth (m). precondition: "illumination" (divide by
    the source-side illumination) or "none"; smooth: the update's Gaussian smoothing length (m).
    aperture: each shot on its window of this many metres (a finite distance >= 0) around its sources and
    receivers (default None: the whole model).

    out_dir: the run directory (every iteration's model_NNNN.npy, model.npy, pictures,
    history.jsonl, state.bin and state.d/, written together); None writes nothing (an empty name is
    refused). resume: the directory of an inversion begun with the same options, continued from its
    last iteration (bit for bit).

    misfit: "l2", "correlation" or "envelope" (a callable has no fingerprint for resume: refused).
    estimate_wavelet: fit one source signature to the data in the starting model first and use it for
    every shot (low-passed with the data in each band); returned as ``wavelet``, written as
    DIR/wavelet.npy. Under ``mpiexec -n K python script.py`` the shots spread over the K processes and
    every process returns the same model; the first writes the run directory.

    density: kg/m^3 (nx, ny, nz), an array or a .npy path: the variable-density equation, the
    density known and fixed (only the velocity is inverted; modelled data use it too). epsilon, delta:
    Thomsen's parameters of a VTI medium, known and fixed the same way (as ``forward``'s).
    """
    observed = _survey_list(observed)
    _refuse_with_observed(observed, None, src=src, rec=rec, rec_grid=rec_grid, tn=tn, dt=dt)
    if observed is not None and true_model is not None:
        raise InputError("--observed excludes --true-model")
    if observed is not None and src_grid is not None:
        raise InputError("--observed excludes --src-grid")
    o = _revwave.InvertOptions()
    job = o.job
    job.problem = _problem(model, velocity, shape, spacing, nbl, space_order, 0.5 if tn is None else tn, dt,
                           12.0 if f0 is None else f0, src, rec, rec_grid, precision, backend, threads,
                           device_memory, host_memory, host_spacing, shots_at_once=shots_at_once, free_surface=free_surface, boundary=boundary, density=density,
                           epsilon=epsilon, delta=delta, q=q, q_frequency=q_frequency)
    job.f0_given = f0 is not None
    if callable(misfit):
        raise InputError("invert takes a built-in misfit: l2, correlation or envelope")
    job.misfit = _choice("--misfit", misfit, ("l2", "correlation", "envelope"))
    estimate_wavelet = _bool("estimate_wavelet", estimate_wavelet)
    if estimate_wavelet and wavelet is not None:
        raise InputError("--estimate-wavelet excludes --wavelet: the signature is either given or estimated")
    job.estimate_wavelet = estimate_wavelet
    _set_strategy(job, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy)
    job.compress = str(compress)
    if isinstance(true_model, (str, os.PathLike)):
        job.true_model_file = _existing(true_model, "--true-model")
    elif true_model is not None:
        job.set_true_model(_as_input(true_model, "true_model"))
    survey = o.survey
    _set_survey_layout(survey, src_grid, spread, wavelet, origin)
    aperture = _aperture(aperture)
    if aperture is not None:
        survey.aperture = aperture
    if observed is not None:
        _set_survey_observed(job, survey, observed if isinstance(observed, (list, tuple)) else [observed])
    o.vmin = _optional_number("--vmin", vmin)
    o.vmax = _optional_number("--vmax", vmax)
    o.bands = _cutoffs(bands)
    o.iterations = _integer("--iterations", iterations)
    o.lbfgs_memory = _integer("--lbfgs-memory", lbfgs_memory)
    o.tolerance = _number("--tolerance", tolerance)
    o.first_step = _optional_number("--first-step", first_step)
    if mask is not None and mask_depth is not None:
        raise InputError("--mask excludes --mask-depth")
    if isinstance(mask, (str, os.PathLike)):
        o.mask = _existing(mask, "--mask")
    elif mask is not None:
        o.set_mask(_as_input(mask, "mask"))
    o.mask_depth = _optional_number("--mask-depth", mask_depth)
    o.illumination = _choice("--precondition", precondition, ("illumination", "none")) == "illumination"
    o.smooth = _number("--smooth", smooth)
    o.out_dir = _output_path("--out-dir", out_dir)
    o.out_dir_given = out_dir is not None  # with resume= it must name the same directory, as the CLI's --out-dir
    o.resume = "" if resume is None else _path(resume, "--resume")
    if resume is not None and o.resume == "":  # the library's "not given": a fresh inversion instead
        raise InputError("--resume '' is invalid: give the directory of the inversion to continue (leave resume out, "
                         "None, to begin one)")
    with _reporting(progress, "invert"):
        r = _revwave.invert(o)
    r["stats"]["command"] = "invert"
    _warn(r["stats"])
    return InversionResult(model=r["model"], history=[json.loads(line) for line in r["history"]], stats=r["stats"],
                           wavelet=r["wavelet"])
