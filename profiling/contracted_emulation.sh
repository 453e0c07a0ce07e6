#!/usr/bin/env bash
# The GPU suites on cudasim with a GPU's rounding emulated: the kernel bodies compiled with
# -ffp-contract=fast (the host compiler fuses a * b + c where it chooses, as nvcc does on the
# device; the CPU backend and the host code keep -ffp-contract=off). The suites then compare the
# device with the CPU within the tolerances derived for a GPU (tests/cuda/cpu_rounding.hpp), and
# every device-only bit contract (each strategy equal to full) must still hold. What a GPU's own
# run of the suites would find about rounding, without a GPU; not its speed, nor nvcc's exact
# choice of what to fuse (docs/gpu.md, "Tolerances on a GPU").
#   profiling/contracted_emulation.sh [BUILD_DIR=build-contract] [GTEST_FILTER=*]
# Configures BUILD_DIR (Release, CUDA off, cudasim on, REVWAVE_CUDASIM_FP_CONTRACT=ON), builds the
# cudasim suites and runs them; prints one line per failed test and the counts. Nothing is written
# outside BUILD_DIR. On 2 cores: about 25 minutes to build, 15 to run.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-contract}
filter=${2:-*}
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=OFF -DREVWAVE_CUDASIM=ON \
  -DREVWAVE_CUDASIM_FP_CONTRACT=ON -DREVWAVE_PYTHON=OFF >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
# The kernels must have been compiled contracted: the flag on their command lines, last.
grep -q -- "-ffp-contract=fast" "$build/tests/CMakeFiles/revwave_cudasim.dir/flags.make" ||
  { echo "contracted_emulation: the kernels' flags lack -ffp-contract=fast" >&2; exit 1; }
cmake --build "$build" -j"$(nproc)" --target revwave_cudasim_tests
OMP_WAIT_POLICY=PASSIVE "$build/tests/revwave_cudasim_tests" --gtest_filter="$filter" --gtest_brief=1 \
  2>&1 | tee "$build/contracted_emulation.log" | grep -E "^\[  (FAILED|PASSED) |tests ran|Failure|Expected|Which is|which is" || true
