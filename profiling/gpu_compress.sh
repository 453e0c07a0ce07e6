#!/usr/bin/env bash
# --compress on the GPU: the paper's problem (230^3 interior points, 1615 steps, float, order 8)
# under a checkpoint budget far below its 10 GiB, each mode against `none` at the same budget:
# slots, forward steps, time loop, and the gradient's relative L2 error against `none`'s (the codec
# seconds read 0 on the GPU: the cast kernels run on the compute stream and are not timed apart).
# Usage: profiling/gpu_compress.sh BIN_DIR OUTDIR     (BIN_DIR holds revwave and, from
# gpu_prebuild.sh, lib/; needs python3 with numpy: PYTHON overrides it)
set -uo pipefail
BIN=$1
OUT=$2
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
args=(gradient --backend cuda --shape 230,230,230 --spacing 10 --nbl 10 --space-order 8 --precision float
      --dt 0.0012 --tn 1.938 --json)
for budget in 2GiB 1GiB; do
  for mode in none fp16 bf16; do
    [[ $budget == 1GiB && $mode == bf16 ]] && continue
    tag="$budget-$mode"
    timeout 120 "$BIN/revwave" "${args[@]}" --checkpoint-memory "$budget" --compress "$mode" \
      --out "$scratch/$tag.npy" > "$OUT/compress-$tag.json" 2> "$OUT/compress-$tag.log" ||
      echo "$tag: rc=$? ($(tail -1 "$OUT/compress-$tag.log"))"
  done
done
${PYTHON:-python3} - "$OUT" "$scratch" <<'PY' | tee "$OUT/compress.txt"
import json, os, sys
import numpy as np
out, scratch = sys.argv[1], sys.argv[2]
print("budget mode  slots forward_steps time_loop_s total_s rel_L2_error_against_none")
for budget in ("2GiB", "1GiB"):
    ref_path = f"{scratch}/{budget}-none.npy"
    ref = np.load(ref_path).astype(np.float64) if os.path.exists(ref_path) else None
    for mode in ("none", "fp16", "bf16"):
        p = f"{out}/compress-{budget}-{mode}.json"
        if not os.path.exists(p) or os.path.getsize(p) == 0:
            continue
        j = json.load(open(p))
        s = j["seconds"]
        if mode == "none":
            err = "reference"
        elif ref is None:
            err = "no reference (the none run failed)"
        else:
            g = np.load(f"{scratch}/{budget}-{mode}.npy").astype(np.float64)
            err = f"{np.linalg.norm(g - ref) / np.linalg.norm(ref):.2e}"
        print(f"{budget:6s} {mode:5s} {j['snaps']:5d} {j['forward_steps']:13d} {s['forward'] + s['reverse']:11.3f} "
              f"{s['total']:7.2f} {err}")
PY
