#!/usr/bin/env bash
# The inversion state's save against another commit's (default 61495a7, the last with format 3):
# profiling/state_save_bench.cpp built against each library, run alternately ROUNDS times at N^3.
# Prints each run's JSON: first_save_s (every file), iteration_save_min_s / _median_s (a save as
# an iteration pays it: one new pair), bytes_on_disk.
# Usage: profiling/state_save_ab.sh [N=160] [ROUNDS=3] [REF=61495a7] [DIR=/tmp]
#   (build this tree first: cmake --build build --target revwave_state_save_bench)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-160}; rounds=${2:-3}; ref=${3:-61495a7}; where=${4:-/tmp}
here=$(pwd)
a_bin=build/revwave_state_save_bench
[ -x "$a_bin" ] || { echo "build $a_bin first (cmake --build build --target revwave_state_save_bench)" >&2; exit 1; }
sha=$(git rev-parse --short "$ref^{commit}")
ref_dir=${REVWAVE_REF_DIR:-/tmp/revwave-ref-$sha}
if [ ! -d "$ref_dir" ]; then git worktree add --detach "$ref_dir" "$sha" >/dev/null; fi
if [ ! -x "$ref_dir/build/state_save_bench_ref" ]; then
  # The benchmark is this tree's source, built in REF's tree against REF's library, where save
  # returns nothing and nothing is cleaned up (REVWAVE_STATE_BENCH_PRUNE=0).
  cp "$here/profiling/state_save_bench.cpp" "$ref_dir/profiling/state_save_bench_ref.cpp"
  grep -q state_save_bench_ref "$ref_dir/CMakeLists.txt" || cat >>"$ref_dir/CMakeLists.txt" <<'CMAKE'
add_executable(state_save_bench_ref profiling/state_save_bench_ref.cpp)
target_link_libraries(state_save_bench_ref PRIVATE revwave_host)
target_compile_definitions(state_save_bench_ref PRIVATE REVWAVE_STATE_BENCH_PRUNE=0)
set_target_properties(state_save_bench_ref PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
CMAKE
  cmake -S "$ref_dir" -B "$ref_dir/build" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=OFF -DREVWAVE_CUDASIM=OFF >/dev/null
  cmake --build "$ref_dir/build" -j2 --target state_save_bench_ref >/dev/null
fi
for r in $(seq "$rounds"); do
  echo "A (this tree)  $("$a_bin" "$n" 4 "$where/revwave-state-a")"
  echo "B ($sha)  $("$ref_dir/build/state_save_bench_ref" "$n" 4 "$where/revwave-state-b")"
done
