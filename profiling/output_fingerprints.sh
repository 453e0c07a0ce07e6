#!/usr/bin/env bash
# The outputs of a fixed set of invocations (forward, gradient under each strategy and store,
# precision and compression, a survey serial and under mpirun -n 2, schedule, adjtest, gradtest,
# invert), as md5 sums: run it with the binary before and after a refactor and diff the lists.
# Only files and the JSON fields that do not measure time or memory are hashed.
#   profiling/output_fingerprints.sh BINARY OUTDIR > fingerprints.txt
set -euo pipefail
bin=$(readlink -f "$1")
out=$2
rm -rf "$out" && mkdir -p "$out/ckpt"
cd "$out"
small=(--shape 28,24,20 --tn 0.25 --threads 2)
# The JSON without what measures time, memory or the machine.
stable_json() {
  python3 -c 'import json,sys
drop={"seconds","rank","peak_rss_bytes","backend_note","backend_reason","seconds_spill","tiers","shots_per_minute","gpts_per_s","total_seconds","wall_seconds","phases","openmp_wait"}
def clean(o):
    if isinstance(o,dict): return {k:clean(v) for k,v in o.items() if k not in drop and not k.startswith("seconds")}
    if isinstance(o,list): return [clean(v) for v in o]
    return o
print(json.dumps(clean(json.load(sys.stdin)),sort_keys=True))'
}
run() {  # NAME ARGS...: the JSON summary, stable part, hashed under NAME
  local name=$1; shift
  "$bin" "$@" --json | stable_json >"$name.json"
}
run forward forward "${small[@]}" --out forward.npy
run gradient_full gradient "${small[@]}" --strategy full --out gradient_full.npy
run gradient_revolve gradient "${small[@]}" --strategy revolve --snaps 4 --out gradient_revolve.npy
run gradient_online gradient "${small[@]}" --strategy online --snaps 4 --out gradient_online.npy
run gradient_multilevel gradient "${small[@]}" --strategy multilevel --tier memory:2:0.1:0.1 --tier disk:2:1:1 \
  --checkpoint-dir ckpt --out gradient_multilevel.npy
run gradient_disk gradient "${small[@]}" --store disk --snaps 3 --checkpoint-dir ckpt --out gradient_disk.npy
run gradient_double gradient "${small[@]}" --precision double --snaps 5 --out gradient_double.npy
run gradient_fp16 gradient "${small[@]}" --compress fp16 --snaps 5 --out gradient_fp16.npy
run gradient_observed gradient --velocity 2100 --observed forward.npy --threads 2 --out gradient_observed.npy
run survey_forward forward --shape 40,30,20 --tn 0.25 --threads 2 --src-grid 2,2,20 --rec-grid 8,6,10 --out survey.sgy
run survey_gradient gradient --shape 40,30,20 --velocity 2000 --observed survey.sgy --aperture 100 --threads 2 --out survey_g1.npy
if command -v mpirun >/dev/null; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -q --oversubscribe -n 2 "$bin" gradient --shape 40,30,20 --velocity 2000 --observed survey.sgy --aperture 100 \
    --threads 1 --out survey_g2.npy --json | stable_json >survey_gradient_mpi2.json
fi
# A layered density (kg/m^3 on the small shape, float64 .npy written without numpy), with and
# without the free surface.
python3 -c 'import struct,sys
nx,ny,nz=28,24,20
h="{\x27descr\x27: \x27<f8\x27, \x27fortran_order\x27: False, \x27shape\x27: (%d, %d, %d), }"%(nx,ny,nz)
h+=" "*(117-len(h))+"\n"  # the header ends at byte 128, a multiple of 64
v=[1000.0+40.0*(i%nz)+(600.0 if i%nz>12 else 0.0) for i in range(nx*ny*nz)]
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(h))+h.encode()+struct.pack("<%dd"%len(v),*v))' >rho.npy
run gradient_density gradient "${small[@]}" --density rho.npy --density-gradient gradient_density_rho.npy \
  --snaps 4 --out gradient_density.npy
run gradient_density_surface gradient "${small[@]}" --free-surface --density rho.npy \
  --density-gradient gradient_density_surface_rho.npy --snaps 4 --out gradient_density_surface.npy
run schedule schedule --steps 300 --snaps 7
"$bin" schedule --steps 40 --snaps 3 --actions >schedule_actions.txt
run adjtest adjtest "${small[@]}" --precision double
run gradtest gradtest "${small[@]}" --precision double
"$bin" invert --shape 24,24,20 --tn 0.3 --f0 15 --src-grid 2,2,20 --rec-grid 8,8,10 --iterations 2 --threads 2 \
  --vmin 1400 --vmax 3000 --bands 8,12 \
  --out-dir inv --json 2>/dev/null | stable_json >invert.json || true
# invert's history carries seconds: hash its lines without them.
[ -f inv/history.jsonl ] && while read -r l; do echo "$l" | stable_json; done <inv/history.jsonl >invert_history.json
find . -type f \( -name '*.npy' -o -name '*.sgy' -o -name '*.json' -o -name '*.txt' -o -name '*.bin' \) \
  ! -path './ckpt/*' ! -name 'history.jsonl' | LC_ALL=C sort | xargs md5sum
