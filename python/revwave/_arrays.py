"""numpy arrays as the extension reads them (internal): C-contiguous float32/float64 in place,
other layouts and dtypes converted only where no value changes."""
from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from ._revwave import InputError

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
