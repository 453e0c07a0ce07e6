#!/usr/bin/env bash
# Online checkpointing vs the offline optimum: a dense sweep of N = 1..NMAX per slot count.
#
# Usage: profiling/online_ratios.sh OUTDIR [REVWAVE] [NMAX]
# Runs the hidden benchmark flag `revwave schedule --strategy online --sweep NMAX
# --snaps S --json` (every N from 1 to NMAX, counted in one forward pass) for
# S in {2, 5, 10, 20, 50} and writes OUTDIR/online_ratios.csv (one row per S and
# repetition number r: N range, max ratio, N where it occurs), OUTDIR/online_ratios.md
# (the same as a table, with the worst N per S) and the raw JSON per S.
set -euo pipefail
out=${1:?usage: online_ratios.sh OUTDIR [REVWAVE] [NMAX]}
bin=${2:-build/revwave}
nmax=${3:-100000}
mkdir -p "$out"
csv="$out/online_ratios.csv.tmp"
md="$out/online_ratios.md.tmp"
echo "snaps,repetition_number,n_from,n_to,max_ratio,worst_steps" > "$csv"
{
  echo "# Online / offline forward steps, dense N = 1..$nmax"
  echo
  echo "| S | worst ratio | at N | max ratio per r (r: ratio @ N) |"
  echo "| --- | --- | --- | --- |"
} > "$md"
for s in 2 5 10 20 50; do
  "$bin" schedule --strategy online --sweep "$nmax" --snaps "$s" --json > "$out/online_S$s.json"
  python3 - "$out/online_S$s.json" "$csv" "$md" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as csv:
    for row in j["by_repetition"]:
        csv.write(f'{j["snaps"]},{row["repetition_number"]},{row["n_from"]},{row["n_to"]},'
                  f'{row["max_ratio"]:.6f},{row["worst_steps"]}\n')
per_r = "; ".join(f'{r["repetition_number"]}: {r["max_ratio"]:.4f} @ {r["worst_steps"]}'
                  for r in j["by_repetition"] if r["repetition_number"] >= 2)
with open(sys.argv[3], "a") as md:
    md.write(f'| {j["snaps"]} | {j["worst_ratio"]:.5f} | {j["worst_steps"]} | {per_r} |\n')
PY
done
mv "$csv" "$out/online_ratios.csv"
mv "$md" "$out/online_ratios.md"
cat "$out/online_ratios.md"
