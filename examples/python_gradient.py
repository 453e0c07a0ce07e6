"""revwave from Python: make a model, model a shot, compute the FWI gradient, plot a slice.

    bash .ci/setup && .venv/bin/pip install --no-build-isolation . && .venv/bin/python examples/python_gradient.py

Writes gradient_xz.png when matplotlib is installed (.venv/bin/pip install matplotlib).
"""
import numpy as np

import revwave

# A 60 x 60 x 40 model (z is depth, fastest): 2000 m/s rising with depth, a faster sphere.
nx, ny, nz, h = 60, 60, 40, 10.0
x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
true = 2000.0 + 10.0 * z + 400.0 * ((x - 30) ** 2 + (y - 30) ** 2 + (z - 22) ** 2 < 8 ** 2)
start = 2000.0 + 10.0 * z  # the background alone

# Observed data: one shot at the top centre, a 16 x 16 receiver grid at 20 m depth (the defaults).
observed = revwave.forward(true, spacing=h, tn=0.5)
print(f"shot record: {observed.data.shape[0]} samples x {observed.data.shape[1]} receivers, dt = {observed.dt * 1e3:.3f} ms")

# The gradient in the starting model, with Revolve checkpointing in 10 slots.
g = revwave.gradient(start, observed=observed, spacing=h, strategy="revolve", snaps=10)
print(f"objective {g.objective:.6e}, |dJ/dm| {g.stats['gradient_norm']:.6e}, "
      f"{g.stats['forward_steps']} forward steps for {g.stats['steps']} time steps "
      f"({g.stats['recompute_ratio']:.2f} x), {g.stats['seconds']['forward'] + g.stats['seconds']['reverse']:.2f} s")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no picture")
else:
    section = g.gradient[:, ny // 2, :].T  # x-z section through the sphere, depth down
    clip = np.abs(section).max()
    plt.imshow(section, cmap="seismic", vmin=-clip, vmax=clip, extent=(0, (nx - 1) * h, (nz - 1) * h, 0))
    plt.xlabel("x (m)")
    plt.ylabel("depth (m)")
    plt.title("dJ/dm, x-z section")
    plt.colorbar()
    plt.savefig("gradient_xz.png", dpi=120)
    print("wrote gradient_xz.png")
