#!/usr/bin/env bash
# Builds here, on a machine with nvcc but no GPU, what profiling/gpu_check.sh runs on a lent GPU
# machine, so that the lease's minutes go to measuring rather than compiling: the GPU suites, the
# benchmark and the command-line tool (without MPI) for sm_90 (build-gpu, with ptxas's register
# and spill report), packed with the shared libraries they load into .gpu-prebuilt.tar.xz
# (git-ignored; a device call carries 64 MiB at most, and the binaries alone are 75 MB unpacked).
#   profiling/gpu_prebuild.sh                 configure and clean-build build-gpu, then pack
#   profiling/gpu_prebuild.sh --pack BUILD [DEST]
#                                             pack an existing build (DEST: .gpu-prebuilt)
# What is packed cannot drift from the build:
#   - the programs are those CMake names at generate time (BUILD/carried_programs.txt, written
#     with $<TARGET_FILE>: revwave, and revwave_cuda_tests and revwave_gpu_bench where built);
#   - the libraries are what ldd resolves for them here, every one but the base any Linux image
#     has (glibc's, libstdc++, libgcc_s, libgomp, zlib) and the GPU driver's own (libcuda,
#     libnvidia-*), which must be the machine's; a library ldd cannot resolve stops the pack.
# DEST/needed.txt lists every library the programs load, DEST/commit the tree's commit.
# Tests/ci/test_gpu_prebuild.py packs the test build's programs and checks both.
# Then one device call:
#   carry [".gpu-prebuilt.tar.xz", ".deps"],
#   command: tar -xJf .gpu-prebuilt.tar.xz && REVWAVE_GPU_PREBUILT=.gpu-prebuilt
#            REVWAVE_DEPS_PREFIX=.deps/root profiling/gpu_check.sh "$OUT/gc"
# (.deps from profiling/gpu_deps.sh is the fallback: gpu_check.sh builds there if the carried
# binaries do not load.)
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
# A path the caller gave, from the caller's directory.
from_caller() { [[ "$1" = /* ]] && echo "$1" || echo "$caller/$1"; }

# Libraries the GPU image has for certain, or that must be its own.
base='^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libgomp|libz|libcuda|libnvidia-[^ ]*)\.so'

pack() {  # BUILD DEST
  local build=$1 dest=$2 list="$1/carried_programs.txt"
  [[ -f "$list" ]] || { echo "gpu_prebuild: $list is missing (configure $build with this tree)" >&2; exit 1; }
  # DEST is made anew: only a previous pack (its commit file) is replaced, never the build or a
  # folder that holds it.
  local b d
  b=$(readlink -m "$build")
  d=$(readlink -m "$dest")
  if [[ "$b" == "$d" || "$b" == "$d"/* ]]; then
    echo "gpu_prebuild: DEST $dest would replace the build $build it packs: give another folder" >&2
    exit 2
  fi
  if [[ -e "$dest" && ! -f "$dest/commit" ]]; then
    echo "gpu_prebuild: DEST $dest exists and is no earlier pack (it has no commit file): not replaced" >&2
    exit 2
  fi
  rm -rf "$dest" "$dest.tar.xz"
  mkdir -p "$dest/lib"
  local programs=() p
  while IFS= read -r p; do
    [[ -n "$p" ]] || continue
    [[ -x "$p" ]] || { echo "gpu_prebuild: $p (named by $list) is not built" >&2; exit 1; }
    programs+=("$p")
    cp "$p" "$dest/"
  done < "$list"
  local unresolved
  unresolved=$(ldd "${programs[@]}" | awk '/not found/ { print $1 }' | sort -u)
  [[ -z "$unresolved" ]] || { echo "gpu_prebuild: ldd cannot resolve $unresolved here" >&2; exit 1; }
  local name path
  ldd "${programs[@]}" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
    while read -r name path; do
      [[ "$name" =~ $base ]] || cp -L "$path" "$dest/lib/$name"
    done
  ldd "${programs[@]}" | awk '$NF !~ /:$/ && ($2 == "=>" || $1 ~ /^\//) { print $1 }' | sort -u > "$dest/needed.txt"
  git rev-parse HEAD > "$dest/commit" 2>/dev/null || echo unknown > "$dest/commit"
  [[ -f "$build.build.log" ]] && { grep -E "ptxas info|spill" "$build.build.log" > "$dest/ptxas.txt" || true; }
  tar -C "$(dirname "$dest")" -cJf "$dest.tar.xz" "$(basename "$dest")"
  du -sh "$dest" "$dest.tar.xz"
}

if [[ "${1:-}" == "--pack" ]]; then
  [[ -n "${2:-}" ]] || { echo "usage: profiling/gpu_prebuild.sh --pack BUILD [DEST]" >&2; exit 2; }
  pack "$(from_caller "$2")" "$(from_caller "${3:-.gpu-prebuilt}")"
  exit 0
fi

BUILD=${REVWAVE_GPU_BUILD:-build-gpu}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DREVWAVE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DREVWAVE_PTXAS_VERBOSE=ON -DREVWAVE_MPI=OFF -DREVWAVE_CUDASIM=OFF > "$BUILD.configure.log" 2>&1 ||
  { tail -30 "$BUILD.configure.log"; echo "gpu_prebuild: configure failed (log: $BUILD.configure.log)" >&2; exit 1; }
# A clean rebuild (of the whole build directory), so that ptxas's report covers every kernel.
cmake --build "$BUILD" --target clean > /dev/null
cmake --build "$BUILD" -j "$(nproc)" --target revwave_cuda_tests revwave_gpu_bench revwave > "$BUILD.build.log" 2>&1 ||
  { tail -40 "$BUILD.build.log"; exit 1; }
pack "$BUILD" .gpu-prebuilt
