#!/usr/bin/env bash
# OpenMP's waiting at barriers on a shared machine (revwave/core/openmp_wait.hpp): the default
# gradient on the CPU, quiet and beside one busy process (a shell loop holding a core), with
#   spin:    GOMP_SPINCOUNT=300000 (libgomp's own default, what revwave ran before it chose),
#   chosen:  neither variable set (revwave's choice at its start: the JSON's openmp_wait),
#   passive: OMP_WAIT_POLICY=passive.
# Wall seconds of each, and the ratios to spin in the same condition. Run it in a scratch directory.
#   profiling/openmp_wait_bench.sh BINARY [ARGS of the gradient, default: the built-in problem]
set -euo pipefail
bin=$(readlink -f "$1")
shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--threads 2)
run() {  # LABEL ENV...: seconds of one gradient
  local label=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT -u REVWAVE_OPENMP_WAIT "$@" "$bin" gradient "${args[@]}" \
    --out bench_gradient.npy --json >bench_report.txt
  t1=$(date +%s.%N)
  python3 -c "import json; print('$label', round($t1 - $t0, 3), json.load(open('bench_report.txt'))['openmp_wait'])"
}
measure() {  # CONDITION
  local spin chosen passive
  spin=$(run spin GOMP_SPINCOUNT=300000)
  chosen=$(run chosen)
  passive=$(run passive OMP_WAIT_POLICY=passive)
  python3 - "$1" "$spin" "$chosen" "$passive" <<'PY'
import sys
cond, *rows = sys.argv[1:]
base = float(rows[0].split()[1])
for r in rows:
    label, sec, note = r.split(" ", 2)
    print(f"{cond:7s} {label:8s} {float(sec):7.2f} s  x{float(sec) / base:5.2f}  ({note})")
PY
}
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
measure quiet
sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT
sleep 1
measure loaded
rm -f bench_gradient.npy bench_gradient.config.toml bench_report.txt
