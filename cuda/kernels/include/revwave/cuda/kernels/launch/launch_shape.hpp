// A launch's shape and one thread's place in it, as plain data. On a GPU a thread reads its place
// from blockIdx/threadIdx (this_thread); the CPU emulation the GPU suites run against in CI
// (tests/cudasim) hands every place of the same shape to the same body (kernel_launch.hpp).
#pragma once
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "revwave/core/config.hpp"

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

// Calls f(std::integral_constant<int, R>{}) for the stencil radius R = radius (1..8).
template <class F>
void dispatch_radius(int radius, F&& f) {
  switch (radius) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: throw std::logic_error("stencil radius out of range");
  }
}

}  // namespace revwave
