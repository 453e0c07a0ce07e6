"""FWI of a 2D line: a model of shape (nx, 1, nz) is a 2D problem in x and z (sources and receivers
at y = 0; docs/physics/planar.md), so a teaching-size inversion runs in a minute or two on a laptop.
scipy's L-BFGS-B on revwave.Objective (J divided by its first value, velocities in km/s), with the
free surface on top, as on land or at sea.

    .venv/bin/python examples/fwi_2d.py
"""
import time

import numpy as np
import scipy.optimize

import revwave

# A 2 km x 0.8 km line at h = 10 m: velocity rising with depth, a dipping fast layer and a slow lens.
nx, nz, h = 201, 81, 10.0
x, z = np.meshgrid(np.arange(nx), np.arange(nz), indexing="ij")
background = 1800.0 + 15.0 * z
layer = (np.abs(z - (45 + 0.1 * (x - nx / 2))) < 4) * 400.0
lens = -300.0 * np.exp(-((x - 120) ** 2 + (z - 25) ** 2) / 60.0)
true = (background + layer + lens)[:, None, :]                     # (nx, 1, nz): the plane
start = background[:, None, :]

receivers = [(10.0 * i, 0.0, 10.0) for i in range(1, nx - 1, 2)]  # every 20 m, 10 m deep
shots = [revwave.forward(true, spacing=h, tn=1.2, f0=10.0, src=[(sx, 0.0, 10.0)], rec=receivers,
                         free_surface=True, precision="double")
         for sx in np.linspace(100.0, 1900.0, 8)]

f = revwave.Objective(true.shape, observed=shots, spacing=h, free_surface=True, precision="double",
                      strategy="revolve", snaps=40)
t0 = time.time()
result = scipy.optimize.minimize(f, f.x(start), jac=True, method="L-BFGS-B", bounds=f.bounds(1500.0, 3500.0),
                                 options=dict(maxiter=25))
model = f.model(result.x)
print(f"{result.message} after {result.nit} iterations, {f.evaluations} gradients, {time.time() - t0:.0f} s")
print(f"J / J0 = {result.fun:.3e} (J0 = {f.j0:.3e})")
print(f"model error |c - c_true|: {np.linalg.norm(start - true):.0f} m/s at the start, "
      f"{np.linalg.norm(model - true):.0f} m/s at the end")
print(f"the lens' centre: true {true[120, 0, 25]:.0f} m/s, found {model[120, 0, 25]:.0f} m/s "
      f"(start {start[120, 0, 25]:.0f})")
try:
    import matplotlib.pyplot as plt  # optional
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for ax, (name, c) in zip(axes, [("true", true), ("start", start), ("inverted", model)]):
        ax.imshow(c[:, 0, :].T, extent=(0, (nx - 1) * h, (nz - 1) * h, 0), vmin=1500, vmax=3000, cmap="viridis")
        ax.set_title(name)
    fig.savefig("fwi_2d.png", dpi=100)
    print("picture: fwi_2d.png")
except ImportError:
    pass
