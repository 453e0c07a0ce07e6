"""Keyword arguments into the extension's option structs (internal): arrays as the extension reads
them, points, triples, choices and files checked as the CLI checks them."""
from __future__ import annotations

import numbers
import os
import re
import warnings
from typing import Optional, Sequence, Union

import numpy as np

from . import _revwave
from ._arrays import _as_input, _path, _points
from ._results import ShotRecord, SurveyRecords
from ._revwave import InputError, IoError

def _number_text(v) -> str:
    """A number as the CLI writes it (2400, not 2400.0; nan, inf)."""
    if isinstance(v, (bool, np.bool_)):
        return repr(v)
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return repr(v)
    return str(int(f)) if np.isfinite(f) and f.is_integer() and abs(f) < 1e15 else repr(f)


# The text the CLI reads as a number (std::from_chars, general format, an optional leading +): no
# blanks, no digit separators, no hexadecimal; Python's float() takes " 5", "1_0" and more.
_NUMBER_TEXT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
                          re.IGNORECASE | re.ASCII)
# The text the CLI reads as an integer: an optional sign and decimal digits, nothing else.
_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+", re.ASCII)


def _bool(name: str, value) -> bool:
    """A flag (free_surface, estimate_wavelet, actions, ...): True or False (numpy's too), nothing that
    bool() would turn into one ("no" and 0.5 are true to bool())."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InputError(f"{name} {value!r} is not a bool: give True or False")


def _number(option: str, value) -> float:
    """A number keyword (tn, spacing, f0, smooth, ...) as the CLI reads its option: a real number or its
    text (``"0.5"``, ``"1e-3"``); a bool, None, text that is not a number (``"1_0"``, ``" 5"``) or
    anything else is refused naming the option. Its rule (> 0, finite, ...) is checked where the CLI
    checks it."""
    if isinstance(value, (bool, np.bool_)):
        raise InputError(f"{option} {value} is invalid: it must be a number, not a bool")
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value[()]
    if isinstance(value, numbers.Real):
        try:
            return float(value)
        except OverflowError:
            raise InputError(f"{option} {value} is invalid: it must be a number a double holds") from None
    if isinstance(value, str) and _NUMBER_TEXT.fullmatch(value):
        try:
            return float(value)
        except ValueError:
            pass
    raise InputError(f"{option} {value!r} is invalid: it must be a number")


def _optional_number(option: str, value) -> Optional[float]:
    """A number keyword whose None means "not given" (the CLI's option left out)."""
    return None if value is None else _number(option, value)


def _aperture(value) -> Optional[float]:
    """``aperture=``: None (each shot on the whole model) or a finite distance >= 0 in m, as the CLI's
    --aperture (the library's -1, "not given", is not a value to give)."""
    if value is None:
        return None
    a = _number("--aperture", value)
    if not (np.isfinite(a) and a >= 0):
        raise InputError(f"--aperture {_number_text(a)} m is invalid: it must be finite and >= 0")
    return a


def _triple(v: Union[str, Sequence[float]], option: str = "") -> str:
    if isinstance(v, str):
        return v
    # Integers as integers, other numbers at full precision (repr reads back as the same double); a
    # bool is no coordinate nor count.
    return ",".join(str(int(x)) if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
                    else repr(_number(option, x)) for x in v)


def _shown(value) -> str:
    """A value as a message names it: text in quotes as the CLI's sentences quote it, a list or tuple as
    Python writes it, an array as its list."""
    if isinstance(value, str):
        return f"'{value}'"
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)


# What a point or grid option holds, in the words of the CLI's refusal of an empty one.
_TRIPLE_RULES = {"--rec-grid": "expected NX,NY,Z (NX, NY whole numbers >= 1, Z a depth in m)",
                 "--src-grid": "expected NX,NY,Z (NX, NY whole numbers >= 1, Z a depth in m)",
                 "--origin": "expected 3 comma-separated numbers"}


def _optional_triple(option: str, value) -> str:
    """A point or grid option whose None means "not given" (the library's empty text); an empty one
    given ('' or []) is refused as the CLI refuses ``--rec-grid ''``, not read as not given."""
    if value is None:
        return ""
    text = _triple(value, option)
    if text == "":
        raise InputError(f"{option} {_shown(value)} is invalid: {_TRIPLE_RULES[option]}")
    return text


def _choice(option: str, value: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise InputError(f"{option} '{value}' is invalid: it must be one of {', '.join(allowed)}")
    return value


# Each count's rule as the CLI states it (its IntRange: lowest, highest, None where unbounded) and the
# bits of the C++ field it fills (index_t, std::int64_t: 64; int: 32). The CLI reads every count as
# an int64 and checks the rule there; a Python int beyond the field would otherwise reach nanobind,
# whose "incompatible function arguments" names neither the option nor the rule.
_COUNT_RULES = {
    "--nbl": (0, None, 64), "--space-order": (2, 16, 32), "--threads": (1, 65536, 32),
    "--host-spacing": (1, None, 64), "--shots-at-once": (1, 8, 32), "--snaps": (1, None, 64),
    "--steps": (1, None, 64), "--iterations": (1, 100000, 32), "--lbfgs-memory": (1, 100, 32),
    "--halvings": (2, 40, 32), "--seed": (0, 4294967295, 64), "shape": (1, None, 64),
}


def _count_rule(option: str) -> str:
    """The rule of a count as the CLI words it: "an integer >= 1", "an integer in [2, 16]"."""
    lo, hi, _ = _COUNT_RULES.get(option, (None, None, 64))
    if lo is not None and hi is not None:
        return f"an integer in [{lo}, {hi}]"
    if lo is not None:
        return f"an integer >= {lo}"
    return "an integer" if hi is None else f"an integer <= {hi}"


def _fitting(option: str, value: int) -> int:
    """A count that its C++ field holds, else the CLI's sentence: beyond an int64 the CLI cannot read the
    text (``--steps '9223372036854775808' is invalid: it must be an integer >= 1``); beyond an int
    field its rule refuses it (``--space-order 2147483648 is invalid: it must be an integer in [2, 16]``).
    Within the field the rule is checked where the CLI's library checks it."""
    bits = _COUNT_RULES.get(option, (None, None, 64))[2]
    if not -2 ** 63 <= value < 2 ** 63:
        raise InputError(f"{option} '{value}' is invalid: it must be {_count_rule(option)}")
    if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
        raise InputError(f"{option} {value} is invalid: it must be {_count_rule(option)}")
    return value


def _integer(option: str, value) -> int:
    """A count (nbl, snaps, ...), refused as the CLI refuses ``--nbl 10.9``: a fraction is never cut to
    an integer, nor a bool taken as one. A whole float (10.0, as numpy arithmetic gives it) is the
    integer it equals (a config file's ``nbl = 10.0``, a TOML float, is refused). Text is read as
    the CLI reads it: an optional sign and digits (``"1_0"`` and ``" 5"``, which int() takes, are
    refused). A 0-d array (``np.array(5)``) is the number it holds. A value beyond the C++ field it
    fills (``steps=2**63``, ``space_order=2**31``) is refused with the option's rule, as the CLI
    refuses it."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        raise InputError(f"{option} {value} is invalid: it must be an integer (a count, not a bool)")
    if isinstance(value, (int, np.integer)):
        return _fitting(option, int(value))
    if isinstance(value, str):
        if _INTEGER_TEXT.fullmatch(value):
            return _fitting(option, int(value))
        raise InputError(f"{option} {value!r} is invalid: it must be an integer")
    if value is None:
        raise InputError(f"{option} None is invalid: it must be an integer")
    if isinstance(value, (float, np.floating)) and np.isfinite(value) and float(value).is_integer():
        return _fitting(option, int(value))
    raise InputError(f"{option} '{value}' is invalid: it must be an integer (a fraction is not cut to one)")


def _output_path(option: str, path: Union[None, str, os.PathLike]) -> str:
    """An output's name, None meaning "not given" (the library's empty text: nothing written); an empty
    name is refused as the CLI refuses ``--out ''`` (it would be taken for the option not given)."""
    if path is None:
        return ""
    p = _path(path, option)
    if p == "":
        raise InputError(f"{option}: an empty name: give a file name")
    return p


def _memory(v: Union[None, int, str]) -> Optional[str]:
    return None if v is None else str(v)


def _existing(path: Union[str, os.PathLike], option: str) -> str:
    """The path of an input file, refused as the CLI refuses it when it does not exist."""
    p = _path(path, option)
    if not os.path.exists(p):
        raise IoError(f"{option}: File does not exist: {p}")
    return p


def _problem(model, velocity, shape, spacing, nbl, space_order, tn, dt, f0, src, rec, rec_grid, precision, backend,
             threads, device_memory=None, host_memory=None, host_spacing=None, shots_at_once=None,
             default_shape="80,80,80", free_surface=False, boundary="cpml", density=None, epsilon=None,
             delta=None, q=None, q_frequency=None) -> "_revwave.ProblemOptions":
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
    # Thomsen's epsilon and delta, and Q: a number, a .npy path or an array
    for name, value in (("epsilon", epsilon), ("delta", delta), ("q", q)):
        if value is None:
            continue
        if isinstance(value, (str, os.PathLike)):
            o.set_parameter(name, _existing(value, f"--{name}"))
        elif isinstance(value, (int, float, np.integer, np.floating, bool, np.bool_)):
            o.set_parameter(name, float(_number(f"--{name}", value)))
        else:
            o.set_parameter(name, _as_input(value, name))
    o.velocity = _optional_number("--velocity", velocity)
    o.q_frequency = _optional_number("--q-frequency", q_frequency)
    # A shape given with a model must be the model's (the CLI's --shape); None: the default grid.
    o.shape_given = shape is not None
    o.shape = _triple(default_shape if shape is None else shape, "--shape")
    o.spacing = _number("--spacing", spacing)
    o.nbl = _integer("--nbl", nbl)
    o.free_surface = _bool("free_surface", free_surface)
    o.boundary = _choice("--boundary", boundary, ("sponge", "cpml"))
    o.space_order = _integer("--space-order", space_order)
    o.tn = _number("--tn", tn)
    o.dt = _optional_number("--dt", dt)
    o.f0 = _number("--f0", f0)
    if src is not None:
        o.set_sources(_points(src, "src"))
    if rec is not None and rec_grid is not None:
        raise InputError("--rec-grid excludes --rec")
    if rec is not None:
        o.set_receivers(_points(rec, "rec"))
    o.rec_grid = _optional_triple("--rec-grid", rec_grid)
    o.precision = _choice("--precision", precision, ("float", "double"))
    o.backend = _choice("--backend", backend, ("auto", "cpu", "cuda"))
    o.threads = None if threads is None else _integer("--threads", threads)
    o.device_memory = _memory(device_memory)
    o.host_memory = _memory(host_memory)
    o.host_spacing = None if host_spacing is None else _integer("--host-spacing", host_spacing)
    o.shots_at_once = None if shots_at_once is None else _integer("--shots-at-once", shots_at_once)
    return o


class RevwaveWarning(UserWarning):
    """A run that goes ahead although its numbers look wrong: a grid too coarse for the wavelet, a
    time step that aliases it, records that end before its peak, SEG-Y headers the reader overrode.
    The CLI prints the same sentences on stderr; the stats list them as "warnings"."""


def _warn(stats: dict) -> None:
    for w in stats.get("warnings", []):
        warnings.warn(w, RevwaveWarning, stacklevel=3)


def _is_survey_path(path: str) -> bool:
    return os.path.isdir(path) or path.lower().endswith((".sgy", ".segy"))


def _tiers(tier) -> list:
    """``tier=``: a list of NAME:SLOTS[:STORE_COST:RESTORE_COST] texts, as --tier repeated; one text alone
    is that one tier (not its characters, one tier each)."""
    return [tier] if isinstance(tier, str) else [str(t) for t in tier]


def _set_strategy(o, strategy, snaps, checkpoint_memory, store, checkpoint_dir, tier, stop_energy) -> None:
    """The strategy options of gradient and gradtest, checked as the CLI checks them."""
    o.strategy = _choice("--strategy", strategy, ("full", "revolve", "multilevel", "online"))
    o.snaps = None if snaps is None else _integer("--snaps", snaps)
    o.checkpoint_memory = _memory(checkpoint_memory)
    o.store = None if store is None else _choice("--store", store, ("memory", "disk"))
    o.checkpoint_dir = _path(checkpoint_dir, "--checkpoint-dir")
    o.tiers = _tiers(tier)
    o.stop_energy = _optional_number("--stop-energy", stop_energy)


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
    if record.f0 is None or record.t0 is None:
        raise InputError(f"{name}: a record of a survey needs its Ricker wavelet (f0 and t0); a sampled one is "
                         "given for all shots as wavelet=")
    return dict(data=_as_input(record.data, f"{name} data"), dt=_number(f"{name} dt", record.dt),
                f0=_number(f"{name} f0", record.f0), t0=_number(f"{name} t0", record.t0),
                src=_points(record.src, f"{name} src"), rec=_points(record.rec, f"{name} rec"))


def _survey_list(observed):
    """forward_survey's result stands for its records: ``observed=revwave.forward_survey(...)``."""
    return list(observed.records) if isinstance(observed, SurveyRecords) else observed


def _set_survey_observed(o, survey, observed) -> None:
    """A survey's observed data: a list of ShotRecords or dicts (in memory) or of paths (records, SEG-Y
    files, directories of records), or forward_survey's result."""
    observed = _survey_list(observed)
    records, paths = [], []
    for i, item in enumerate(observed):
        if isinstance(item, (ShotRecord, dict)):
            record = _observed_record(item)
            if record.wavelet is not None:
                raise InputError(f"observed[{i}]: a survey's sampled wavelet is one for all shots: pass it as wavelet=")
            records.append(_record_dict(record, f"observed[{i}]"))
        elif isinstance(item, np.ndarray):
            _observed_record(item)  # refused, saying what to pass
        else:
            paths.append(_path(item, f"observed[{i}]"))
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
    survey.src_grid = _optional_triple("--src-grid", src_grid)
    survey.spread = _choice("--spread", spread, ("fixed", "moving"))
    if isinstance(wavelet, (str, os.PathLike)):
        survey.wavelet = _existing(wavelet, "--wavelet")
    elif wavelet is not None:
        survey.set_wavelet(_as_input(wavelet, "wavelet"))
    survey.origin = _optional_triple("--origin", origin)


def _cutoffs(bands: Union[None, str, Sequence[float]]) -> str:
    """``bands=``: None inverts the data as they are (the library's empty text); cut-offs given are at
    least one, so that an empty list or text is refused as the CLI refuses ``--bands ''``, not read as
    not given."""
    if bands is None:
        return ""
    text = bands if isinstance(bands, str) else _triple(bands, "--bands")
    if text == "":
        raise InputError(f"--bands {_shown(bands)} is invalid: F1,F2,... cut-offs in Hz (leave bands out, None, to "
                         "invert the data as they are)")
    return text


_MISFITS = ("l2", "correlation", "envelope")


def _set_misfit(o, misfit) -> None:
    """``misfit=``: a built-in name, or a callable fn(synthetic, observed) -> (J, adjoint_source)."""
    if callable(misfit):
        o.set_misfit_callable(misfit)
    else:
        o.misfit = _choice("--misfit", misfit, _MISFITS)


def _wavelet_input(wavelet) -> Optional[np.ndarray]:
    if wavelet is None:
        return None
    w = _as_input(wavelet, "wavelet")
    if w.ndim != 1:
        raise InputError(f"wavelet: a source signature is a 1-D array of nt samples, this one has shape {w.shape}")
    return w


def _observed_record(observed) -> ShotRecord:
    """One observed record given in memory: a ShotRecord, or a dict with its time axis and geometry."""
    if isinstance(observed, ShotRecord):
        return observed
    if isinstance(observed, dict):
        missing = [k for k in ("data", "dt", "src", "rec") if k not in observed]
        unknown = [k for k in observed if k not in ("data", "dt", "src", "rec", "f0", "t0", "wavelet")]
        if missing or unknown:
            raise InputError("observed: a dict needs data (nt, nrec), dt (s), src and rec (m), and f0, t0 (Ricker) or "
                             f"wavelet; {'missing ' + ', '.join(missing) if missing else 'unknown key ' + ', '.join(unknown)}")
        return ShotRecord(data=observed["data"], dt=_number("observed dt", observed["dt"]), src=observed["src"],
                          rec=observed["rec"], f0=observed.get("f0"), t0=observed.get("t0"),
                          wavelet=observed.get("wavelet"))
    raise InputError("observed: an array alone has no time axis or geometry: pass revwave.ShotRecord(data=..., dt=..., "
                     "src=..., rec=..., f0=... or wavelet=...), a dict with those keys, or the path of a record")


def _set_record_observed(o, record: ShotRecord, wavelet) -> None:
    """A record in memory as the observed data of one shot; its sampled wavelet (or ``wavelet=``) replaces
    the Ricker wavelet of its f0 and t0."""
    own = None if record.wavelet is None else _wavelet_input(record.wavelet)
    if own is not None and wavelet is not None:
        raise InputError("wavelet: the observed record carries its own sampled wavelet: leave wavelet= out")
    sampled = own if own is not None else wavelet
    if sampled is None and (record.f0 is None or record.t0 is None):
        raise InputError("observed: the record has neither a Ricker wavelet (f0 and t0) nor a sampled one (wavelet=)")
    # With a sampled signature the record's f0 and t0 are not used (the sidecar's rules still hold them).
    f0 = 1.0 if record.f0 is None else _number("observed f0", record.f0)
    t0 = 0.0 if record.t0 is None else _number("observed t0", record.t0)
    o.set_observed(_as_input(record.data, "observed data"), _number("observed dt", record.dt), f0, t0,
                   _points(record.src, "observed src"), _points(record.rec, "observed rec"))
    if sampled is not None:
        o.problem.set_wavelet(sampled)


def _set_gradient_observed(o, survey, observed, wavelet) -> bool:
    """gradient's observed data and sampled wavelet: a record in memory, a record's path, or a survey
    (a list, a SEG-Y file or a directory), or None (data modelled in the true model). True for a survey."""
    is_survey = False
    observed = _survey_list(observed)
    if isinstance(observed, (list, tuple)):
        _set_survey_observed(o, survey, observed)
        is_survey = True
    elif isinstance(observed, (ShotRecord, dict, np.ndarray)):
        _set_record_observed(o, _observed_record(observed), wavelet)
        return False
    elif observed is not None:
        path = _path(observed, "--observed")
        if not os.path.exists(path):
            raise IoError(f"--observed: Path does not exist: {path}")
        is_survey = _is_survey_path(path)
        if is_survey:
            o.set_observed_files([path])
        else:
            o.set_observed_file(path)
    if wavelet is not None and is_survey:
        survey.set_wavelet(wavelet)  # every shot's signature
    elif wavelet is not None:
        if observed is not None:
            raise InputError("wavelet: a record read from a file carries its Ricker wavelet in its sidecar: leave wavelet= out")
        o.problem.set_wavelet(wavelet)  # modelled data and the gradient both with the sampled signature
    return is_survey
