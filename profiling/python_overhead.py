"""The cost of the Python call over the C++ call: revwave.gradient() against `revwave gradient`
on the default problem (80^3, revolve, modelled data), alternating runs on the same machine.

    .venv/bin/python profiling/python_overhead.py [--rounds 5] [--binary build/revwave] [--threads N]

For each round: the CLI's in-process time (its --json "seconds.total": options to outputs, without
process start-up) and the wall time of the Python call (keyword arguments to numpy results). The
ratio of medians Python / CLI is the overhead (1.00 = none); the CLI also writes its .npy and config.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import revwave


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "build", "revwave"))
    ap.add_argument("--threads", type=int, default=None, help="OpenMP threads of both (default: all cores)")
    args = ap.parse_args()
    threads = [] if args.threads is None else ["--threads", str(args.threads)]
    cli, py, outside, loops_cli, loops_py = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            out = subprocess.run([args.binary, "gradient", "--json", "--out", os.path.join(tmp, "g.npy"), *threads],
                                 capture_output=True, text=True, check=True).stdout
            j = json.loads(out)
            cli.append(j["seconds"]["total"])
            loops_cli.append(j["seconds"]["observed"] + j["seconds"]["forward"] + j["seconds"]["reverse"])
            t0 = time.perf_counter()
            r = revwave.gradient(threads=args.threads)
            py.append(time.perf_counter() - t0)
            phases = r.stats["seconds"]
            loops_py.append(phases["observed"] + phases["forward"] + phases["reverse"])
            outside.append(py[-1] - loops_py[-1])
            print(f"round {i + 1}: CLI {cli[-1]:.3f} s, Python {py[-1]:.3f} s, of which outside the time loops "
                  f"{outside[-1]:.3f} s (objective {r.objective:.6e})", flush=True)
    c, p = statistics.median(cli), statistics.median(py)
    print(f"median: CLI {c:.3f} s, Python {p:.3f} s, ratio Python / CLI {p / c:.3f}; "
          f"Python outside the time loops {statistics.median(outside):.3f} s (set-up, checks, arrays), CLI "
          f"{statistics.median([a - b for a, b in zip(cli, loops_cli)]):.3f} s; time loops alone, ratio Python / CLI "
          f"{statistics.median(loops_py) / statistics.median(loops_cli):.3f}")


if __name__ == "__main__":
    main()
