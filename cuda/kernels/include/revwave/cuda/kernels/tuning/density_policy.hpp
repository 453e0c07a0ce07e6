// Tuning constants of the variable-density kernels (density/density_launch.hpp).
#pragma once
#include "revwave/core/config.hpp"

namespace revwave::tuning {

// The sweep: a thread owns one (y, z) column and walks a chunk of x planes, a warp spanning 32
// consecutive z of a row (whole sectors per plane access; the stencils' neighbours of u, lam, s,
// t and B from L1/L2). Not measured on a GPU yet.
struct DensitySweepPolicy {
  static constexpr unsigned block_z = 32;
  static constexpr unsigned block_y = 8;
  static constexpr index_t chunk_x = 16;  // x planes a thread walks
  static constexpr unsigned block_threads = block_z * block_y;
  static constexpr int blocks_per_sm = 1;
};

// dJ/drho's imaging pass, once per reverse step: the sweep's layout (a thread per (y, z) column
// over a chunk of x planes), its stencils reading u, lam and the five coefficient fields. Not
// measured on a GPU yet.
struct DensityImagePolicy {
  static constexpr unsigned block_z = 32;
  static constexpr unsigned block_y = 8;
  static constexpr index_t chunk_x = 16;
  static constexpr unsigned block_threads = block_z * block_y;
  static constexpr int blocks_per_sm = 1;
};

}  // namespace revwave::tuning
