#!/usr/bin/env bash
# Prepares, on a machine with Debian's registry, what profiling/gpu_check.sh needs on a GPU
# machine that reaches none: the build dependencies' Debian packages, downloaded and unpacked
# (dpkg -x) into .deps/root (git-ignored, about 10 MB). Then one device call:
#   carry [".deps"], command: REVWAVE_DEPS_PREFIX=.deps/root profiling/gpu_check.sh "$OUT"
# The GPU image brings nvcc, g++ (with OpenMP) and CMake itself.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libcli11-dev libgtest-dev nlohmann-json3-dev libpng-dev libpng16-16 zlib1g-dev zlib1g libsegyio-dev libsegyio1
          libzfp-dev libzfp1)
rm -rf .deps/debs .deps/root
mkdir -p .deps/debs .deps/root
(cd .deps/debs && apt-get download "${packages[@]}")
for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
rm -rf .deps/debs
du -sh .deps/root
