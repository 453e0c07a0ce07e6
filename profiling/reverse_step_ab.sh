#!/usr/bin/env bash
# A/B of the CPU steps against another revwave commit: each tree's own benchmark
# (profiling/cpu_step_bench.cpp, target revwave_cpu_step_bench) built against its own library, run
# alternately ROUNDS times; prints each run and the min/median of the reverse-step speed-up B/A
# (A = this tree, B = the other commit). REF must have the benchmark (it came with 2379cfb, the
# fused reverse step; that A/B against dee22b9, docs/benchmarks.md, built today's
# source against that old library, which the API has since left behind).
# Usage: profiling/reverse_step_ab.sh [N=200] [ROUNDS=5] [REF=HEAD~1] [REPS=8]
#   REVWAVE_BEFORE_RUN='cmd' runs cmd before every run (on a shared machine: wait for quiet).
#   (build this tree first: cmake --build build --target revwave_cpu_step_bench)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}; rounds=${2:-5}; ref=${3:-HEAD~1}; reps=${4:-8}
a_bin=${REVWAVE_STEP_BENCH:-build/revwave_cpu_step_bench}
[ -x "$a_bin" ] || { echo "build $a_bin first (cmake --build build --target revwave_cpu_step_bench)" >&2; exit 1; }
sha=$(git rev-parse --short "$ref^{commit}")
if ! git cat-file -e "$sha:profiling/cpu_step_bench.cpp" 2>/dev/null; then
  echo "reverse_step_ab.sh: $ref ($sha) has no profiling/cpu_step_bench.cpp: choose a REF that has the benchmark" >&2
  exit 2
fi
ref_dir=${REVWAVE_REF_DIR:-/tmp/revwave-ref-$sha}  # a checkout of REF (made here as a git worktree when missing)
if [ ! -d "$ref_dir" ]; then git worktree add --detach "$ref_dir" "$sha" >/dev/null; fi
if [ ! -x "$ref_dir/build/revwave_cpu_step_bench" ]; then
  cmake -S "$ref_dir" -B "$ref_dir/build" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=OFF -DREVWAVE_CUDASIM=OFF >/dev/null
  cmake --build "$ref_dir/build" -j2 --target revwave_cpu_step_bench >/dev/null
fi
b_bin=$ref_dir/build/revwave_cpu_step_bench
out=$(mktemp)
before=${REVWAVE_BEFORE_RUN:-true}
for r in $(seq "$rounds"); do
  eval "$before"; echo "A $("$a_bin" "$n" "$reps")" | tee -a "$out"
  eval "$before"; echo "B $("$b_bin" "$n" "$reps")" | tee -a "$out"
done
python3 - "$out" <<'PY'
import json, statistics, sys
a, b = [], []
for line in open(sys.argv[1]):
    tag, js = line.split(" ", 1)
    (a if tag == "A" else b).append(json.loads(js))
def summary(runs, key):
    v = [r[key] for r in runs]
    return min(v), statistics.median(v)
for name, runs in (("A (this tree)", a), ("B (reference)", b)):
    f, r, q = summary(runs, "forward_min"), summary(runs, "reverse_min"), summary(runs, "ratio_min")
    print(f"{name}: forward {f[0]*1e3:.1f}/{f[1]*1e3:.1f} ms, reverse {r[0]*1e3:.1f}/{r[1]*1e3:.1f} ms (min/median over runs), "
          f"reverse/forward {q[0]:.3f}/{q[1]:.3f}")
speed = [rb["reverse_min"] / ra["reverse_min"] for ra, rb in zip(a, b)]
fwd = [rb["forward_min"] / ra["forward_min"] for ra, rb in zip(a, b)]
print(f"reverse step speed-up B/A per round: {', '.join(f'{s:.3f}' for s in speed)}; min {min(speed):.3f}, median {statistics.median(speed):.3f}")
print(f"forward step B/A per round: {', '.join(f'{s:.3f}' for s in fwd)}; median {statistics.median(fwd):.3f}")
PY
rm -f "$out"
