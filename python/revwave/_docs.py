"""Every public function's ``help()`` ends with its parameters and their units (internal).

``_documented`` appends a "Parameters" section built from the function's own signature and the
glossary below, so that a parameter added without an entry fails at import (and the docstring test
in tests/python/test_docs.py), and the same option reads the same in every function.
"""
from __future__ import annotations

import inspect
from typing import Callable, Dict, TypeVar

F = TypeVar("F", bound=Callable)

_UNITS: Dict[str, str] = {
    "model": "starting (or only) velocity model, (nx, ny, nz) array in m/s, z (depth) fastest",
    "velocity": "a constant velocity in m/s used everywhere instead of a model",
    "shape": "grid points (nx, ny, nz), a sequence or 'NX,NY,NZ' (count, no unit)",
    "spacing": "grid spacing h in m (the same on every axis)",
    "nbl": "absorbing boundary width in grid points per side",
    "free_surface": "True: the plane z = 0 is pressure-free (no absorbing layer on top; sources at z > 0)",
    "boundary": "the absorbing layer: 'cpml' (convolutional PML, the default) or 'sponge' (damping)",
    "space_order": "spatial order of the stencil (even, 2..16; no unit)",
    "tn": "recording time in s",
    "dt": "time step in s (default: 0.9 x the stability bound)",
    "f0": "peak frequency of the Ricker wavelet in Hz",
    "src": "source positions, (n, 3) in m from the first interior grid point",
    "rec": "receiver positions, (n, 3) in m from the first interior grid point",
    "rec_grid": "(NX, NY, Z): NX x NY receivers at cell centres at depth Z in m",
    "src_grid": "(NX, NY, Z): NX x NY sources (one shot each) at cell centres at depth Z in m",
    "spread": "'fixed' (every shot hears every receiver) or 'moving' (the spread moves with the source)",
    "origin": "file coordinates (x, y, z) in m of the model's first interior point (SEG-Y)",
    "precision": "'float' (float32) or 'double' (float64)",
    "backend": "'auto', 'cpu' or 'cuda'",
    "threads": "OpenMP threads for this call (count; default: all cores)",
    "device_memory": "CUDA: device memory for checkpoint slots in bytes, or a size such as '8GiB'",
    "host_memory": "CUDA: pinned host memory for spilled slots in bytes, or a size such as '64GiB'",
    "host_spacing": "CUDA, revolve: fewest forward steps (count) between slots spilled to pinned host memory",
    "shots_at_once": "CUDA, surveys: shots run at once on the device (count, 1 to 8; default 1), each with 1/N of the device budget",
    "wavelet": "a sampled source signature (nt samples, source units), or a .npy path, instead of the Ricker wavelet",
    "observed": "observed data: a ShotRecord (data (nt, nrec), dt in s, positions in m), a record path, or a survey",
    "true_model": "velocity model (nx, ny, nz) in m/s the observed data are modelled in",
    "strategy": "checkpointing: 'full', 'revolve', 'multilevel' or 'online'",
    "snaps": "checkpoint slots (count)",
    "checkpoint_memory": "memory for checkpoint slots in bytes, or a size such as '512M' (derives snaps)",
    "store": "where revolve/online slots live: 'memory' or 'disk'",
    "checkpoint_dir": "directory for disk slots (a path)",
    "tier": "multilevel tiers 'NAME:SLOTS[:STORE_COST:RESTORE_COST]' (NAME memory, pinned or disk; costs in forward steps)",
    "stop_energy": "online: stop once the wavefield energy falls below this fraction of its peak (0..1, no unit)",
    "aperture": "each shot's window in m (finite, >= 0) around its sources and receivers (None: the whole model)",
    "compress": "checkpoint compression: 'none', 'fp16', 'bf16', 'zfp-rate:R' (bits per value) or 'zfp-accuracy:E' (absolute)",
    "misfit": "'l2', 'correlation', 'envelope' or a callable fn(synthetic, observed) -> (J, adjoint source)",
    "wrt": "'m' (dJ/dm, m = 1/c^2 in s^2/m^2) or 'velocity' (dJ/dc, c in m/s)",
    "estimate_wavelet": "fit the source signature to the observed data first (bool)",
    "density": "density in kg/m^3, (nx, ny, nz) array or .npy path: the variable-density equation (None: constant)",
    "epsilon": "Thomsen's epsilon (no unit): a number, an (nx, ny, nz) array or .npy path: a VTI medium (None: isotropic)",
    "delta": "Thomsen's delta (no unit), at most epsilon: a number, an array or .npy path (None: 0 with epsilon)",
    "q": "quality factor Q, at least 5 (inf: none there): a number, an (nx, ny, nz) array or .npy path: a "
         "visco-acoustic medium, 3 standard linear solids (None: no attenuation; boundary='sponge', backend 'cpu')",
    "q_frequency": "Hz at which the model's velocity is the attenuating medium's phase velocity (None: f0)",
    "density_gradient": "return dJ/drho (misfit per kg/m^3) as density_gradient (bool; default: with a density)",
    "normalize": "a positive number J (and the gradient) is divided by (in the misfit's units)",
    "out": "output path: FILE.sgy / FILE.segy, FILE.npy or a new directory; None writes nothing",
    "steps": "time steps N to reverse (count)",
    "actions": "also list the action stream (bool)",
    "slot_bytes": "multilevel: bytes per checkpoint, for the bytes moved",
    "seed": "random seed of the test vectors (integer)",
    "tolerance": "adjtest: the relative error that fails (no unit); invert: a band ends below this fractional decrease of J",
    "halvings": "how often h is halved (count)",
    "scale": "largest |h0 dm| as a fraction of max m (no unit)",
    "vmin": "lowest velocity the inversion may reach, m/s",
    "vmax": "highest velocity the inversion may reach, m/s",
    "bands": "low-pass cut-offs in Hz, increasing, or None",
    "iterations": "L-BFGS iterations per band (count)",
    "lbfgs_memory": "L-BFGS pairs kept (count)",
    "first_step": "the largest velocity change of a band's first trial, m/s",
    "mask": "update weights in [0, 1] per grid point (no unit), array or .npy path",
    "mask_depth": "no update above this depth, m",
    "precondition": "'illumination' or 'none'",
    "smooth": "Gaussian smoothing length of the update, m",
    "out_dir": "run directory (a path); None writes nothing",
    "resume": "run directory of an inversion to continue (a path)",
    "progress": "None, True (a tqdm bar) or a callable fn(done, total, phase): done of total steps (counts)",
    "shots": "one source position (x, y, z) in m per shot",
    "options": "the keyword arguments of revwave.gradient (units as there)",
}


def _documented(fn: F, **overrides: str) -> F:
    """Appends "Parameters" (every parameter of fn's signature, with its units) to fn's docstring."""
    lines = []
    for name in inspect.signature(fn).parameters:
        text = overrides.get(name, _UNITS.get(name))
        if text is None:
            raise AssertionError(f"{fn.__module__}.{fn.__qualname__}: parameter {name} has no entry in revwave._docs")
        lines.append(f"- {name}: {text}")
    fn.__doc__ = inspect.cleandoc(fn.__doc__ or "") + "\n\nParameters (units):\n\n" + "\n".join(lines) + "\n"
    return fn
