#!/usr/bin/env bash
# Survey gradient throughput (shots per minute) for one process and for two MPI processes, and
# the parallel efficiency, on the CPU backend. One survey (SEG-Y, written first), three
# configurations run in turn, ROUNDS times, alternating so that the machine's noise hits all alike:
#   serial-1t  one process, 1 thread           (the baseline of the efficiency)
#   serial-Nt  one process, all THREADS threads (what a workstation user runs without mpirun)
#   mpi-K      mpirun -n K, THREADS/K threads each
# efficiency = t(serial-1t) / (K x t(mpi-K)) with K = 2 on this 2-core machine. Wall-clock seconds
# of the whole command, mpirun start-up included.
# Usage: profiling/survey_throughput.sh [OUTDIR] [ROUNDS] [SHAPE] [SRCGRID]   (build first: bash .ci/build)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/survey_throughput}
rounds=${2:-3}
shape=${3:-64,64,64}
srcgrid=${4:-4,2,20}
threads=$(nproc)
k=2
bin=$(realpath "${REVWAVE_BIN:-build/revwave}")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
"$bin" forward --shape "$shape" --tn 0.4 --src-grid "$srcgrid" --rec-grid 16,16,10 --out "$out/survey.sgy" --json >"$out/forward.json"
args=(gradient --shape "$shape" --velocity 2000 --observed "$out/survey.sgy" --snaps 20 --json)
echo "config,round,processes,threads_per_process,shots,wall_seconds,shots_per_minute,objective" >"$out/survey_throughput.csv"
run() {  # name round processes threads command...
  local name=$1 round=$2 procs=$3 thr=$4; shift 4
  local t0 t1 json
  t0=$(date +%s.%N)
  json=$("$@")
  t1=$(date +%s.%N)
  python3 - "$name" "$round" "$procs" "$thr" "$t0" "$t1" "$out/survey_throughput.csv" <<PY
import json, sys
j = json.loads('''$json''')
name, rnd, procs, thr, t0, t1, csv = sys.argv[1:]
wall = float(t1) - float(t0)
with open(csv, "a") as f:
    f.write(f"{name},{rnd},{procs},{thr},{j['shots']},{wall:.3f},{60 * j['shots'] / wall:.3f},{j['objective']!r}\n")
print(f"{name:10s} round {rnd}: {j['shots']} shots in {wall:7.2f} s -> {60 * j['shots'] / wall:6.2f} shots/min (J = {j['objective']!r})")
PY
}
for r in $(seq 1 "$rounds"); do
  run serial-1t "$r" 1 1 "$bin" "${args[@]}" --threads 1 --out "$out/g1.npy"
  run "serial-${threads}t" "$r" 1 "$threads" "$bin" "${args[@]}" --threads "$threads" --out "$out/gN.npy"
  run "mpi-$k" "$r" "$k" $((threads / k)) mpirun -q --oversubscribe -n "$k" "$bin" "${args[@]}" --threads $((threads / k)) --out "$out/gk.npy"
done
cmp "$out/g1.npy" "$out/gk.npy" && cmp "$out/g1.npy" "$out/gN.npy" && echo "gradients: bitwise equal in all three configurations"
python3 - "$out/survey_throughput.csv" "$k" "$threads" <<'PY' | tee "$out/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
k, threads = int(sys.argv[2]), int(sys.argv[3])
med = {}
for name in dict.fromkeys(r["config"] for r in rows):
    med[name] = statistics.median(float(r["wall_seconds"]) for r in rows if r["config"] == name)
shots = int(rows[0]["shots"])
for name, t in med.items():
    print(f"{name:10s} median {t:7.2f} s  {60 * shots / t:6.2f} shots/min")
base, par, ser = med["serial-1t"], med[f"mpi-{k}"], med[f"serial-{threads}t"]
print(f"speed-up of {k} processes over 1 process x 1 thread: {base / par:.2f}; parallel efficiency {base / (k * par):.2f}")
print(f"{k} processes x {threads // k} thread(s) against 1 process x {threads} threads: {ser / par:.2f}x")
PY
