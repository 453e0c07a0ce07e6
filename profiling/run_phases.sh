#!/usr/bin/env bash
# Where a run's wall time goes (#47), on the CPU: forward --shape 256,256,256 --tn 0.02 (15 steps)
# with the sponge and with the C-PML, and the default gradient. For each: the wall time measured
# from outside (before the process starts to after it ends), the report's wall_seconds (from the
# process's start, the sum of its phases), their gap as a fraction of the wall, the seconds outside
# the time loops, and the phases. Run it in a scratch directory.
#   profiling/run_phases.sh BINARY [THREADS]   (THREADS: 2)
set -euo pipefail
bin=$(readlink -f "$1")
threads=${2:-2}
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, --threads $threads"
run() {  # LABEL ARGS...
  local label=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" "$@" --threads "$threads" --json >phases_report.txt
  t1=$(date +%s.%N)
  python3 - "$label" "$t0" "$t1" <<'PY'
import json, sys
label, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
j = json.load(open("phases_report.txt"))
p = j["phases"]
outside = float(t1) - float(t0)
wall = j["wall_seconds"]
loops = sum(p.get(k, 0.0) for k in ("time_loop", "forward", "reverse"))
print(f"{label:16s} wall {outside:7.3f} s measured, {wall:7.3f} s reported ({(outside - wall) / outside:+.1%} unreported); "
      f"outside the time loops {wall - loops:6.3f} s")
print("                 " + ", ".join(f"{k} {v:.3f}" for k, v in p.items()))
PY
}
run "forward sponge" forward --shape 256,256,256 --tn 0.02 --boundary sponge --yes --out phases_f.npy
run "forward cpml" forward --shape 256,256,256 --tn 0.02 --boundary cpml --yes --out phases_f.npy
run "gradient" gradient --out phases_g.npy
rm -f phases_report.txt phases_f.npy phases_f.json phases_f.config.toml phases_g.npy phases_g.config.toml
