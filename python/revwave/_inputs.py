"""Keyword arguments into the extension's option structs (internal): arrays as the extension reads
them, points, triples, choices and files checked as the CLI checks them."""
from __future__ import annotations

import os
from typing import Optional, Sequence, Union

import numpy as np

from . import _revwave
from ._arrays import _as_input, _points
from ._results import ShotRecord
from ._revwave import InputError, IoError

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


def _existing(path: Union[str, os.PathLike], option: str) -> str:
    """The path of an input file, refused as the CLI refuses it when it does not exist."""
    p = os.fspath(path)
    if not os.path.exists(p):
        raise IoError(f"{option}: File does not exist: {p}")
    return p


def _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision, backend,
             threads, device_memory=None, host_memory=None, host_spacing=None, density=None) -> "_revwave.ProblemOptions":
    o = _revwave.ProblemOptions()
    if model is not None and velocity is not None:
        raise InputError("--model excludes --velocity")
    if isinstance(model, (str, os.PathLike)):
        o.model_file = _existing(model, "--model")
    elif model is not None:
        o.set_model(_as_input(model, "model"))
    if isinstance(density, (str, os.PathLike)):
        o.density_file = _existing(density, "--density")
    elif density is not None:
        o.set_density(_as_input(density, "density"))
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


def _refuse_with_observed(observed, true_model, **given) -> None:
    """Observed data bring their geometry and time axis: the options that would set them are refused."""
    if observed is None:
        return
    if true_model is not None:
        raise InputError("--observed excludes --true-model")
    for name, value in given.items():
        if value is not None:
            raise InputError(f"--observed excludes --{name.replace('_', '-')}")


def _record_dict(record: ShotRecord, name: str) -> dict:
    return dict(data=_as_input(record.data, f"{name} data"), dt=float(record.dt), f0=float(record.f0),
                t0=float(record.t0), src=_points(record.src, f"{name} src"), rec=_points(record.rec, f"{name} rec"))


def _set_survey_observed(o, survey, observed) -> None:
    """A survey's observed data: a list of ShotRecords (in memory) or of paths (records, SEG-Y files,
    directories of records)."""
    records, paths = [], []
    for i, item in enumerate(observed):
        if isinstance(item, ShotRecord):
            records.append(_record_dict(item, f"observed[{i}]"))
        else:
            paths.append(os.fspath(item))
    if records and paths:
        raise InputError("observed: give a list of ShotRecords or a list of paths, not both")
    if not records and not paths:
        raise InputError("observed: a survey needs at least one shot")
    for path in paths:
        if not os.path.exists(path):
            raise IoError(f"--observed: Path does not exist: {path}")
    if records:
        survey.set_records(records)
    else:
        o.set_observed_files(paths)


def _set_survey_layout(survey, src_grid, spread, wavelet, origin) -> None:
    survey.src_grid = "" if src_grid is None else _triple(src_grid)
    survey.spread = _choice("--spread", spread, ("fixed", "moving"))
    if isinstance(wavelet, (str, os.PathLike)):
        survey.wavelet = _existing(wavelet, "--wavelet")
    elif wavelet is not None:
        survey.set_wavelet(_as_input(wavelet, "wavelet"))
    survey.origin = "" if origin is None else _triple(origin)


def _cutoffs(bands: Union[str, Sequence[float]]) -> str:
    return bands if isinstance(bands, str) else _triple(bands)
