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
# outside BUILD_DIR; exits with the suite's status. On 2 cores: about 25 minutes to build the
# first time, 4 to 10 to run.
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
# No copy of a formula compiled in a kernel file (contracted) may stand in for the CPU backend's own
# at link time: the revwave functions that both define as weak (inline) symbols, if any.
objs=$(find "$build/tests/CMakeFiles/revwave_cudasim.dir" -name "*.cu.o")
weak() { nm -C --defined-only "$@" 2>/dev/null | awk '$2 == "W" && / revwave::/ { $1 = ""; $2 = ""; print }' | sort -u; }
shared=$(comm -12 <(weak $objs) <(weak "$build"/host/librevwave_*.a))
if [ -n "$shared" ]; then
  echo "contracted_emulation: the kernels and the CPU backend share these out-of-line functions:" >&2
  echo "$shared" | head -20 >&2
  exit 1
fi
set +e
OMP_WAIT_POLICY=PASSIVE "$build/tests/revwave_cudasim_tests" --gtest_filter="$filter" --gtest_brief=1 \
  >"$build/contracted_emulation.log" 2>&1
status=$?
set -e
grep -E "^\[  (FAILED|PASSED) |test suites ran|Failure|Expected|actual" "$build/contracted_emulation.log" || true
echo "contracted_emulation: the largest derived comparisons (of their tolerance):"
grep "\[ rounding \]" "$build/contracted_emulation.log" | awk '{print $(NF-2), $0}' | sort -g | tail -3 | cut -d' ' -f2-
exit "$status"
