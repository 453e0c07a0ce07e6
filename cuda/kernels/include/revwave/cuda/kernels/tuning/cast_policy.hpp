// Tuning constants of the checkpoint cast kernels (cast_kernels.hpp): 1D launches, a thread per
// packed value.
#pragma once

namespace revwave::tuning {

struct CastPolicy {
  static constexpr unsigned block_threads = 256;
  static constexpr int blocks_per_sm = 1;
};

}  // namespace revwave::tuning
