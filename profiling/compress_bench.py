#!/usr/bin/env python3
"""Compressed checkpoints under one memory budget: forward steps, wall time and gradient error per
--compress mode against `none` (whose gradient is full's, bit for bit), and a plot of the error
against the time saved.

The paper's headline shape is 230^3 interior points, ~1600 steps and 10 GiB of checkpoints, an
eighth of the 80 GB history. Scaled: N^3 (default 96), STEPS steps (default 800) and a budget of
BUDGET_FRACTION (default 1/8) of the history's bytes, so that `none` recomputes about as much as
the headline run does. Every mode runs under that same --checkpoint-memory: a smaller slot buys
more slots, fewer forward steps; the codec's own time is reported beside it.

Runs alternate between the modes (mode A, B, C, ..., A, B, C, ...) and the fastest of --repeat
runs of each counts: on a shared machine interference only adds time.

Usage: python3 profiling/compress_bench.py [OUTDIR] [--shape 96] [--steps 800] [--budget-fraction 0.125]
       [--modes none,fp16,bf16,zfp-rate:16,zfp-rate:8,zfp-rate:4] [--threads N] [--repeat K]
       (build first: bash .ci/build; REVWAVE_BIN overrides the binary)
Writes OUTDIR/compress_bench.{csv,json} and, when matplotlib is importable, compress_bench.png.
"""
import argparse
import array
import ast
import csv
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("REVWAVE_BIN", os.path.join(ROOT, "build", "revwave"))


def run(args):
    if os.environ.get("REVWAVE_BEFORE_RUN"):
        subprocess.run(os.environ["REVWAVE_BEFORE_RUN"], shell=True)
    t0 = time.time()
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit(f"revwave {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout), wall


def read_npy(path):
    """float32 / float64 little-endian C-order .npy, as a flat array (no numpy needed)."""
    with open(path, "rb") as f:
        magic = f.read(6)
        if magic != b"\x93NUMPY":
            sys.exit(f"{path}: not an .npy file")
        major = f.read(2)[0]
        hlen = int.from_bytes(f.read(2 if major == 1 else 4), "little")
        header = ast.literal_eval(f.read(hlen).decode("latin1"))
        code = {"<f4": "f", "<f8": "d"}[header["descr"]]
        a = array.array(code)
        a.frombytes(f.read())
    return a


def relative_l2(a, ref):
    e2 = sum((x - y) * (x - y) for x, y in zip(a, ref))
    r2 = sum(y * y for y in ref)
    return math.sqrt(e2 / r2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "out", "compress_bench"))
    ap.add_argument("--shape", type=int, default=96)
    ap.add_argument("--steps", type=int, default=800)
    ap.add_argument("--budget-fraction", type=float, default=0.125)
    ap.add_argument("--modes", default="none,fp16,bf16,zfp-rate:16,zfp-rate:8,zfp-rate:4")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    modes = a.modes.split(",")
    if modes[0] != "none":
        modes = ["none"] + [m for m in modes if m != "none"]
    os.makedirs(a.outdir, exist_ok=True)
    n = a.shape
    dt = 0.001  # stable for the built-in model's velocities at h = 10 m, space order 8
    common = ["--shape", f"{n},{n},{n}", "--spacing", "10", "--nbl", "10", "--space-order", "8",
              "--precision", "float", "--threads", str(a.threads)]
    obs = os.path.join(a.outdir, "observed.npy")
    fwd, _ = run(["forward"] + common + ["--dt", str(dt), "--tn", str(a.steps * dt), "--out", obs, "--json"])
    steps = fwd["steps"]
    grad = ["gradient"] + common + ["--velocity", "2000", "--observed", obs, "--json", "--strategy", "revolve"]

    # The budget: a fraction of the history (steps + 1 fields), in whole bytes.
    probe, _ = run(["gradient"] + common + ["--dt", str(dt), "--tn", str(4 * dt), "--json", "--snaps", "1",
                                            "--out", os.path.join(a.outdir, "probe.npy")])  # 4 steps: the slot size
    field_bytes = probe["slot_bytes"] // 2
    budget = int(a.budget_fraction * (steps + 1) * field_bytes)

    best = {}
    for _ in range(a.repeat):
        for m in modes:
            out = os.path.join(a.outdir, f"g_{m.replace(':', '_')}.npy")
            j, wall = run(grad + ["--checkpoint-memory", str(budget), "--compress", m, "--out", out])
            secs = j["seconds"]["forward"] + j["seconds"]["reverse"]
            if m not in best or secs < best[m]["seconds"]:
                best[m] = {"json": j, "seconds": secs, "wall": wall, "file": out}
    ref = read_npy(best["none"]["file"])
    rows = []
    base = best["none"]["seconds"]
    for m in modes:
        j = best[m]["json"]
        g = read_npy(best[m]["file"])
        c = j["compression"]
        rows.append({"mode": m, "snaps": j["snaps"], "slot_bytes": j["slot_bytes"], "forward_steps": j["forward_steps"],
                     "recompute_ratio": j["recompute_ratio"], "seconds": best[m]["seconds"],
                     "time_saved": 1 - best[m]["seconds"] / base, "seconds_compress": c["seconds_compress"],
                     "seconds_decompress": c["seconds_decompress"], "ratio": c["ratio"],
                     "gradient_error": relative_l2(g, ref) if m != "none" else 0.0,
                     "objective_error": abs(j["objective"] / best["none"]["json"]["objective"] - 1),
                     "peak_rss_bytes": j["peak_rss_bytes"]})
    for m in modes:
        os.remove(best[m]["file"])
    os.remove(os.path.join(a.outdir, "probe.npy"))
    summary = {"shape": n, "steps": steps, "threads": a.threads, "budget_bytes": budget,
               "history_bytes": (steps + 1) * field_bytes, "field_bytes": field_bytes, "repeat": a.repeat, "rows": rows}
    with open(os.path.join(a.outdir, "compress_bench.json"), "w") as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(a.outdir, "compress_bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"{n}^3, {steps} steps, {a.threads} threads, --checkpoint-memory {budget / 2**20:.0f} MiB "
          f"({a.budget_fraction:g} of the {summary['history_bytes'] / 2**30:.2f} GiB history)")
    print(f"{'mode':>14} {'slots':>6} {'fwd steps':>9} {'x N':>5} {'time s':>8} {'saved':>6} {'enc s':>6} {'dec s':>6} "
          f"{'ratio':>6} {'grad err':>9} {'J err':>9}")
    for r in rows:
        print(f"{r['mode']:>14} {r['snaps']:>6} {r['forward_steps']:>9} {r['recompute_ratio']:>5.2f} {r['seconds']:>8.2f} "
              f"{r['time_saved']:>6.1%} {r['seconds_compress']:>6.2f} {r['seconds_decompress']:>6.2f} {r['ratio']:>6.2f} "
              f"{r['gradient_error']:>9.2e} {r['objective_error']:>9.2e}")
    plot(summary, os.path.join(a.outdir, "compress_bench.png"))


def plot(summary, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot (python3 -m pip install matplotlib)")
        return
    rows = [r for r in summary["rows"] if r["mode"] != "none"]
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for r in rows:
        ax.plot(100 * r["time_saved"], r["gradient_error"], "o")
        ax.annotate(f"{r['mode']} ({r['snaps']} slots)", (100 * r["time_saved"], r["gradient_error"]),
                    textcoords="offset points", xytext=(5, 4), fontsize=8)
    ax.set_yscale("log")
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel("wall time saved against --compress none (%)")
    ax.set_ylabel("relative L2 error of the gradient")
    none = summary["rows"][0]
    ax.set_title(f"{summary['shape']}^3, {summary['steps']} steps, {summary['budget_bytes'] / 2**20:.0f} MiB budget; "
                 f"none: {none['snaps']} slots, {none['seconds']:.0f} s", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
