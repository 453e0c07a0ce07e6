"""FWI with an off-the-shelf optimiser: scipy's L-BFGS-B on revwave's gradient, through
revwave.Objective (J divided by its first value, the velocity in km/s), so that scipy's default
tolerances apply. Without the scaling scipy stops at iteration 0: J is ~1e-5 and |dJ/dc| ~1e-9.

    .venv/bin/python examples/scipy_lbfgsb.py          (about 12 minutes on two busy cores)
"""
import time

import numpy as np
import scipy.optimize

import revwave

# A 24 x 24 x 16 model: 2000 m/s rising with depth and a slow lens; four shots at the surface.
nx, ny, nz, h = 24, 24, 16, 10.0
x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
background = 2000.0 + 12.0 * z
true = background - 250.0 * np.exp(-((x - 12) ** 2 + (y - 12) ** 2 + (z - 9) ** 2 / 0.5) / 12.0)
receivers = [(10.0 + 20 * i, 10.0 + 20 * j, 20.0) for i in range(12) for j in range(12)]
shots = [revwave.forward(true, spacing=h, tn=0.35, f0=15.0, dt=1.5e-3, src=[(sx, sy, 20.0)], rec=receivers, precision="double")
         for sx in (60.0, 170.0) for sy in (60.0, 170.0)]

f = revwave.Objective(true.shape, observed=shots, spacing=h, precision="double", strategy="revolve", snaps=20)
t0 = time.time()
result = scipy.optimize.minimize(f, f.x(background), jac=True, method="L-BFGS-B", bounds=f.bounds(1600.0, 2400.0),
                                 options=dict(maxiter=40))
model = f.model(result.x)
print(f"{result.message} after {result.nit} iterations, {f.evaluations} gradients, {time.time() - t0:.0f} s")
print(f"J / J0 = {result.fun:.3e} (J0 = {f.j0:.3e})")
print(f"model error |c - c_true|: {np.linalg.norm(background - true):.1f} m/s at the start, "
      f"{np.linalg.norm(model - true):.1f} m/s at the end")
print(f"the lens' centre: true {true[12, 12, 9]:.0f} m/s, found {model[12, 12, 9]:.0f} m/s (start {background[12, 12, 9]:.0f})")
