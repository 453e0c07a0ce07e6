#!/usr/bin/env bash
# The whole GPU verification in one go: build for the local GPU (sm_90, with ptxas's register and
# spill report), run the GPU test suites, measure bandwidth, sweep rates, the checkpointed
# gradient and the spill cost, and only then the sanitizers (racecheck, synccheck, memcheck on
# the sweep kernels in float and in double), so that a slow or hanging sanitizer costs no figure.
# Every phase has its own time limit (seconds; override with REVWAVE_GPU_TIMEOUT_<PHASE>).
# Usage: profiling/gpu_check.sh [OUTDIR]      (default: gpu-check-out)
# Prebuilt: REVWAVE_GPU_PREBUILT=DIR (from profiling/gpu_prebuild.sh: the three executables, lib/,
# ptxas.txt) skips the build when all three load on this machine, and builds as below if not.
# Then --compress on the paper's problem (profiling/gpu_compress.sh: 2 and 1 GiB, none against fp16
# and bf16), whose time-loop ratios go into summary.json as compression.fp16_over_none_time_loop.
# The exit status is non-zero when a GPU test fails, the Taylor test on the device fails, the benchmark fails, the paper's problem
# gives `full` and `revolve` gradients that differ, or (where nsys is installed) one Revolve
# gradient's NVTX ranges differ from the counts its schedule predicts (profiling/nsys_ranges.py).
# REVWAVE_GPU_SWEEP_VARIANTS=columns,shuffle (say) limits the sweep kernels the benchmark measures.
# Dependencies: REVWAVE_DEPS_PREFIX=/path/to/dpkg-x-tree (CLI11, GTest, nlohmann-json, libpng,
# segyio, zfp unpacked with dpkg -x: profiling/gpu_deps.sh) is passed to CMake; without it,
# .ci/setup installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-gpu-check-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUILD=${REVWAVE_GPU_BUILD:-build-gpu}
JOBS=$(nproc 2>/dev/null || echo 8)

cmake_args=(-S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90
            -DREVWAVE_PTXAS_VERBOSE=ON -DREVWAVE_CUDASIM=OFF)
if [[ -n "${REVWAVE_DEPS_PREFIX:-}" ]]; then
  prefix=$(cd "$REVWAVE_DEPS_PREFIX" && pwd)
  cmake_args+=("-DCMAKE_PREFIX_PATH=$prefix/usr;$prefix/usr/lib/x86_64-linux-gnu/cmake;$prefix/usr/share/cmake"
               "-DCMAKE_INCLUDE_PATH=$prefix/usr/include" "-DCMAKE_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu")
  export CPATH="$prefix/usr/include${CPATH:+:$CPATH}"
  export LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  bash .ci/setup || echo "gpu_check: .ci/setup failed; trying the build anyway" >&2
fi

limit() {  # limit PHASE DEFAULT: the phase's time limit in seconds
  local var="REVWAVE_GPU_TIMEOUT_$1"
  echo "${!var:-$2}"
}

start=$(date +%s)
BIN=""
if [[ -n "${REVWAVE_GPU_PREBUILT:-}" ]]; then
  prebuilt=$(cd "$REVWAVE_GPU_PREBUILT" && pwd)
  export LD_LIBRARY_PATH="$prebuilt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  loads() {  # false only when the dynamic loader cannot start the program (status 127)
    "$@" > /dev/null 2>> "$OUT/prebuilt.log"
    [[ $? -ne 127 ]]
  }
  : > "$OUT/prebuilt.log"
  if loads "$prebuilt/revwave_cuda_tests" --gtest_list_tests && loads "$prebuilt/revwave" --version &&
     loads "$prebuilt/revwave_gpu_bench" --sweeps-only 0; then
    BIN=$prebuilt
    echo "== prebuilt binaries from $prebuilt (commit $(cat "$prebuilt/commit" 2>/dev/null || echo unknown))"
    cp "$prebuilt/ptxas.txt" "$OUT/ptxas.txt" 2>/dev/null || true
  else
    echo "gpu_check: the prebuilt binaries do not run here ($(head -1 "$OUT/prebuilt.log")); building" >&2
  fi
fi
if [[ -z "$BIN" ]]; then
  echo "== configure + build ($BUILD, sm_90)"
  timeout "$(limit CONFIGURE 300)" cmake "${cmake_args[@]}" > "$OUT/configure.log" 2>&1 ||
    { tail -30 "$OUT/configure.log"; exit 1; }
  timeout "$(limit BUILD 1200)" cmake --build "$BUILD" -j "$JOBS" --target revwave_cuda_tests revwave_gpu_bench revwave \
    > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
  # ptxas -v of the sweep kernels: registers per thread and spill stores/loads, for the record.
  grep -E "ptxas info|spill" "$OUT/build.log" > "$OUT/ptxas.txt" 2>/dev/null || true
  BIN=$(cd "$BUILD" && pwd)
fi

echo "== GPU tests"
set +e
if [[ -f "$BIN/CTestTestfile.cmake" ]]; then
  (cd "$BIN" && timeout "$(limit TESTS 900)" ctest -L gpu --output-on-failure --timeout 600) > "$OUT/tests.log" 2>&1
else
  timeout "$(limit TESTS 900)" "$BIN/revwave_cuda_tests" --gtest_brief=1 > "$OUT/tests.log" 2>&1
fi
tests_rc=$?
set -e
tail -25 "$OUT/tests.log"

# The Taylor test of the device's gradient (revolve, double, 40^3), as a GPU runner's CI takes it.
echo "== gradtest on the device"
set +e
timeout "$(limit GRADTEST 180)" "$BIN/revwave" gradtest --backend cuda --strategy revolve --json \
  > "$OUT/gradtest.json" 2> "$OUT/gradtest.log"
gradtest_rc=$?
set -e
echo "gradtest: rc=$gradtest_rc $(head -c 300 "$OUT/gradtest.json")"

echo "== benchmark"
set +e
variant_args=()
[[ -n "${REVWAVE_GPU_SWEEP_VARIANTS:-}" ]] && variant_args=(--sweep-variant "$REVWAVE_GPU_SWEEP_VARIANTS")
timeout "$(limit BENCH 600)" "$BIN/revwave_gpu_bench" ${variant_args[@]+"${variant_args[@]}"} "$OUT" > "$OUT/bench.json" 2> "$OUT/bench.log"
bench_rc=$?
set -e
cat "$OUT/bench.log"
[[ -f "$OUT/summary.txt" ]] && cat "$OUT/summary.txt"

# The paper's problem on the GPU, through the command-line tool: 230^3 interior points, 1615 steps,
# float, order 8; `full` (its history, about 100 GiB with the absorbing layer, on the device where
# it fits, else in pinned host memory) against `revolve`
# under --checkpoint-memory 10GiB. The two gradients must be equal byte for byte.
headline_rc=0
if [[ -x "$BIN/revwave" ]]; then
  echo "== the paper's problem: 230^3 x 1615 steps, full against revolve under 10 GiB"
  set +e
  # The paper's damping layer (the sponge; the default is the C-PML since #24): figures comparable
  # with the earlier runs' and the paper's.
  args=(gradient --backend cuda --shape 230,230,230 --spacing 10 --nbl 10 --boundary sponge --space-order 8
        --precision float --dt 0.0012 --tn 1.938 --json)
  scratch=$(mktemp -d)
  timeout "$(limit HEADLINE 150)" "$BIN/revwave" "${args[@]}" --strategy full --out "$scratch/full.npy" \
    > "$OUT/headline-full.json" 2> "$OUT/headline-full.log"
  echo "full: rc=$?" > "$OUT/headline.txt"
  timeout "$(limit HEADLINE 150)" "$BIN/revwave" "${args[@]}" --strategy revolve --checkpoint-memory 10GiB \
    --out "$scratch/revolve.npy" > "$OUT/headline-revolve.json" 2> "$OUT/headline-revolve.log"
  echo "revolve: rc=$?" >> "$OUT/headline.txt"
  if cmp -s "$scratch/full.npy" "$scratch/revolve.npy"; then
    same="equal byte for byte"
  else
    same="DIFFERENT (or missing)"
    headline_rc=1
  fi
  rm -rf "$scratch"
  python3 - "$OUT" "$same" <<'PY' >> "$OUT/headline.txt" 2>&1
import json, sys
out, same = sys.argv[1], sys.argv[2]
runs = {}
for s in ("full", "revolve"):
    try:
        runs[s] = json.load(open(f"{out}/headline-{s}.json"))
    except (OSError, ValueError):
        print(f"{s:8s} no report: see headline-{s}.log")
for s, j in runs.items():
    sec = j["seconds"]
    loop = sec["forward"] + sec["reverse"]
    print(f"{s:8s} {j['steps']} steps, {j['forward_steps']} forward steps (predicted {j['predicted_forward_steps']}), "
          f"slots {j.get('snaps', '-')}, wavefield storage {j['wavefield_storage_bytes'] / 2**30:.1f} GiB, "
          f"time loop {loop:.2f} s, total {sec['total']:.2f} s")
if len(runs) < 2:
    print(f"gradients {same}")
    sys.exit(0)
f, r = runs["full"], runs["revolve"]
lf = f["seconds"]["forward"] + f["seconds"]["reverse"]
lr = r["seconds"]["forward"] + r["seconds"]["reverse"]
print(f"revolve/full: time loop x{lr / lf:.2f}, wavefield storage x{r['wavefield_storage_bytes'] / f['wavefield_storage_bytes']:.3f}; "
      f"gradients {same}")
PY
  cat "$OUT/headline.txt" | tee -a "$OUT/summary.txt"
  set -e
fi

# Where the wall time of a 64-shot survey gradient and of a two-iteration inversion goes on the
# device (issue #23): the fractions in the shots' time loops, into summary.json as
# survey.time_loop_fraction and invert.time_loop_fraction (time_loop_fraction.sh says how).
if [[ -x "$BIN/revwave" ]]; then
  echo "== time loops: 64 shots at 256^3 on aperture windows, an inversion of two iterations"
  set +e
  SHAPE=256,256,256 TN=0.6 APERTURE=300 BACKEND=cuda timeout "$(limit TIMELOOP 300)" \
    bash profiling/time_loop_fraction.sh "$BIN/revwave" "$OUT/time_loops" > "$OUT/time_loops.txt" 2>&1
  echo "time loops: rc=$?" >> "$OUT/time_loops.txt"
  # Keep the reports, not the data (the state and models of a 256^3 inversion are gigabytes).
  cp "$OUT/time_loops/inv/history.jsonl" "$OUT/time_loops/" 2>/dev/null || true
  rm -rf "$OUT/time_loops/survey.sgy" "$OUT/time_loops/"*.npy "$OUT/time_loops/inv"
  python3 - "$OUT/summary.json" "$OUT/time_loops/time_loop_fraction.json" <<'PY' || true
import json, os, sys
p, f = sys.argv[1:]
j = json.load(open(p)) if os.path.exists(p) else {}
r = json.load(open(f))
for k in ("survey", "invert"):
    j.setdefault(k, {})["time_loop_fraction"] = r[k]["time_loop_fraction"]
json.dump(j, open(p, "w"), indent=2)
PY
  tail -4 "$OUT/time_loops.txt" | tee -a "$OUT/summary.txt"
  set -e
fi

# Two small shots at once against one at a time (issue #23): 64 shots on 64^3 windows, shots per
# second, into summary.json as survey.shots_at_once (shots_at_once.sh says how).
if [[ -x "$BIN/revwave" ]]; then
  echo "== shots at once: 64 shots of 64^3, --shots-at-once 1 against 2"
  set +e
  timeout "$(limit AT_ONCE 240)" bash profiling/shots_at_once.sh "$BIN/revwave" "$OUT/shots_at_once" \
    > "$OUT/shots_at_once.txt" 2>&1
  echo "shots at once: rc=$?" >> "$OUT/shots_at_once.txt"
  rm -f "$OUT/shots_at_once/"*.npy "$OUT/shots_at_once/survey.sgy"
  python3 - "$OUT/summary.json" "$OUT/shots_at_once/shots_at_once.json" <<'PY' || true
import json, os, sys
p, f = sys.argv[1:]
j = json.load(open(p)) if os.path.exists(p) else {}
r = json.load(open(f))
j.setdefault("survey", {})["shots_at_once"] = {"at_once": r["at_once"], "speedup_wall": r["speedup_wall"],
                                               "speedup_shots": r["speedup_shots"],
                                               "shots_per_second": [r["one"]["shots_per_second_wall"],
                                                                    r["many"]["shots_per_second_wall"]]}
json.dump(j, open(p, "w"), indent=2)
PY
  tail -2 "$OUT/shots_at_once.txt" | tee -a "$OUT/summary.txt"
  set -e
fi

# --compress against none on the paper's problem (the fused codec's time loop).
compress_rc=0
if [[ -x "$BIN/revwave" ]]; then
  echo "== --compress on the paper's problem: 2 and 1 GiB, none against fp16 and bf16"
  set +e
  timeout "$(limit COMPRESS 900)" bash profiling/gpu_compress.sh "$BIN" "$OUT/compress" > "$OUT/compress.log" 2>&1
  compress_rc=$?
  set -e
  tail -12 "$OUT/compress.log" | tee -a "$OUT/summary.txt"
fi

# One Revolve gradient's timeline, where nsys is installed: its NVTX ranges, counted by
# `nsys stats --report nvtx_sum`, against the counts its schedule predicts (profiling/nsys_ranges.py,
# docs/nsys.md). A device budget of a few slots makes it two levels, so that checkpoints go to
# pinned host memory and store, spill, restore and prefetch appear; the observed record is read
# from a file, so that every forward range is the gradient's own.
nsys_rc=0
nsys_result="not run (no nsys)"
if command -v nsys > /dev/null && [[ -x "$BIN/revwave" ]]; then
  echo "== nsys: one Revolve gradient's NVTX ranges against its schedule"
  set +e
  mkdir -p "$OUT/nsys"
  problem=(--backend cuda --shape 96,96,96 --precision float)  # the record brings its time axis
  timeout "$(limit NSYS 300)" "$BIN/revwave" forward "${problem[@]}" --tn 0.6 --out "$OUT/nsys/observed.npy" \
    > "$OUT/nsys/forward.log" 2>&1
  timeout "$(limit NSYS 300)" nsys profile -t cuda,nvtx --force-overwrite true -o "$OUT/nsys/gradient" \
    "$BIN/revwave" gradient "${problem[@]}" --observed "$OUT/nsys/observed.npy" --strategy revolve --snaps 24 \
    --device-memory 96MiB --host-memory 4GiB --out "$OUT/nsys/gradient.npy" --json \
    > "$OUT/nsys/gradient.json" 2> "$OUT/nsys/gradient.log"
  timeout "$(limit NSYS 300)" nsys stats --report nvtx_sum --format csv "$OUT/nsys/gradient.nsys-rep" \
    > "$OUT/nsys/nvtx_sum.csv" 2> "$OUT/nsys/stats.log"
  python3 profiling/nsys_ranges.py "$OUT/nsys/nvtx_sum.csv" "$OUT/nsys/gradient.json" > "$OUT/nsys/ranges.txt" 2>&1
  nsys_rc=$?
  set -e
  cat "$OUT/nsys/ranges.txt"
  nsys_result="rc=$nsys_rc ($(tail -1 "$OUT/nsys/ranges.txt"))"
fi

# What cudasim cannot see: races, barrier misuse and bad accesses inside a kernel (the tiled
# sweep's shared tiles, the shuffle sweep's lanes; the density's sweeps and surface rows, whose
# threads hold mirrored stencil crosses in local memory). compute-sanitizer works on some GPU machines' runtimes only; small
# cases; float (CudaKernels/0) and double (CudaKernels/1). The six runs go side by side (the
# sanitizers' cost is on the host), each boxed in its own time limit.
if command -v compute-sanitizer > /dev/null; then
  echo "== compute-sanitizer (racecheck, synccheck, memcheck) on the sweep kernels, float and double"
  set +e
  for tool in racecheck synccheck memcheck; do
    for precision in 0 1; do
      (
        log="$OUT/sanitizer-$tool-$precision.log"
        timeout "$(limit SANITIZER 120)" compute-sanitizer --tool "$tool" --error-exitcode 9 "$BIN/revwave_cuda_tests" \
          --gtest_filter="CudaKernels/$precision.BothSweeps*:CudaKernels/$precision.TiledReverse*:CudaKernels/$precision.ShuffleReverse*:CudaFusedCodec/$precision.*:CudaDensity/$precision.ForwardTraces*" \
          > "$log" 2>&1
        echo "compute-sanitizer $tool CudaKernels/$precision: rc=$? (log: $(basename "$log"))" > "$log.rc"
      ) &
    done
  done
  wait
  cat "$OUT"/sanitizer-*.log.rc | tee -a "$OUT/sanitizer.txt"
  rm -f "$OUT"/sanitizer-*.log.rc
  set -e
fi

# DRAM bytes per point the sweep kernels really move (the bench's fractions assume 16 and 32):
# Nsight Compute's counters, where the runtime lets it read them, on one 256^3 sweep-rate run.
if command -v ncu > /dev/null; then
  echo "== ncu: DRAM bytes of the sweep kernels at 256^3"
  set +e
  # The kernels are kernel_entry<...Sweep<T, R, Reverse, Encode>> (the launch layer's one entry point).
  timeout "$(limit NCU 120)" ncu --clock-control none --csv --print-units base --kernel-name-base demangled \
    --kernel-name regex:'(Columns|Shuffle|Tiled)Sweep<' \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
    "$BIN/revwave_gpu_bench" ${variant_args[@]+"${variant_args[@]}"} --sweeps-only 256 > "$OUT/ncu.csv" 2> "$OUT/ncu.log"
  echo "ncu: rc=$?" | tee -a "$OUT/sanitizer.txt"
  python3 - "$OUT/ncu.csv" <<'PY' 2>&1 | tee "$OUT/ncu.txt"
import csv, io, re, statistics, sys
text = open(sys.argv[1]).read()
found = re.search(r'"points":\s*([0-9.eE+]+)', text)
points = float(found.group(1)) if found else None
if '"ID"' not in text:
    sys.exit("ncu: no metrics in its output (can it read the counters here?); see ncu.log and ncu.csv")
rows = list(csv.DictReader(io.StringIO(text[text.index('"ID"'):])))
per = {}
for r in rows:
    name = r["Kernel Name"]
    m = re.search(r"(Columns|Shuffle|Tiled)Sweep<[^,]+,\s*\d+,\s*(true|false|1|0)(,\s*(true|false|1|0))?", name)
    if m is None:
        continue
    kind = m.group(1).lower() + (" reverse" if m.group(2) in ("true", "1") else " forward")
    if m.group(4) in ("true", "1"):
        kind += " encoding"
    per.setdefault(kind, {}).setdefault(r["Metric Name"], []).append(float(r["Metric Value"].replace(",", "")))
for kind, m in sorted(per.items()):
    rd, wr = statistics.median(m["dram__bytes_read.sum"]), statistics.median(m["dram__bytes_write.sum"])
    ns = statistics.median(m["gpu__time_duration.sum"])
    bpp = f", {rd / points:.1f} B/pt read + {wr / points:.1f} written" if points else ""
    print(f"ncu {kind}: DRAM {rd / 1e6:.0f} MB read, {wr / 1e6:.0f} MB written{bpp}, {ns / 1e3:.1f} us, "
          f"{(rd + wr) / ns:.0f} GB/s ({len(m['dram__bytes_read.sum'])} launches)")
PY
  set -e
fi

passed=$(grep -Eo '[0-9]+% tests passed|\[  PASSED  \] [0-9]+ tests?|\[  SKIPPED \] [0-9]+ tests?|[0-9]+ FAILED TESTS?' "$OUT/tests.log" | tr '\n' ' ' || true)
{
  [[ -f "$OUT/sanitizer.txt" ]] && cat "$OUT/sanitizer.txt"
  echo "tests: rc=$tests_rc ${passed}"
  echo "gradtest on the device: rc=$gradtest_rc"
  echo "bench: rc=$bench_rc"
  echo "paper's problem: rc=$headline_rc"
  echo "compression: rc=$compress_rc"
  echo "nsys ranges: $nsys_result"
  echo "wall: $(( $(date +%s) - start )) s"
} >> "$OUT/summary.txt"
if [[ ! -f "$OUT/summary.json" ]]; then echo '{}' > "$OUT/summary.json"; fi
python3 - "$OUT/summary.json" "$tests_rc" "$bench_rc" "$OUT/compress/compress.json" <<'PY' || true
import json, os, sys
p, t, b, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
j = json.load(open(p))
j["tests_rc"], j["bench_rc"] = t, b
if os.path.exists(c):
    j["compression"] = json.load(open(c))  # fp16_over_none_time_loop per budget, the runs, the errors
json.dump(j, open(p, "w"), indent=2)
PY
cat "$OUT/summary.txt" | tail -3
exit $(( tests_rc != 0 || gradtest_rc != 0 || bench_rc != 0 || headline_rc != 0 || nsys_rc != 0 ))
