"""revwave inside PyTorch: shot records as a differentiable function of the velocity model.

``revwave.torch.forward(velocity, **options)`` takes a tensor (nx, ny, nz) of velocities (m/s),
float32 or float64 (the run's precision follows the dtype), and returns the shot record tensor
(nt, nrec); with ``shots=[(x, y, z), ...]`` one shot per source, a batch (nshots, nt, nrec). It is a
``torch.autograd.Function``: for any loss L built on the traces, ``L.backward()`` gives dL/dvelocity,
computed by revwave's adjoint with the checkpointing strategy of the options (``strategy``, ``snaps``,
``checkpoint_memory``, ...; default revolve).

How the forward's checkpoints reach the backward: they are recomputed, not held. The forward call
runs the plain time loop (N steps, two wavefields, no checkpoint) and returns the traces; the backward
runs revwave's gradient with dL/d(traces) as the adjoint source: its first sweep stores the strategy's
checkpoints, its reverse sweep consumes them. Between the calls only the velocity tensor and the
record's geometry are held (and the traces torch keeps). Cost against ``revwave.gradient`` for the
same model: N more forward steps (the forward call itself: with revolve and 20 slots on 330 steps,
1374 instead of 1044); memory: the strategy's checkpoints, during the backward only. Holding them
instead would keep S slots of two wavefields alive between the calls for as long as the graph lives
(and forever for a graph never differentiated), to save those N steps.

Tensors: a C-contiguous CPU tensor crosses into revwave without a copy (DLPack-compatible memory read
in place; ``revwave._revwave._last_model_address()`` shows where), and the traces come back as a
tensor over revwave's own array (no copy). Other layouts are made contiguous first (a copy). A CUDA
tensor is accepted and its results returned on its device, but it is copied to the host and back:
revwave's CUDA backend builds its problem from host arrays (UNTESTED on a device: no GPU was available
when this was written).

``dt`` (s) is required: every call's record must have the same samples, which a step chosen from
each call's own velocities would not give.

Options: ``revwave.forward``'s (spacing, nbl, free_surface, boundary, density, space_order, tn, dt, f0, src, rec, rec_grid,
wavelet, backend, threads, device_memory) and ``revwave.gradient``'s strategy options (strategy, snaps,
checkpoint_memory, store, checkpoint_dir, tier, stop_energy, compress, host_memory, host_spacing).
A ``density`` (kg/m^3, the velocity's shape: a numpy array, a .npy path or a tensor, whose values are read
once) is known and fixed, as everywhere in revwave: the record is the variable-density equation's, the
backward differentiates it in the velocity only (the density gets no gradient).
Importing this module needs torch (``import revwave`` does not).
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import numpy as np
import torch

from ._docs import _documented
from . import _revwave
from ._inputs import _number, _set_strategy
from ._revwave import InputError

__all__ = ["forward"]

_FORWARD = {"spacing", "nbl", "free_surface", "boundary", "density", "space_order", "tn", "dt", "f0", "src", "rec", "rec_grid", "wavelet",
            "backend", "threads", "device_memory"}
_SHARED = {"spacing", "nbl", "free_surface", "boundary", "density", "space_order", "backend", "threads", "device_memory"}
_STRATEGY = {"strategy", "snaps", "checkpoint_memory", "store", "checkpoint_dir", "tier", "stop_energy", "compress",
             "host_memory", "host_spacing"}


def _precision(t: torch.Tensor) -> str:
    if t.dtype == torch.float32:
        return "float"
    if t.dtype == torch.float64:
        return "double"
    raise InputError(f"velocity: dtype {t.dtype} is not float32 or float64")


def _host_array(t: torch.Tensor) -> np.ndarray:
    """The tensor's values as a numpy array over the same memory when it is a C-contiguous CPU tensor."""
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()  # revwave's problem is built from host arrays: a copy (see the module's note)
    return t.contiguous().numpy()


class _Shot(torch.autograd.Function):
    """One shot record of the velocity; the backward runs revwave's adjoint (see the module's note)."""

    @staticmethod
    def forward(ctx, velocity: torch.Tensor, options: Dict[str, Any]) -> torch.Tensor:
        from . import forward as model_record

        precision = _precision(velocity)
        c = _host_array(velocity)
        fwd = {k: v for k, v in options.items() if k in _FORWARD}
        record = model_record(c, shape=c.shape, precision=precision, **fwd)
        ctx.save_for_backward(velocity)
        ctx.record = record
        ctx.options = options
        return torch.from_numpy(record.data).to(velocity.device)

    @staticmethod
    def backward(ctx, grad_traces: torch.Tensor):
        from . import gradient

        (velocity,) = ctx.saved_tensors
        g = _host_array(grad_traces.to(velocity.dtype))

        def adjoint_source(synthetic, observed):
            # J = <S u, dL/dS u>: its adjoint source is the incoming gradient itself, so the adjoint
            # run's dJ/dc is the vector-Jacobian product dL/dc.
            return float(np.vdot(synthetic, g)), g

        options = {k: v for k, v in ctx.options.items() if k in _SHARED or k in _STRATEGY}
        if "density" in options:
            options["density_gradient"] = False  # the density is fixed: dJ/drho is not wanted
        c = _host_array(velocity)
        r = gradient(c, observed=ctx.record, misfit=adjoint_source, wrt="velocity", shape=c.shape,
                     precision=_precision(velocity), **options)
        return torch.from_numpy(r.gradient).to(velocity.device), None


def forward(velocity: torch.Tensor, *, shots: Optional[Sequence[Sequence[float]]] = None, **options) -> torch.Tensor:
    """The shot record (nt, nrec) of ``velocity`` (nx, ny, nz), m/s, as a differentiable tensor in its
    dtype; with ``shots`` (one source position each, m) a batch (nshots, nt, nrec), one shot per source
    (each differentiated by its own adjoint run). See the module's note for the options and the costs."""
    unknown = sorted(set(options) - _FORWARD - _STRATEGY)
    if unknown:
        raise InputError(f"revwave.torch.forward: unknown option {', '.join(unknown)}")
    if not isinstance(velocity, torch.Tensor) or velocity.dim() != 3:
        raise InputError("velocity: a 3-D torch tensor (nx, ny, nz) of velocities in m/s")
    if velocity.device.type not in ("cpu", "cuda"):  # a meta tensor holds no values to model with
        raise InputError(f"velocity: a tensor on device '{velocity.device}' is invalid: it must be on the CPU or "
                         f"a CUDA device")
    if options.get("dt") is None:
        # Without it each call would take the largest stable step of its own velocities: the traces of
        # an updated model would not have the observed traces' length (nor their sample times).
        raise InputError("revwave.torch.forward needs dt= (s): the same time step for every call, stable for the "
                         "fastest velocity the model will reach, so that every record has the same samples")
    # The checkpointing options are read by the backward's gradient run: checked here, as gradient
    # checks them, so that a bad one is not found only by a backward (or never, without one).
    _set_strategy(_revwave.GradientOptions(), options.get("strategy", "revolve"), options.get("snaps"),
                  options.get("checkpoint_memory"), options.get("store"), options.get("checkpoint_dir", ""),
                  options.get("tier", ()), options.get("stop_energy"))
    if isinstance(options.get("density"), torch.Tensor):  # known and fixed: its values, not its graph
        options["density"] = options["density"].detach().cpu().to(torch.float64).contiguous().numpy()
    if shots is None:
        return _Shot.apply(velocity, options)
    if "src" in options:
        raise InputError("shots excludes src: each shot is one source position")
    shots = list(shots)
    if not shots:  # a batch of no records: the run it asks for models nothing
        raise InputError("shots [] is invalid: give at least one source position (leave shots out for one record)")
    records = [_Shot.apply(velocity, dict(options, src=[tuple(_number("shots", x) for x in s)])) for s in shots]
    return torch.stack(records)


forward = _documented(forward, velocity="velocity tensor (nx, ny, nz) in m/s (float32 or float64, CPU or CUDA)",
                      options="the keyword arguments of revwave.gradient (units as there; a record's src in m, tn in s, ...)")
