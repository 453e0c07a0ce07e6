#!/usr/bin/env bash
# --compress on the GPU: the paper's problem (230^3 interior points, 1615 steps, float, order 8)
# under a checkpoint budget far below its 10 GiB, each mode against `none` at the same budget:
# slots, forward steps, time loop, and the gradient's relative L2 error against `none`'s (numpy;
# left out without it). The codec's own seconds read 0 on the GPU: the casts run on the compute
# stream, and with the fused codec inside the steps themselves. Writes OUTDIR/compress.txt and
# OUTDIR/compress.json, whose fp16_over_none_time_loop (per budget) profiling/gpu_check.sh puts in
# its summary.json.
# Usage: profiling/gpu_compress.sh BIN_DIR OUTDIR     (BIN_DIR holds revwave and, from
# gpu_prebuild.sh, lib/; python3: PYTHON overrides it)
set -uo pipefail
BIN=$1
OUT=$2
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The sponge, as the earlier figures were measured (the default is the C-PML since #24).
args=(gradient --backend cuda --shape 230,230,230 --spacing 10 --nbl 10 --boundary sponge --space-order 8
      --precision float --dt 0.0012 --tn 1.938 --json)
for budget in 2GiB 1GiB; do
  for mode in none fp16 bf16; do
    [[ $budget == 1GiB && $mode == bf16 ]] && continue
    tag="$budget-$mode"
    timeout "${REVWAVE_GPU_TIMEOUT_COMPRESS_RUN:-120}" "$BIN/revwave" "${args[@]}" --checkpoint-memory "$budget" \
      --compress "$mode" --out "$scratch/$tag.npy" > "$OUT/compress-$tag.json" 2> "$OUT/compress-$tag.log" ||
      echo "$tag: rc=$? ($(tail -1 "$OUT/compress-$tag.log"))"
  done
done
${PYTHON:-python3} - "$OUT" "$scratch" <<'PY' | tee "$OUT/compress.txt"
import json, os, sys
out, scratch = sys.argv[1], sys.argv[2]
try:
    import numpy as np
except ImportError:
    np = None
summary = {"runs": {}, "fp16_over_none_time_loop": {}, "bf16_over_none_time_loop": {}, "rel_l2_error": {}}
print("budget mode  slots forward_steps time_loop_s total_s rel_L2_error_against_none")
for budget in ("2GiB", "1GiB"):
    ref_path = f"{scratch}/{budget}-none.npy"
    ref = np.load(ref_path).astype(np.float64) if np is not None and os.path.exists(ref_path) else None
    loops = {}
    for mode in ("none", "fp16", "bf16"):
        p = f"{out}/compress-{budget}-{mode}.json"
        if not os.path.exists(p) or os.path.getsize(p) == 0:
            continue
        j = json.load(open(p))
        s = j["seconds"]
        loops[mode] = s["forward"] + s["reverse"]
        if mode == "none":
            err = "reference"
        elif np is None:
            err = "not computed (no numpy)"
        elif ref is None:
            err = "no reference (the none run failed)"
        else:
            g = np.load(f"{scratch}/{budget}-{mode}.npy").astype(np.float64)
            e = float(np.linalg.norm(g - ref) / np.linalg.norm(ref))
            summary["rel_l2_error"][f"{budget}-{mode}"] = e
            err = f"{e:.2e}"
        summary["runs"][f"{budget}-{mode}"] = {"slots": j.get("snaps"), "forward_steps": j["forward_steps"],
                                              "time_loop_seconds": loops[mode], "total_seconds": s["total"],
                                              "placement": j.get("cuda", {}).get("tiers")}
        print(f"{budget:6s} {mode:5s} {j.get('snaps', 0):5d} {j['forward_steps']:13d} {loops[mode]:11.3f} "
              f"{s['total']:7.2f} {err}")
    for mode in ("fp16", "bf16"):
        if mode in loops and loops.get("none"):
            summary[f"{mode}_over_none_time_loop"][budget] = loops[mode] / loops["none"]
json.dump(summary, open(f"{out}/compress.json", "w"), indent=2)
for mode in ("fp16", "bf16"):
    for budget, r in summary[f"{mode}_over_none_time_loop"].items():
        print(f"{mode}/none time loop under {budget}: x{r:.3f} (issue #28's goal: at most 0.85 for fp16)")
PY
