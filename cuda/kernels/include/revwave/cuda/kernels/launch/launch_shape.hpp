// A launch's shape and one thread's place in it, as plain data. On a GPU a thread reads its place
// from blockIdx/threadIdx (this_thread); the CPU emulation the GPU suites run against in CI
// (tests/cudasim) hands every place of the same shape to the same body (kernel_launch.hpp).
#pragma once
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "revwave/core/config.hpp"
#include "revwave/core/dispatch_radius.hpp"

namespace revwave {

struct Dim {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchShape {
  Dim grid, block;
};

struct ThreadPlace {
  Dim block;   // blockIdx
  Dim thread;  // threadIdx
};

#if defined(__CUDACC__)
__device__ __forceinline__ ThreadPlace this_thread() {
  return {{blockIdx.x, blockIdx.y, blockIdx.z}, {threadIdx.x, threadIdx.y, threadIdx.z}};
}
#endif

// Blocks of `block` threads covering n items along one axis.
inline unsigned blocks_covering(index_t n, unsigned block) {
  return static_cast<unsigned>((n + block - 1) / static_cast<index_t>(block));
}

// A 1D launch of `block`-thread blocks, a thread per item, and a thread's item in it.
inline LaunchShape linear_shape(index_t items, unsigned block) {
  return {{blocks_covering(items, block), 1, 1}, {block, 1, 1}};
}
REVWAVE_HD index_t linear_index(const ThreadPlace& p, unsigned block) {
  return static_cast<index_t>(p.block.x) * block + p.thread.x;
}

}  // namespace revwave
