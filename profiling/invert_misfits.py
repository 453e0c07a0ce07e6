#!/usr/bin/env python3
"""Misfits and an estimated wavelet in an inversion: invert_synthetic.py's model (a fast and a slow
Gaussian side by side in a velocity rising with depth), but the observed data are modelled with a
source that is not the Ricker the inversion assumes: a Ricker delayed by `--shift` s, turned in phase
by `--phase` degrees and scaled by `--scale` (a field source whose signature nobody measured). Then
`revwave invert` runs, from the background, with

  l2+true                the true signature given (the oracle, for reference)
  l2                     the Ricker assumed (wrong wavelet): the classic set-up
  correlation            the Ricker assumed, the correlation misfit (blind to the amplitude)
  l2 + estimated         --estimate-wavelet (fitted in the starting model)
  correlation + estimated

and the table gives each one's final model error (L2 against the true model inside the illuminated
box, as invert_synthetic.py measures it) and the estimated wavelet's error against the true one.
The records go into OUT/observed.sgy (SEG-Y: a .npy record's sidecar has no field for a sampled
source; the inversion assumes the Ricker of --f0), the true signature into OUT/true_wavelet.npy.

Usage: profiling/invert_misfits.py [--out DIR] [--shape 32,32,20] [--bands 10,16] [--iterations 4]
(build first: bash .ci/build; numpy needed)
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def rotated_ricker(f0, t1, phase_deg, scale, dt, nt):
    """scale (cos(p) R(t - t1) + sin(p) H[R](t - t1)), the quadrature part by an FFT on a long fine grid."""
    L, fine = 1 << 15, 8
    tf = (np.arange(L) - L // 2) * dt / fine + t1
    a = (np.pi * f0 * (tf - t1)) ** 2
    r = (1 - 2 * a) * np.exp(-a)
    spec = np.fft.fft(r)
    k = np.fft.fftfreq(L)
    quad = np.real(np.fft.ifft(spec * -1j * np.sign(k)))
    p = np.radians(phase_deg)
    w = scale * (np.cos(p) * r + np.sin(p) * quad)
    return np.interp(np.arange(nt) * dt, tf, w)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="out/invert_misfits")
    p.add_argument("--shape", default="32,32,20")
    p.add_argument("--spacing", type=float, default=10.0)
    p.add_argument("--anomaly", type=float, default=200.0)
    p.add_argument("--src-grid", default="2,2")
    p.add_argument("--bands", default="10,16")
    p.add_argument("--iterations", type=int, default=4)
    p.add_argument("--f0", type=float, default=15.0)
    p.add_argument("--tn", type=float, default=0.5)
    p.add_argument("--dt", type=float, default=1.5e-3)
    p.add_argument("--shift", type=float, default=0.02, help="s: the true source starts this much after the assumed one")
    p.add_argument("--phase", type=float, default=60.0, help="degrees")
    p.add_argument("--scale", type=float, default=0.5)
    p.add_argument("--margin", type=int, default=4)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--runs", default="l2+true,l2,correlation,l2+estimated,correlation+estimated")
    p.add_argument("--binary", default=os.environ.get("REVWAVE_BIN", "build/revwave"))
    a = p.parse_args()
    nx, ny, nz = (int(v) for v in a.shape.split(","))
    h = a.spacing
    os.makedirs(a.out, exist_ok=True)
    i, j, k = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    sigma = max(nx, nz) / 12.0
    start = 1800.0 + 1.2 * k * h
    truth = start.copy()
    for ci, amp in ((0.35 * (nx - 1), a.anomaly), (0.65 * (nx - 1), -a.anomaly)):
        truth += amp * np.exp(-((i - ci) ** 2 + (j - 0.5 * (ny - 1)) ** 2 + (k - 0.55 * (nz - 1)) ** 2) / (2 * sigma ** 2))
    np.save(os.path.join(a.out, "start.npy"), start)
    np.save(os.path.join(a.out, "true.npy"), truth)
    nt = int(np.ceil(a.tn / a.dt - 1e-9)) + 1
    t0 = 1.5 / a.f0
    w = rotated_ricker(a.f0, t0 + a.shift, a.phase, a.scale, a.dt, nt)
    np.save(os.path.join(a.out, "true_wavelet.npy"), w)
    sx, sy = (int(v) for v in a.src_grid.split(","))
    srcs = ["%g,%g,10" % (h * (nx - 1) * (0.25 + 0.5 * p_ / max(1, sx - 1)), h * (ny - 1) * (0.25 + 0.5 * q / max(1, sy - 1)))
            for p_ in range(sx) for q in range(sy)]
    common = ["--spacing", str(h), "--threads", str(a.threads)]
    observed = os.path.join(a.out, "observed.sgy")
    if not os.path.exists(observed):  # one survey in SEG-Y: a .npy record's sidecar has no field for a sampled source
        cmd = [a.binary, "forward", "--model", os.path.join(a.out, "true.npy"), "--tn", str(a.tn),
               "--rec-grid", "%d,%d,10" % (max(2, nx // 2), max(2, ny // 2)),
               "--dt", str(a.dt), "--wavelet", os.path.join(a.out, "true_wavelet.npy"), "--out", observed, *common]
        for src in srcs:
            cmd += ["--src", src]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    vmax = 1800.0 + 1.2 * (nz - 1) * h + a.anomaly + 300
    m = a.margin
    box = (slice(m, nx - m), slice(m, ny - m), slice(3, nz - m))
    rows = [("start", None, float(np.linalg.norm((start - truth)[box])), None, None)]
    for run in a.runs.split(","):
        misfit, estimated = run.split("+")[0], run.endswith("+estimated")
        inv = os.path.join(a.out, run.replace("+", "_"))
        cmd = [a.binary, "invert", "--model", os.path.join(a.out, "start.npy"), "--observed", observed, "--misfit", misfit,
               "--f0", str(a.f0), "--vmin", "1400", "--vmax", str(vmax), "--bands", a.bands, "--iterations", str(a.iterations),
               "--tolerance", "1e-6", "--out-dir", inv, "--json", *common] + (["--estimate-wavelet"] if estimated else [])
        if run.endswith("+true"):  # the oracle: the true signature given
            cmd += ["--wavelet", os.path.join(a.out, "true_wavelet.npy")]
        if os.path.exists(os.path.join(inv, "state.bin")):
            cmd[cmd.index("--out-dir")] = "--resume"
        print("$ " + " ".join(cmd), flush=True)
        t = time.time()
        out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        if out.returncode != 0:
            sys.exit(out.returncode)
        seconds = time.time() - t
        model = np.load(os.path.join(inv, "model.npy"))
        wavelet_error = None
        if estimated:
            we = np.load(os.path.join(inv, "wavelet.npy"))
            wavelet_error = float(np.linalg.norm(we - w) / np.linalg.norm(w))
        rows.append((run, json.loads(out.stdout)["iterations"], float(np.linalg.norm((model - truth)[box])), wavelet_error, seconds))
    ricker = (1 - 2 * (np.pi * a.f0 * (np.arange(nt) * a.dt - t0)) ** 2) * np.exp(-(np.pi * a.f0 * (np.arange(nt) * a.dt - t0)) ** 2)
    print("the assumed Ricker against the true source: %.3f relative L2" % (np.linalg.norm(ricker - w) / np.linalg.norm(w)))
    print("%-26s %11s %14s %16s %10s" % ("run", "iterations", "model error", "wavelet error", "seconds"))
    for name, its, err, werr, sec in rows:
        print("%-26s %11s %14.1f %16s %10s" % (name, "" if its is None else its, err, "" if werr is None else "%.3f" % werr,
                                              "" if sec is None else "%.0f" % sec))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"args": vars(a), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
