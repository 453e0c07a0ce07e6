#!/usr/bin/env python3
"""The paper's experiment on this machine: gradient wall time and peak memory for a sweep of
checkpoint slots S, next to the stored history (`full`) and next to what the schedule predicts.

Predictions (all measured in the same run of this script):
  time(S)   = advances(S) x t_forward + N x t_reverse
              advances: the forward steps that are not reverse steps (forward_steps - N);
              t_forward: seconds per forward step of a forward-only run;
              t_reverse: the `full` gradient's reverse seconds / N (the fused reverse step, which
              recomputes u[n+1] like every strategy's);
              checkpoints are handles, not copies: checkpoint_copy_bytes must be 0, and the
              seconds spent in stores and restores are reported beside the ratio;
              the seconds of the time loop (forward + reverse) are compared; allocating the pool's
              fields happens before it (seconds.allocate, reported beside it, as full's history);
  memory(S) = working set + slots(S) x slot size
              working set: the S = 1 run's peak RSS less its one slot.
Then the paper's headline problem (230^3 interior points, 1615 steps) under --checkpoint-memory
10GiB, and `--strategy full` for it, which must be refused up front.

Usage: python3 profiling/checkpoint_bench.py [OUTDIR] [--shape 128] [--steps 400] [--snaps 1,2,5,10,20,50]
       [--skip-headline] [--threads N] [--repeat K: each measurement K times, the fastest counts]          (build first: bash .ci/build; REVWAVE_BIN overrides the binary,
       REVWAVE_BEFORE_RUN='cmd' runs cmd before every revwave run)
Writes OUTDIR/checkpoint_bench.{csv,json} and, when matplotlib is importable, checkpoint_bench.png.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("REVWAVE_BIN", os.path.join(ROOT, "build", "revwave"))


def run(args, allow_fail=False):
    if os.environ.get("REVWAVE_BEFORE_RUN"):  # on a shared machine: e.g. wait until it is quiet
        subprocess.run(os.environ["REVWAVE_BEFORE_RUN"], shell=True)
    t0 = time.time()
    p = subprocess.run([BIN] + args, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0 and not allow_fail:
        sys.exit(f"revwave {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    out = json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None
    return out, p.returncode, p.stderr.strip(), wall


def fastest(args, repeat, seconds):
    """The run with the least seconds(json) of `repeat`: on a shared machine interference only adds time."""
    best = None
    for _ in range(repeat):
        out = run(args)
        if best is None or seconds(out[0]) < seconds(best[0]):
            best = out
    return best


def gradient_seconds(j):
    return j["seconds"]["forward"] + j["seconds"]["reverse"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "out", "checkpoint_bench"))
    ap.add_argument("--shape", type=int, default=128)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--snaps", default="1,2,5,10,20,50")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--skip-headline", action="store_true")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each measurement; the fastest counts")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    n = a.shape
    dt = 0.001  # stable for 2000 m/s at h = 10 m, space order 8
    common = ["--shape", f"{n},{n},{n}", "--spacing", "10", "--nbl", "10", "--space-order", "8",
              "--precision", "float", "--threads", str(a.threads)]
    obs = os.path.join(a.outdir, "observed.npy")
    # Observed data once, in the built-in true model; the gradients start from 2000 m/s.
    fwd, _, _, _ = fastest(["forward"] + common + ["--dt", str(dt), "--tn", str(a.steps * dt), "--out", obs, "--json"],
                           a.repeat, lambda j: j["seconds"])
    steps = fwd["steps"]
    t_forward = fwd["seconds"] / steps
    grad_common = ["gradient"] + common + ["--velocity", "2000", "--observed", obs, "--json"]

    rows = []
    full, _, _, wall = fastest(grad_common + ["--strategy", "full", "--out", os.path.join(a.outdir, "g_full.npy")],
                               a.repeat, lambda j: j["seconds"]["reverse"])
    t_reverse = full["seconds"]["reverse"] / steps
    rows.append({"strategy": "full", "snaps": "", "slots": "", "forward_steps": full["forward_steps"],
                 "seconds": full["seconds"]["forward"] + full["seconds"]["reverse"],
                 "predicted_seconds": "", "peak_rss_bytes": full["peak_rss_bytes"],
                 "storage_bytes": full["wavefield_storage_bytes"], "predicted_rss_bytes": ""})
    slot_bytes = None
    working_set = None
    for s in [int(x) for x in a.snaps.split(",")]:
        g, _, _, _ = fastest(grad_common + ["--strategy", "revolve", "--snaps", str(s),
                                            "--out", os.path.join(a.outdir, f"g_{s}.npy")], a.repeat, gradient_seconds)
        slot_bytes = g["slot_bytes"]
        slots = g["checkpoint_bytes"] // slot_bytes
        if working_set is None:
            working_set = g["peak_rss_bytes"] - slots * slot_bytes
        same = open(os.path.join(a.outdir, f"g_{s}.npy"), "rb").read() == open(os.path.join(a.outdir, "g_full.npy"), "rb").read()
        os.remove(os.path.join(a.outdir, f"g_{s}.npy"))
        rows.append({"strategy": "revolve", "snaps": s, "slots": slots, "forward_steps": g["forward_steps"],
                     "seconds": g["seconds"]["forward"] + g["seconds"]["reverse"],
                     "predicted_seconds": (g["forward_steps"] - steps) * t_forward + steps * t_reverse,
                     "copy_seconds": g["seconds"]["checkpoint_copies"], "allocate_seconds": g["seconds"]["allocate"], "stores": g["stores"], "restores": g["restores"],
                     "checkpoint_copy_bytes": g["checkpoint_copy_bytes"],
                     "peak_rss_bytes": g["peak_rss_bytes"], "storage_bytes": g["checkpoint_bytes"],
                     "predicted_rss_bytes": working_set + slots * slot_bytes, "bitwise_equal_to_full": same})
    os.remove(os.path.join(a.outdir, "g_full.npy"))
    for r in rows:
        if r["predicted_seconds"] != "":
            r["time_ratio"] = r["seconds"] / r["predicted_seconds"]
            r["memory_ratio"] = r["peak_rss_bytes"] / r["predicted_rss_bytes"]

    summary = {"shape": n, "steps": steps, "threads": a.threads, "t_forward_step": t_forward,
               "t_reverse_step": t_reverse, "reverse_over_forward": t_reverse / t_forward,
               "bytes_reverse_over_forward": 32 / 16, "slot_bytes": slot_bytes, "working_set_bytes": working_set,
               "rows": rows}
    if not a.skip_headline:
        summary["headline"] = headline(a)
    with open(os.path.join(a.outdir, "checkpoint_bench.json"), "w") as f:
        json.dump(summary, f, indent=2)
    keys = ["strategy", "snaps", "slots", "forward_steps", "stores", "restores", "seconds", "predicted_seconds",
            "time_ratio", "copy_seconds", "allocate_seconds", "checkpoint_copy_bytes",
            "peak_rss_bytes", "predicted_rss_bytes", "memory_ratio", "storage_bytes", "bitwise_equal_to_full"]
    with open(os.path.join(a.outdir, "checkpoint_bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    print(f"{n}^3, {steps} steps, {a.threads} threads: t_forward {t_forward*1e3:.2f} ms/step, "
          f"t_reverse {t_reverse*1e3:.2f} ms/step (x{t_reverse / t_forward:.2f}; bytes x2.00), "
          f"slot {slot_bytes/2**20:.1f} MiB")
    print(f"{'S':>6} {'fwd steps':>9} {'time s':>8} {'pred s':>8} {'ratio':>6} {'st+re s':>8} {'alloc s':>8} {'copied B':>9} "
          f"{'peak MiB':>9} {'pred MiB':>9} {'ratio':>6} bitwise")
    for r in rows:
        if r["strategy"] == "full":
            print(f"{'full':>6} {r['forward_steps']:>9} {r['seconds']:>8.2f} {'':>8} {'':>6} {'':>8} {'':>8} {'':>9} "
                  f"{r['peak_rss_bytes']/2**20:>9.0f} {'':>9} {'':>6}")
        else:
            print(f"{r['snaps']:>6} {r['forward_steps']:>9} {r['seconds']:>8.2f} {r['predicted_seconds']:>8.2f} "
                  f"{r['time_ratio']:>6.3f} {r['copy_seconds']:>8.3f} {r['allocate_seconds']:>8.3f} {r['checkpoint_copy_bytes']:>9} "
                  f"{r['peak_rss_bytes']/2**20:>9.0f} {r['predicted_rss_bytes']/2**20:>9.0f} "
                  f"{r['memory_ratio']:>6.3f} {r['bitwise_equal_to_full']}")
    if "headline" in summary:
        print("headline:", json.dumps(summary["headline"]))
    plot(summary, os.path.join(a.outdir, "checkpoint_bench.png"))


def headline(a):
    """230^3 interior points, 1615 steps: revolve under 10 GiB; full refused up front."""
    n, steps, dt = 230, 1615, 0.0012
    args = ["gradient", "--shape", f"{n},{n},{n}", "--spacing", "10", "--nbl", "10", "--space-order", "8",
            "--precision", "float", "--threads", str(a.threads), "--dt", str(dt), "--tn", repr(steps * dt)]
    g, _, _, wall = run(args + ["--strategy", "revolve", "--checkpoint-memory", "10GiB", "--json",
                                "--out", os.path.join(a.outdir, "g_230.npy")])
    os.remove(os.path.join(a.outdir, "g_230.npy"))
    _, code, err, full_wall = run(args + ["--strategy", "full", "--json", "--out",
                                          os.path.join(a.outdir, "g_230_full.npy")], allow_fail=True)
    return {"steps": g["steps"], "snaps": g["snaps"], "forward_steps": g["forward_steps"], "seconds": g["seconds"],
            "predicted_forward_steps": g["predicted_forward_steps"], "seconds_total": g["seconds"]["total"],
            "wall_seconds": wall, "peak_rss_bytes": g["peak_rss_bytes"], "checkpoint_bytes": g["checkpoint_bytes"],
            "full_exit_code": code, "full_message": err, "full_refused_after_seconds": full_wall,
            "full_output_exists": os.path.exists(os.path.join(a.outdir, "g_230_full.npy"))}


def plot(summary, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plot (python3 -m pip install matplotlib)")
        return
    rows = [r for r in summary["rows"] if r["strategy"] == "revolve"]
    full = [r for r in summary["rows"] if r["strategy"] == "full"][0]
    s = [r["snaps"] for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax1.plot(s, [r["seconds"] for r in rows], "o-", label="revolve, measured")
    ax1.plot(s, [r["predicted_seconds"] for r in rows], "x--", label="advances x t_forward + N x t_reverse")
    ax1.axhline(full["seconds"], color="k", lw=1, label="full storage")
    ax1.set_xscale("log")
    ax1.set_xlabel("checkpoint slots S")
    ax1.set_ylabel("gradient wall time (s)")
    ax1.legend()
    ax2.plot(s, [r["peak_rss_bytes"] / 2**30 for r in rows], "o-", label="revolve, peak RSS")
    ax2.plot(s, [r["predicted_rss_bytes"] / 2**30 for r in rows], "x--", label="working set + S x slot")
    ax2.axhline(full["peak_rss_bytes"] / 2**30, color="k", lw=1, label="full storage, peak RSS")
    ax2.set_xscale("log")
    ax2.set_xlabel("checkpoint slots S")
    ax2.set_ylabel("peak memory (GiB)")
    ax2.legend()
    fig.suptitle(f"revwave gradient, {summary['shape']}^3, {summary['steps']} steps, space order 8, float32, "
                 f"{summary['threads']} CPU threads")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
