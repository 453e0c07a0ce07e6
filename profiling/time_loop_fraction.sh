#!/usr/bin/env bash
# Where the wall time of a survey and of an inversion goes (issue #23): the fraction spent in the
# time loops of the shots. A 64-shot survey (8 x 8 sources) is modelled first (not timed), then
#   survey  revwave gradient on aperture windows: seconds.time_loop (the shots' time loops, the
#           device's by events on a GPU) over the command's wall time;
#   invert  revwave invert, two iterations of one band on the same data: seconds_time_loops (the
#           evaluations' and illumination sweeps' time loops) over the command's wall time.
# Wall times are the whole command's (start-up, reading the data, writing the outputs included).
# Writes OUTDIR/time_loop_fraction.json {"survey": {...}, "invert": {...}} and prints a summary.
# Usage: profiling/time_loop_fraction.sh BINARY OUTDIR
#   env: SHAPE (64,64,40), TN (0.3), APERTURE (60), BACKEND (cpu), THREADS (all cores)
#   the GPU check runs SHAPE=256,256,256 TN=0.6 APERTURE=300 BACKEND=cuda.
set -euo pipefail
bin=$(readlink -f "$1")
out=$2
shape=${SHAPE:-64,64,40}
tn=${TN:-0.3}
aperture=${APERTURE:-60}
backend=${BACKEND:-cpu}
threads=${THREADS:-$(nproc)}
mkdir -p "$out"
common=(--backend "$backend" --threads "$threads")
"$bin" forward "${common[@]}" --shape "$shape" --tn "$tn" --src-grid 8,8,20 --rec-grid 16,16,10 \
  --out "$out/survey.sgy" --json >"$out/forward.json"
timed() {  # NAME ARGS...: the JSON on stdout to OUTDIR/NAME.json, the wall seconds to OUTDIR/NAME.wall
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" "$@" --json >"$out/$name.json"
  t1=$(date +%s.%N)
  python3 -c "print(float('$t1') - float('$t0'))" >"$out/$name.wall"
}
timed survey gradient "${common[@]}" --shape "$shape" --velocity 1900 --observed "$out/survey.sgy" \
  --aperture "$aperture" --out "$out/survey_gradient.npy"
rm -rf "$out/inv"
timed invert invert "${common[@]}" --shape "$shape" --velocity 1900 --observed "$out/survey.sgy" \
  --aperture "$aperture" --vmin 1400 --vmax 2400 --iterations 2 --out-dir "$out/inv"
python3 - "$out" "$shape" "$backend" <<'PY'
import json, os, sys
out, shape, backend = sys.argv[1:]
def wall(name):
    return float(open(os.path.join(out, name + ".wall")).read())
s = json.load(open(os.path.join(out, "survey.json")))
i = json.load(open(os.path.join(out, "invert.json")))
sw, iw = wall("survey"), wall("invert")
sec = s["seconds"]
r = {
    "shape": shape, "backend": backend, "load_average": os.getloadavg(), "cores": os.cpu_count(),
    "survey": {"shots": s["shots"], "wall_seconds": sw, "time_loop_seconds": sec["time_loop"],
               "time_loop_fraction": sec["time_loop"] / sw,
               "phases_seconds": {k: sec[k] for k in ("setup", "upload", "time_loop", "accumulate", "idle", "sum") if k in sec}},
    "invert": {"iterations": i["iterations"], "wall_seconds": iw, "time_loop_seconds": i["seconds_time_loops"],
               "time_loop_fraction": i["seconds_time_loops"] / iw},
}
json.dump(r, open(os.path.join(out, "time_loop_fraction.json"), "w"), indent=2)
print("time loops, %s backend, %s, load %.2f on %d cores:" % (backend, shape, r["load_average"][0], r["cores"]))
print("  survey gradient, %d shots: %.2f s of %.2f s wall in time loops (%.1f%%); phases %s" % (
    s["shots"], sec["time_loop"], sw, 100 * sec["time_loop"] / sw,
    ", ".join("%s %.3f s" % kv for kv in r["survey"]["phases_seconds"].items())))
print("  invert, %d iterations: %.2f s of %.2f s wall in time loops (%.1f%%)" % (
    i["iterations"], i["seconds_time_loops"], iw, 100 * i["seconds_time_loops"] / iw))
PY
