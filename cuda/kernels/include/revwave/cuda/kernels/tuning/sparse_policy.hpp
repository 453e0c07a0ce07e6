// Tuning constants of the sparse kernels (sparse_threads.hpp): 1D launches, a thread per item.
#pragma once

namespace revwave::tuning {

struct SparsePolicy {
  static constexpr unsigned block_threads = 256;
  static constexpr int blocks_per_sm = 1;  // no register cap: the launches are small
};

}  // namespace revwave::tuning
