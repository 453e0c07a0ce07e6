#!/usr/bin/env python3
"""The shot engine's two CPU measurements (issue #23), with the standard library only.

1. Marginal cost per shot against the model's size: the same windowed shots in a small model and
   in models 100x and 256x larger (x-y), (time of 8 shots - time of 2 shots) / 6 for each,
   alternating runs, the fastest of each; the ratio to the small model's should be ~1.
   With --old-bin (a build of the per-shot path, e.g. main before the engine), the same runs of
   that binary alternate with the new one's in the same rounds: the ratio old/new per model, and
   the two gradients compared byte for byte. The machine's load average is printed with every
   round (a shared machine: read the figures against it).
2. Host time per shot outside the time loop for 128^3 windows, per phase (setup, upload,
   accumulate, idle), from the survey JSON's per-shot phases.

    python3 profiling/engine_overhead.py [--bin build/revwave] [--old-bin OLD] [--out DIR] [--rounds 3] [--part 1|2|both]
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time


def write_npy(path, rows, cols, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def write_record(path, dt, nt, source, receivers, rng):
    """A shot record (small random data) with its sidecar: only the geometry matters here."""
    write_npy(path, nt, len(receivers), [rng.uniform(-1e-6, 1e-6) for _ in range(nt * len(receivers))])
    meta = {"dt": dt, "nt": nt, "f0": 10.0, "t0": 0.15, "precision": "float32",
            "sources": [source], "receivers": receivers}
    with open(path[:-4] + ".json", "w") as f:
        json.dump(meta, f)


def load():
    return "load %.2f %.2f %.2f on %d cores" % (os.getloadavg() + (os.cpu_count(),))


def run(binary, args):
    t0 = time.perf_counter()
    out = subprocess.run([binary] + args + ["--json"], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, json.loads(out)


def marginal(binary, old, out, rounds, threads):
    rng = random.Random(1)
    dt, nt = 0.002, 151  # 0.3 s at 2000 m/s, h = 10 m: stable for space order 8
    shots = []
    for k in range(8):  # inside the small model's 630 m x 630 m, so that every model gives the same windows
        x, y = 160.0 + 100.0 * (k % 4), 200.0 + 220.0 * (k // 4)
        shots.append(([x, y, 100.0], [[x - 30.0, y, 50.0], [x + 30.0, y, 50.0], [x, y + 30.0, 50.0]]))
    dirs = {}
    for n in (2, 8):
        d = os.path.join(out, "records_%d" % n)
        os.makedirs(d, exist_ok=True)
        for k in range(n):
            write_record(os.path.join(d, "shot_%04d.npy" % k), dt, nt, shots[k][0], shots[k][1], rng)
        dirs[n] = d
    sizes = [(64, 64, 40), (640, 640, 40), (1024, 1024, 40)]
    bins = [("new", binary)] + ([("old", old)] if old else [])
    best, best_shots, phases = {}, {}, {}
    print("before: " + load(), flush=True)
    for r in range(rounds):
        for s in sizes:
            for n in (2, 8):
                for name, b in bins:
                    g = os.path.join(out, "g_%s_%s_%d.npy" % (name, "x".join(map(str, s)), n))
                    args = ["gradient", "--shape", "%d,%d,%d" % s, "--velocity", "1900", "--observed", dirs[n],
                            "--aperture", "60", "--snaps", "10", "--threads", str(threads), "--out", g]
                    wall, j = run(b, args)
                    key = (name, s, n)
                    best[key] = min(best.get(key, 1e300), wall)
                    phases[key] = j["seconds"]
                    if "shots" in j["seconds"]:  # the shots' own wall time, without the run's O(model) fixed cost
                        best_shots[key] = min(best_shots.get(key, 1e300), j["seconds"]["shots"])
                    print("  round %d, %s, %s, %d shots: %.3f s" % (r + 1, name, "x".join(map(str, s)), n, wall), flush=True)
        print("after round %d: %s" % (r + 1, load()), flush=True)
    for name, _ in bins:
        print("\n%s (%s): marginal cost per shot, (T8 - T2) / 6, fastest of %d alternating rounds, %d thread(s):"
              % (name, dict(bins)[name], rounds, threads))
        base = None
        for s in sizes:
            m = (best[(name, s, 8)] - best[(name, s, 2)]) / 6
            base = base if base is not None else m
            p = phases[(name, s, 8)]
            line = "  %-14s T2 %.3f s, T8 %.3f s, marginal %.4f s a shot, x%.3f of the small model's" % (
                "x".join(map(str, s)), best[(name, s, 2)], best[(name, s, 8)], m, m / base)
            if "time_loop" in p:  # the per-shot path's JSON has no phases
                line += "  (8 shots: time loops %.3f s, outside them %.4f s)" % (
                    p["time_loop"], p["setup"] + p["upload"] + p["accumulate"] + p["idle"])
            print(line)
        if all((name, s, n) in best_shots for s in sizes for n in (2, 8)):
            # The whole process's T2 includes the model built, checked and converted and the gradient written,
            # O(model) once per run: at 1024 x 1024 x 40 about 2 s that varies by tenths between runs, more than
            # six small shots cost. The same difference over the shots' own wall time (seconds.shots: every
            # shot's set-up, upload, time loop and accumulation, and waits between shots) leaves that out.
            print("  in the process, (S8 - S2) / 6 over seconds.shots, fastest of %d:" % rounds)
            base = None
            for s in sizes:
                m = (best_shots[(name, s, 8)] - best_shots[(name, s, 2)]) / 6
                base = base if base is not None else m
                print("  %-14s S2 %.3f s, S8 %.3f s, marginal %.4f s a shot, x%.3f of the small model's" % (
                    "x".join(map(str, s)), best_shots[(name, s, 2)], best_shots[(name, s, 8)], m, m / base))
    if old:
        print("\nold/new, marginal cost per shot and 8-shot wall time, same rounds:")
        for s in sizes:
            mo = (best[("old", s, 8)] - best[("old", s, 2)]) / 6
            mn = (best[("new", s, 8)] - best[("new", s, 2)]) / 6
            print("  %-14s marginal x%.2f, T8 x%.2f" % ("x".join(map(str, s)), mo / mn, best[("old", s, 8)] / best[("new", s, 8)]))
        same = all(open(os.path.join(out, "g_old_%s_%d.npy" % ("x".join(map(str, s)), n)), "rb").read() ==
                   open(os.path.join(out, "g_new_%s_%d.npy" % ("x".join(map(str, s)), n)), "rb").read()
                   for s in sizes for n in (2, 8))
        print("  gradients old against new: %s" % ("equal byte for byte" if same else "DIFFERENT"))


def window_phases(binary, out, threads, boundary):
    rng = random.Random(2)
    dt, nt = 0.002, 51
    d = os.path.join(out, "records_128")
    os.makedirs(d, exist_ok=True)
    count = 6
    for k in range(count):  # source and receivers on one vertical: aperture 635 m gives 128 x 128 x 128 points
        x, y = 1005.0 + 100.0 * k, 1005.0 + 50.0 * (k % 3)
        write_record(os.path.join(d, "shot_%04d.npy" % k), dt, nt, [x, y, 700.0], [[x, y, 20.0], [x, y, 40.0]], rng)
    args = ["gradient", "--shape", "300,300,128", "--velocity", "1900", "--observed", d, "--aperture", "635",
            "--threads", str(threads), "--out", os.path.join(out, "g128.npy")]
    if boundary:
        args += ["--boundary", boundary]
    print("\n" + load())
    wall, j = run(binary, args)
    print("128^3 windows (%s), boundary %s, %d shots, %d thread(s), %.2f s in all:" % (
        "x".join(map(str, j["per_shot"][0]["window_shape"])), j["boundary"], count, threads, wall))
    names = ["setup", "upload", "accumulate", "idle", "time_loop"]
    print("  shot  " + "  ".join("%11s" % n for n in names) + "  outside the loop")
    for s in j["per_shot"]:
        p = s["seconds_phases"]
        outside = p["setup"] + p["upload"] + p["accumulate"] + p["idle"]
        print("  %4d  " % s["shot"] + "  ".join("%9.2f ms" % (1e3 * p[n]) for n in names) + "  %8.2f ms" % (1e3 * outside))
    steady = j["per_shot"][1:]
    mean = {n: sum(s["seconds_phases"][n] for s in steady) / len(steady) for n in names}
    print("  mean over shots 1..%d (after the first, which allocates): " % (count - 1) +
          ", ".join("%s %.2f ms" % (n, 1e3 * mean[n]) for n in names[:4]) +
          "; outside the loop %.2f ms a shot" % (1e3 * sum(mean[n] for n in names[:4])))
    worst = max(sum(s["seconds_phases"][n] for n in names[:4]) for s in steady)
    print("  the slowest of shots 1..%d outside the loop: %.2f ms" % (count - 1, 1e3 * worst))
    print("  the tree's sums and the one read-back on the root: %.2f ms in all" % (1e3 * j["seconds"]["sum"]))
    if "reserve" in j["seconds"]:  # builds before 2026-12-04 reserve nothing
        print("  the sums' blocks reserved before the first shot: %.2f ms" % (1e3 * j["seconds"]["reserve"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/revwave")
    ap.add_argument("--old-bin", default=None, help="the per-shot path's binary, run in the same rounds")
    ap.add_argument("--out", default="/tmp/revwave_engine_overhead")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--window-threads", type=int, default=2)
    ap.add_argument("--part", choices=["1", "2", "both"], default="both")
    ap.add_argument("--boundary", default=None, help="part 2's --boundary (default: the CLI's, the C-PML)")
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    binary = os.path.abspath(a.bin)
    if a.part in ("1", "both"):
        old = None
        if a.old_bin:  # a copy: another build may replace the file while this runs
            old = os.path.join(a.out, "revwave_old")
            shutil.copy2(a.old_bin, old)
            print("old: %s (modified %s), new: %s" % (os.path.abspath(a.old_bin),
                  time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(os.path.getmtime(a.old_bin))), binary))
        marginal(binary, old, a.out, a.rounds, a.threads)
    if a.part in ("2", "both"):
        window_phases(binary, a.out, a.window_threads, a.boundary)


if __name__ == "__main__":
    sys.exit(main())
