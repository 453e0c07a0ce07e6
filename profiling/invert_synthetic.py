#!/usr/bin/env python3
"""A larger version of the CI's inversion test: a 3D synthetic with two anomalies of opposite sign
(a fast and a slow Gaussian side by side) in a velocity that increases with depth, a grid of
surface sources, a surface receiver spread, inverted band after band by `revwave invert` from the
background as the starting model.

Reports, per band, the objective at its start and end and the model error (L2 against the true
model inside the illuminated box: away from the sides by `--margin` points and below the sources),
and leaves the pictures revwave writes (true_*, start_*, model_* .png: true - start, start - its
mean, final - start) in OUT. Standard library only: the .npy files are written and read by hand.

Usage: profiling/invert_synthetic.py [--out DIR] [--shape 40,40,24] [--bands 10,14,20] ...
(build first: bash .ci/build)
"""
import argparse
import json
import math
import os
import struct
import subprocess
import sys
import time
from array import array


def write_npy(path, shape, values):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }" % "".join("%d, " % n for n in shape)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        array("d", values).tofile(f)


def read_npy(path):
    with open(path, "rb") as f:
        magic = f.read(8)
        assert magic[:6] == b"\x93NUMPY", path
        n = struct.unpack("<H" if magic[6] == 1 else "<I", f.read(2 if magic[6] == 1 else 4))[0]
        header = f.read(n).decode("latin1")
        data = array("f" if "<f4" in header else "d")
        data.frombytes(f.read())
    return list(data)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="out/invert_synthetic")
    p.add_argument("--shape", default="40,40,24")
    p.add_argument("--spacing", type=float, default=10.0)
    p.add_argument("--anomaly", type=float, default=200.0, help="m/s, + for one, - for the other")
    p.add_argument("--src-grid", default="3,3", help="NX,NY sources at 10 m depth, spread over the inner half of the x-y extent")
    p.add_argument("--bands", default="10,14,20")
    p.add_argument("--iterations", type=int, default=6)
    p.add_argument("--f0", type=float, default=15.0)
    p.add_argument("--tn", type=float, default=0.6)
    p.add_argument("--margin", type=int, default=4)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--binary", default=os.environ.get("REVWAVE_BIN", "build/revwave"))
    p.add_argument("extra", nargs="*", help="more revwave invert options (after --)")
    a = p.parse_args()
    nx, ny, nz = (int(v) for v in a.shape.split(","))
    h = a.spacing
    os.makedirs(a.out, exist_ok=True)
    sigma = max(nx, nz) / 12.0
    centres = [(0.35 * (nx - 1), 0.5 * (ny - 1), 0.55 * (nz - 1), a.anomaly),
               (0.65 * (nx - 1), 0.5 * (ny - 1), 0.55 * (nz - 1), -a.anomaly)]
    start, truth = [], []
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                b = 1800.0 + 1.2 * k * h
                d = sum(amp * math.exp(-((i - ci) ** 2 + (j - cj) ** 2 + (k - ck) ** 2) / (2 * sigma ** 2))
                        for ci, cj, ck, amp in centres)
                start.append(b)
                truth.append(b + d)
    write_npy(os.path.join(a.out, "start.npy"), (nx, ny, nz), start)
    write_npy(os.path.join(a.out, "true.npy"), (nx, ny, nz), truth)
    sx, sy = (int(v) for v in a.src_grid.split(","))
    inv = os.path.join(a.out, "inversion")
    vmax = 1800.0 + 1.2 * (nz - 1) * h + a.anomaly + 300
    cmd = [a.binary, "invert", "--model", os.path.join(a.out, "start.npy"), "--true-model", os.path.join(a.out, "true.npy"),
           "--spacing", str(h), "--space-order", "8", "--tn", str(a.tn), "--f0", str(a.f0),
           *sum((["--src", "%g,%g,10" % (h * (nx - 1) * (0.25 + 0.5 * i / max(1, sx - 1)), h * (ny - 1) * (0.25 + 0.5 * j / max(1, sy - 1)))]
                 for i in range(sx) for j in range(sy)), []), "--rec-grid", "%d,%d,10" % (max(2, nx // 2), max(2, ny // 2)),
           "--vmin", "1400", "--vmax", str(vmax), "--bands", a.bands, "--iterations", str(a.iterations),
           "--threads", str(a.threads), "--out-dir", inv, "--json"] + a.extra
    if os.path.exists(os.path.join(inv, "state.bin")):
        cmd[cmd.index("--out-dir")] = "--resume"
    print("$ " + " ".join(cmd), flush=True)
    t0 = time.time()
    run = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    seconds = time.time() - t0
    if run.returncode != 0:
        sys.exit(run.returncode)
    summary = json.loads(run.stdout)

    m = a.margin
    box = [(i * ny + j) * nz + k for i in range(m, nx - m) for j in range(m, ny - m) for k in range(3, nz - m)]

    def error(model):
        return math.sqrt(sum((model[x] - truth[x]) ** 2 for x in box))

    history = [json.loads(line) for line in open(os.path.join(inv, "history.jsonl"))]
    rows = [("start", None, None, error(start))]
    for band in range(1, len(a.bands.split(",")) + 1):
        its = [l for l in history if l["band"] == band and l["event"] == "iteration"]
        end = [l for l in history if l["band"] == band and l["event"] == "band_end"]
        if not its or not end:
            continue
        final = read_npy(os.path.join(inv, "model_%04d.npy" % end[0]["iteration"]))
        rows.append(("band %d (%s Hz, %d it., %s)" % (band, its[0]["cutoff_hz"], len(its), end[0]["reason"]),
                     its[0]["objective_before"], its[-1]["objective"], error(final)))
    print("%-44s %14s %14s %10s %12s" % ("", "J start", "J end", "J ratio", "model error"))
    for name, j0, j1, e in rows:
        if j0 is None:
            print("%-44s %14s %14s %10s %12.1f" % (name, "", "", "", e))
        else:
            print("%-44s %14.6g %14.6g %10.3f %12.1f" % (name, j0, j1, j1 / j0, e))
    print("%d iterations, %.1f s wall; pictures: %s/{true,start,model}_{xz,yz,xy}.png" % (summary["iterations"], seconds, inv))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"command": cmd, "seconds": seconds, "rows": rows, "revwave": summary}, f, indent=1)


if __name__ == "__main__":
    main()
