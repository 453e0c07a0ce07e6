"""numpy arrays as the extension reads them (internal): C-contiguous float32/float64 in place,
other layouts and dtypes converted only where no value changes."""
from __future__ import annotations

import os
from typing import Any, Sequence, Union

import numpy as np

from ._revwave import InputError

ArrayLike = Any
Points = Union[ArrayLike, Sequence[Sequence[float]]]


def _as_input(a: ArrayLike, name: str) -> np.ndarray:
    """``a`` as a C-contiguous float32/float64 array: itself when it already is one, else a lossless copy.
    A numpy masked array is refused: its mask would be dropped (np.asarray keeps only its data)."""
    if isinstance(a, np.ma.MaskedArray):
        raise InputError(f"{name}: a masked array is invalid: its mask would be ignored; give a plain array "
                         f"(np.ma.filled(a, value) says what the masked points hold)")
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


def _path(value: Union[str, "os.PathLike[str]"], option: str) -> str:
    """A path as the extension takes it, a str: what ``os.fspath`` gives for a str or an os.PathLike.
    bytes (which os.fspath passes through) are refused naming the option, rather than reaching a
    str-only field of the bindings, whose TypeError names neither."""
    p = os.fspath(value)
    if isinstance(p, bytes):
        raise InputError(f"{option} {value!r} is invalid: a path is a str or an os.PathLike of str, not bytes")
    return p
