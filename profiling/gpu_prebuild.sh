#!/usr/bin/env bash
# Builds here, on a machine with nvcc but no GPU, what profiling/gpu_check.sh runs on a lent GPU
# machine, so that the lease's minutes go to measuring rather than compiling: the GPU suites, the
# benchmark and the command-line tool (without MPI) for sm_90 (build-gpu, with ptxas's register
# and spill report), copied with the shared libraries the GPU image may lack (zfp, segyio, libpng,
# the CUDA runtime) into .gpu-prebuilt/ (git-ignored, about 20 MB). Then one device call:
#   carry [".gpu-prebuilt", ".deps"],
#   command: REVWAVE_GPU_PREBUILT=.gpu-prebuilt REVWAVE_DEPS_PREFIX=.deps/root profiling/gpu_check.sh "$OUT/gc"
# (.deps from profiling/gpu_deps.sh is the fallback: gpu_check.sh builds there if the carried
# binaries do not load.)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${REVWAVE_GPU_BUILD:-build-gpu}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DREVWAVE_PTXAS_VERBOSE=ON -DREVWAVE_MPI=OFF -DREVWAVE_CUDASIM=OFF > "$BUILD.configure.log" 2>&1 ||
  { tail -30 "$BUILD.configure.log"; echo "gpu_prebuild: configure failed (log: $BUILD.configure.log)" >&2; exit 1; }
# A clean rebuild (of the whole build directory), so that ptxas's report covers every kernel.
cmake --build "$BUILD" --target clean > /dev/null
cmake --build "$BUILD" -j "$(nproc)" --target revwave_cuda_tests revwave_gpu_bench revwave > "$BUILD.build.log" 2>&1 ||
  { tail -40 "$BUILD.build.log"; exit 1; }
rm -rf .gpu-prebuilt
mkdir -p .gpu-prebuilt/lib
cp "$BUILD/revwave_cuda_tests" "$BUILD/revwave_gpu_bench" "$BUILD/revwave" .gpu-prebuilt/
grep -E "ptxas info|spill" "$BUILD.build.log" > .gpu-prebuilt/ptxas.txt || true
# What the GPU image may lack; what it has for certain (libc, libstdc++, libgomp with its
# compiler, zlib) stays behind. Every library the three programs link is listed in
# .gpu-prebuilt/needed.txt, so that a load failure there can be read against it.
for lib in libzfp.so.1 libcudart.so.13 libsegyio.so.1 libpng16.so.16; do
  path=$(ldd "$BUILD/revwave" | awk -v l="$lib" '$1 == l { print $3 }')
  [[ -n "$path" ]] || { echo "gpu_prebuild: $lib not linked by revwave" >&2; exit 1; }
  cp -L "$path" .gpu-prebuilt/lib/
done
for exe in revwave revwave_cuda_tests revwave_gpu_bench; do
  ldd ".gpu-prebuilt/$exe" | awk '{ print $1 }'
done | sort -u > .gpu-prebuilt/needed.txt
git rev-parse HEAD > .gpu-prebuilt/commit
du -sh .gpu-prebuilt
