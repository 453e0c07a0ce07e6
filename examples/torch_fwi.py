"""FWI inside PyTorch: revwave.torch.forward models the shot records as a differentiable function of
the velocity tensor (the backward runs revwave's adjoint with Revolve checkpointing), a custom loss
(a trace-normalised misfit plus a smoothness penalty) and torch.optim.Adam update the model.

    .venv/bin/python examples/torch_fwi.py             (needs torch: Debian's python3-torch)
"""
import time

import numpy as np
import torch

import revwave.torch as rwt

nx, ny, nz, h = 20, 20, 14, 10.0
x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
background = 2000.0 + 10.0 * z
true = background + 200.0 * np.exp(-((x - 10) ** 2 + (y - 10) ** 2 + (z - 8) ** 2) / 8.0)
options = dict(spacing=h, tn=0.3, f0=15.0, dt=1.5e-3, rec_grid=(10, 10, 20.0), strategy="revolve", snaps=10)
sources = [(50.0, 50.0, 20.0), (140.0, 140.0, 20.0)]

observed = rwt.forward(torch.tensor(true, dtype=torch.float32), shots=sources, **options).detach()
velocity = torch.tensor(background, dtype=torch.float32, requires_grad=True)
optimizer = torch.optim.Adam([velocity], lr=1.0)  # m/s per step (5 overshoots: Adam moves every point by about lr at first)


def loss_fn(traces):
    """Each trace scaled to unit energy before the L2 difference (amplitude-robust), plus a
    Laplacian smoothness penalty on the model."""
    def unit(t):
        return t / (t.norm(dim=1, keepdim=True) + 1e-30)
    misfit = 0.5 * (unit(traces) - unit(observed)).square().sum()
    lap = (velocity[2:, 1:-1, 1:-1] + velocity[:-2, 1:-1, 1:-1] + velocity[1:-1, 2:, 1:-1] + velocity[1:-1, :-2, 1:-1]
           + velocity[1:-1, 1:-1, 2:] + velocity[1:-1, 1:-1, :-2] - 6 * velocity[1:-1, 1:-1, 1:-1])
    return misfit + 1e-7 * lap.square().sum()


t0 = time.time()
for it in range(30):
    optimizer.zero_grad()
    loss = loss_fn(rwt.forward(velocity, shots=sources, **options))
    loss.backward()  # revwave's adjoint, per shot, with 10 Revolve slots
    optimizer.step()
    with torch.no_grad():
        velocity.clamp_(1800.0, 2400.0)
    error = np.linalg.norm(velocity.detach().numpy() - true)
    if it == 0 or (it + 1) % 5 == 0:
        print(f"iteration {it + 1:2d}: loss {loss.item():.4e}, model error {error:.1f} m/s")
print(f"{time.time() - t0:.0f} s; start error {np.linalg.norm(background - true):.1f} m/s")
