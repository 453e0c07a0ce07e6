"""revwave.Objective: J and its gradient as a function of a flat vector, scaled so that off-the-shelf
optimisers (scipy.optimize.minimize with L-BFGS-B, ...) work with their default tolerances."""
from __future__ import annotations

import inspect
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from ._arrays import _as_input
from ._inputs import _integer, _number, _number_text
from ._revwave import InputError


class Objective:
    """``fun(x) -> (J(c) / J0, dJ/dx / J0)`` for x = c / velocity_scale, the velocity model c (m/s)
    flattened, in float64 as scipy wants it.

    Why: a seismic J is about 1e-5 and |dJ/dc| about 1e-9 per point, so an optimiser whose gradient
    tolerance is 1e-5 (scipy's L-BFGS-B) stops before its first step. Dividing J by J0, the objective of
    the first evaluation, and measuring the velocity in units of ``velocity_scale`` (default 1000 m/s)
    makes J start at 1 and its gradient about 1 / (points) per unit, which such optimisers handle.
    ``normalize``: True (default) divides by that first |J|, False by nothing, a positive number by that
    number (the meaning ``revwave.gradient``'s ``normalize=`` has, which takes numbers only).

    ``options`` are ``revwave.gradient``'s keywords (observed, spacing, misfit, strategy, ...), passed
    on every evaluation; ``shape`` is the model's shape. ``evaluations`` counts the calls, ``history``
    holds every J (unscaled). Typical use::

        obj = revwave.Objective(start.shape, observed=obs, spacing=10.0, strategy="revolve", snaps=20)
        res = scipy.optimize.minimize(obj, obj.x(start), jac=True, method="L-BFGS-B",
                                      bounds=obj.bounds(1500.0, 3000.0))
        model = obj.model(res.x)
    """

    def __init__(self, shape: Sequence[int], *, velocity_scale: float = 1000.0,
                 normalize: Union[bool, float] = True, **options):
        if "wrt" in options or "normalize" in options:
            raise InputError("Objective: wrt and normalize are its own (the velocity, scaled by the first J)")
        from . import gradient  # the package's function (imported late: this module is part of it)

        known = set(inspect.signature(gradient).parameters) - {"model"}
        unknown = sorted(set(options) - known)
        if unknown:  # refused here, not at the first evaluation in gradient's words
            raise InputError(f"Objective: unknown option {', '.join(unknown)} (its options are revwave.gradient's "
                             f"keywords)")
        scale = _number("velocity_scale", velocity_scale)
        if not (np.isfinite(scale) and scale > 0):
            raise InputError(f"velocity_scale {velocity_scale} is invalid: it must be a finite number > 0 (m/s)")
        self.shape = tuple(_integer("shape", n) for n in shape)
        if len(self.shape) != 3:  # refused here, not at the first evaluation
            raise InputError(f"shape {tuple(shape)} is invalid: a velocity model is 3-D (nx, ny, nz; ny = 1 for 2-D)")
        for n in self.shape:
            if n < 1:
                raise InputError(f"shape {n} is invalid: it must be an integer >= 1 (points per axis)")
        self.velocity_scale = scale
        # True: J0 is the first evaluation's |J|; False: 1; a number: that number, as gradient's normalize=.
        if isinstance(normalize, (bool, np.bool_)):
            self.normalize, fixed = bool(normalize), None
        elif isinstance(normalize, (int, float, np.integer, np.floating)) and np.isfinite(normalize) and normalize > 0:
            self.normalize, fixed = True, float(normalize)
        else:
            raise InputError(f"normalize {normalize!r} is invalid: it must be True (divide by the first |J|), False "
                             "or a finite number > 0 (divide by it, as revwave.gradient's normalize=)")
        self.options = options
        self.j0: Optional[float] = fixed
        self.evaluations = 0
        self.history: list = []

    def x(self, velocity: np.ndarray) -> np.ndarray:
        """The optimiser's variable for a velocity model (m/s)."""
        c = _as_input(velocity, "velocity")
        if c.shape != self.shape:  # reshape(-1) would take any size, found only when evaluated
            raise InputError(f"velocity: shape {c.shape} is invalid: it must be the Objective's shape {self.shape}")
        return c.astype(np.float64, copy=False).reshape(-1) / self.velocity_scale

    def model(self, x: np.ndarray) -> np.ndarray:
        """The velocity model (m/s) of an optimiser's variable."""
        return (_as_input(x, "x").astype(np.float64, copy=False) * self.velocity_scale).reshape(self.shape)

    def bounds(self, vmin: float, vmax: float) -> list:
        """scipy's bounds for velocities within [vmin, vmax] m/s at every point, refused as ``revwave
        invert --vmin --vmax`` refuses them (each finite and > 0, vmax > vmin)."""
        vmin, vmax = _number("--vmin", vmin), _number("--vmax", vmax)
        for name, v in (("--vmin", vmin), ("--vmax", vmax)):
            if not (np.isfinite(v) and v > 0):
                raise InputError(f"{name} {_number_text(v)} m/s is invalid: it must be finite and > 0")
        if not vmax > vmin:
            raise InputError(f"--vmax {_number_text(vmax)} m/s is invalid: it must exceed --vmin {_number_text(vmin)} m/s")
        size = int(np.prod(self.shape))
        return [(vmin / self.velocity_scale, vmax / self.velocity_scale)] * size

    def __call__(self, x: np.ndarray) -> Tuple[float, np.ndarray]:
        from . import gradient  # the package's function (imported late: this module is part of it)

        r = gradient(self.model(x), wrt="velocity", **self.options)
        j = float(r.objective)
        self.evaluations += 1
        self.history.append(j)
        if self.j0 is None:  # normalize=True: the first |J|; False: 1
            self.j0 = abs(j) if (self.normalize and j != 0) else 1.0
        g = np.asarray(r.gradient, dtype=np.float64).reshape(-1) * (self.velocity_scale / self.j0)
        return j / self.j0, g
