#!/usr/bin/env bash
# Shots per second with one and with two shots at once on the device (issue #23): a survey of
# small windows that one shot cannot fill the device with, its gradient run with --shots-at-once 1
# and 2, alternating (1, 2, 1, 2, ...), the fastest run of each. The gradients must be the same
# bytes (the option moves no bit); the figure is shots over the command's wall time, and over the
# shots' own seconds (seconds.shots: start-up, reading and writing left out).
# Writes OUTDIR/shots_at_once.json and prints a summary.
# Usage: profiling/shots_at_once.sh BINARY OUTDIR
#   env: SHAPE (64,64,64: the model, every shot's window), TN (0.5), SHOTS_GRID (8,8: 64 shots),
#        RUNS (3 of each), AT_ONCE (2: the count against 1)
set -euo pipefail
bin=$(readlink -f "$1")
out=$2
shape=${SHAPE:-64,64,64}
tn=${TN:-0.5}
grid=${SHOTS_GRID:-8,8}
runs=${RUNS:-3}
at_once=${AT_ONCE:-2}
mkdir -p "$out"
"$bin" forward --backend cuda --shape "$shape" --tn "$tn" --src-grid "$grid",20 --rec-grid 8,8,10 \
  --out "$out/survey.sgy" --json >"$out/forward.json"
for r in $(seq 1 "$runs"); do
  for k in 1 "$at_once"; do
    t0=$(date +%s.%N)
    "$bin" gradient --backend cuda --shape "$shape" --velocity 1900 --observed "$out/survey.sgy" \
      --shots-at-once "$k" --out "$out/g$k.npy" --json >"$out/run_${k}_$r.json"
    t1=$(date +%s.%N)
    python3 -c "print(float('$t1') - float('$t0'))" >"$out/run_${k}_$r.wall"
  done
  cmp -s "$out/g1.npy" "$out/g$at_once.npy" || { echo "shots_at_once: the gradients differ" >&2; exit 1; }
done
python3 - "$out" "$runs" "$at_once" "$shape" <<'PY'
import json, os, sys
out, runs, k, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def best(n):
    walls, shots = [], []
    for r in range(1, runs + 1):
        j = json.load(open(os.path.join(out, f"run_{n}_{r}.json")))
        walls.append(float(open(os.path.join(out, f"run_{n}_{r}.wall")).read()))
        shots.append(j["seconds"]["shots"])
        count = j["shots"]
    return {"shots": count, "wall_seconds": min(walls), "shot_seconds": min(shots),
            "shots_per_second_wall": count / min(walls), "shots_per_second_shots": count / min(shots)}
one, many = best("1"), best(k)
r = {"shape": shape, "runs_each": runs, "at_once": int(k), "one": one, "many": many,
     "speedup_wall": one["wall_seconds"] / many["wall_seconds"],
     "speedup_shots": one["shot_seconds"] / many["shot_seconds"], "load_average": os.getloadavg()}
json.dump(r, open(os.path.join(out, "shots_at_once.json"), "w"), indent=2)
print("shots at once, %d shots of %s, fastest of %d: one at a time %.2f shots/s (wall), %s at once %.2f shots/s "
      "(x%.2f; shots' own seconds x%.2f); the same gradient bytes" % (
      one["shots"], shape, runs, one["shots_per_second_wall"], k, many["shots_per_second_wall"],
      r["speedup_wall"], r["speedup_shots"]))
PY
