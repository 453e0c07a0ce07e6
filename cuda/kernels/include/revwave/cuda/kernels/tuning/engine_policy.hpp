// Tuning constants of the shot engine's kernels (revwave/cuda/backend/engine_launch.hpp): 1D
// launches, a thread per padded point, tile value or interior point.
#pragma once

namespace revwave::tuning {

struct EnginePolicy {
  static constexpr unsigned block_threads = 256;
  static constexpr int blocks_per_sm = 1;
};

}  // namespace revwave::tuning
