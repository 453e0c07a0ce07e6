#!/usr/bin/env bash
# Forward throughput of the CPU backend: GPts/s (interior points x steps / time-loop seconds)
# for space order 8, float32, nbl 10, a 128 x 128 receiver grid, at 128^3 and 200^3.
# Usage: profiling/forward_throughput.sh [OUTDIR] [THREADS]   (build first: bash .ci/build)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/forward_throughput}
threads=${2:-$(nproc)}
bin=${REVWAVE_BIN:-build/revwave}
mkdir -p "$out"
echo "shape,threads,steps,seconds,gpts_per_s,peak_rss_bytes" >"$out/forward_throughput.csv"
for n in 128 200; do
  ext=$(( (n - 1) * 10 ))
  json=$("$bin" forward --shape "$n,$n,$n" --spacing 10 --nbl 10 --space-order 8 --precision float \
    --velocity 2000 --tn 0.4 --threads "$threads" --rec-grid "128,128,20" --out "$out/shot_$n.npy" --json)
  echo "$json" >"$out/forward_$n.json"
  python3 - "$n" "$threads" "$out/forward_throughput.csv" <<PY
import json, sys
j = json.loads('''$json''')
n, threads, csv = sys.argv[1], sys.argv[2], sys.argv[3]
with open(csv, "a") as f:
    f.write(f"{n},{threads},{j['steps']},{j['seconds']},{j['gpts_per_s']},{j['peak_rss_bytes']}\n")
print(f"{n}^3: {j['steps']} steps in {j['seconds']:.2f} s -> {j['gpts_per_s']:.3f} GPts/s ({threads} threads)")
PY
  rm -f "$out/shot_$n.npy" "$out/shot_$n.json"
done
echo "wrote $out/forward_throughput.csv"
