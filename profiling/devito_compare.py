#!/usr/bin/env python3
"""revwave against the seed paper's system, side by side: the checkpointed FWI gradient of the
same problem with Devito + pyrevolve (the Revolver with DevitoCheckpoint / CheckpointOperator,
as in Devito's acoustic example) and with revwave --strategy revolve.

Problem: 128^3 interior points, 10 m spacing, an absorbing layer of 10 points, space order 8,
float32, one source, 16 x 16 receivers, about 400 time steps at Devito's critical dt (revwave
gets the same dt), 10 checkpoints, 2 OpenMP threads. Timed: the gradient's forward and reverse
sweeps only (Devito: Revolver.apply_forward + apply_reverse after both operators are compiled;
revwave: the JSON's seconds.forward + seconds.reverse, observed data read from a file made
beforehand). Runs alternate (revwave, Devito, revwave, ...) ROUNDS times; the ratio of the
medians (and of the minima) is reported.

Usage (Devito, devito-examples and pyrevolve in a venv outside the repository):
  python3 -m venv /work/wt/venv-devito && /work/wt/venv-devito/bin/pip install devito devito-examples pyrevolve
  /work/wt/venv-devito/bin/python profiling/devito_compare.py [OUTDIR] [--rounds 3] [--steps 400] [--threads 2]
Measured with Devito 4.8.23, pyrevolve 2.2.8, devito-examples 1.0.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("REVWAVE_BIN", os.path.join(ROOT, "build", "revwave"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "out", "devito_compare"))
    ap.add_argument("--shape", type=int, default=128)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--snaps", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    os.environ["OMP_NUM_THREADS"] = str(a.threads)
    os.environ.setdefault("DEVITO_LANGUAGE", "openmp")
    os.environ.setdefault("DEVITO_LOGGING", "WARNING")

    import numpy as np
    from devito import CheckpointOperator, DevitoCheckpoint, Function, Revolver, TimeFunction
    from examples.seismic import AcquisitionGeometry, Model
    from examples.seismic.acoustic import AcousticWaveSolver

    n, h, nbl, so = a.shape, 10.0, 10, 8
    extent = (n - 1) * h
    src = np.array([[extent / 2, extent / 2, 20.0]])
    rec = np.array([[extent * (i + 0.5) / 16, extent * (j + 0.5) / 16, 20.0] for i in range(16) for j in range(16)])

    # Devito in its units (km/s, ms): a homogeneous 2 km/s model, a 10 Hz Ricker source; dt is
    # Devito's critical dt, which revwave also finds stable for its 2 km/s (observed data) and
    # 1.9 km/s (starting) models.
    model = Model(vp=np.full((n, n, n), 2.0, dtype=np.float32), origin=(0.0, 0.0, 0.0), spacing=(h, h, h),
                  shape=(n, n, n), space_order=so, nbl=nbl, bcs="damp", dtype=np.float32)
    dt_ms = float(model.critical_dt)
    tn_ms = a.steps * dt_ms
    geometry = AcquisitionGeometry(model, rec, src, 0.0, tn_ms, f0=0.010, src_type="Ricker")
    solver = AcousticWaveSolver(model, geometry, space_order=so)
    nt = geometry.nt
    steps = nt - 1

    # revwave: the same grid, dt, steps, source and receivers; observed data from a file.
    dt = dt_ms * 1e-3
    common = ["--shape", f"{n},{n},{n}", "--spacing", str(h), "--nbl", str(nbl), "--space-order", str(so),
              "--precision", "float", "--threads", str(a.threads)]
    geometry_args = ["--dt", repr(dt), "--tn", repr((steps - 0.25) * dt), "--f0", "10", "--src", ",".join(map(str, src[0]))]
    for r in rec:
        geometry_args += ["--rec", ",".join(map(str, r))]
    obs = os.path.join(a.outdir, "observed.npy")
    fwd = subprocess.run([BIN, "forward"] + common + geometry_args + ["--velocity", "2000", "--out", obs, "--json"], capture_output=True,
                         text=True)
    if fwd.returncode != 0:
        sys.exit("revwave forward failed: " + fwd.stderr.strip())

    def run_revwave():
        p = subprocess.run([BIN, "gradient"] + common + ["--velocity", "1900", "--observed", obs, "--strategy", "revolve",
                                                         "--snaps", str(a.snaps), "--out",
                                                         os.path.join(a.outdir, "g.npy"), "--json"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("revwave gradient failed: " + p.stderr.strip())
        j = json.loads(p.stdout)
        if j["steps"] != steps:
            sys.exit(f"revwave ran {j['steps']} steps, Devito {steps}")
        return j["seconds"]["forward"] + j["seconds"]["reverse"], j

    # Devito: the checkpointed jacobian_adjoint of its acoustic example, with n_checkpoints given.
    residual = geometry.rec
    residual.data[:] = np.random.default_rng(1).standard_normal(residual.data.shape).astype(np.float32) * 1e-3
    u = TimeFunction(name="u", grid=model.grid, time_order=2, space_order=so)
    v = TimeFunction(name="v", grid=model.grid, time_order=2, space_order=so)
    grad = Function(name="grad", grid=model.grid)
    op_fwd, op_grad = solver.op_fwd(save=False), solver.op_grad(save=False)
    op_fwd.cfunction, op_grad.cfunction  # compile now, not inside the timing
    physical = model.physical_params()

    def run_devito():
        grad.data[:] = 0
        u.data[:] = 0
        v.data[:] = 0
        cp = DevitoCheckpoint([u])
        wrap_fw = CheckpointOperator(op_fwd, src=geometry.src, u=u, dt=dt_ms, **physical)
        wrap_rev = CheckpointOperator(op_grad, u=u, v=v, rec=residual, dt=dt_ms, grad=grad, **physical)
        wrp = Revolver(cp, wrap_fw, wrap_rev, a.snaps, residual.data.shape[0] - 2)
        t0 = time.perf_counter()
        wrp.apply_forward()
        wrp.apply_reverse()
        return time.perf_counter() - t0

    rounds = []
    for r in range(a.rounds):
        rw, j = run_revwave()
        dv = run_devito()
        rounds.append({"revwave_seconds": rw, "devito_seconds": dv, "ratio": dv / rw,
                       "revwave_forward_steps": j["forward_steps"], "checkpoint_copy_bytes": j["checkpoint_copy_bytes"]})
        print(f"round {r + 1}: revwave {rw:.2f} s ({j['forward_steps']} forward steps), Devito+pyrevolve {dv:.2f} s: "
              f"x{dv / rw:.2f}", flush=True)
    os.remove(os.path.join(a.outdir, "g.npy"))
    rw = [x["revwave_seconds"] for x in rounds]
    dv = [x["devito_seconds"] for x in rounds]
    summary = {"shape": n, "steps": steps, "dt": dt, "snaps": a.snaps, "threads": a.threads, "space_order": so,
               "rounds": rounds, "revwave_min": min(rw), "revwave_median": statistics.median(rw),
               "devito_min": min(dv), "devito_median": statistics.median(dv),
               "ratio_of_medians": statistics.median(dv) / statistics.median(rw), "ratio_of_minima": min(dv) / min(rw),
               "devito_version": __import__("devito").__version__, "pyrevolve_version": __import__("pyrevolve").__version__}
    with open(os.path.join(a.outdir, "devito_compare.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(f"{n}^3, {steps} steps, so {so}, float, {a.snaps} checkpoints, {a.threads} threads: revwave "
          f"{min(rw):.2f}/{statistics.median(rw):.2f} s, Devito+pyrevolve {min(dv):.2f}/{statistics.median(dv):.2f} s "
          f"(min/median): Devito/revwave x{summary['ratio_of_minima']:.2f} (minima), x{summary['ratio_of_medians']:.2f} (medians)")


if __name__ == "__main__":
    main()
