// The launch layer: a kernel is written once, as a launch struct, and the same .cu file either
// launches it on a GPU (nvcc: cuda_executor.cuh, a real <<<>>> launch) or runs it on cudasim, the
// CUDA runtime emulated on the CPU (tests/cudasim compiles the .cu files as C++ and names its
// block/thread executor, with the race checkers, by -DREVWAVE_LAUNCH_EXECUTOR=<header>). How a grid
// of blocks is executed is the only thing the two backends do differently.
//
// A launch struct K holds the kernel's arguments by value and states:
//   static constexpr const char* name;    what reports call it ("the sweep")
//   static constexpr Sync sync;           none: threads share nothing; warp: they use warp
//                                         collectives (shuffles, votes, __syncwarp); block:
//                                         __syncthreads and shared memory as well
//   static constexpr unsigned max_threads;  __launch_bounds__: threads per block, and the blocks
//   static constexpr int min_blocks;        per SM it is compiled for (from its tuning policy)
//   using Shared = ...;                   its static shared memory per block (NoShared: none)
//   LaunchShape shape() const;            grid and block (a grid without blocks launches nothing)
//   void accesses(MemoryAccesses&) const; what it reads and writes (cudasim's stream-order checker)
//   template <class Thread> REVWAVE_HD void operator()(Thread& t) const;   one thread's work
// The Thread it is given (DeviceThread on a GPU, cudasim::SimThread on the CPU) offers place()
// (blockIdx, threadIdx) and lane(); for warp kernels sync_warp(mask), shfl, shfl_up, shfl_down,
// shfl_xor, ballot, any, all (the *_sync intrinsics); for block kernels also sync_block() and
// shared<Shared>(), with shared_load / shared_store for the accesses cudasim's shared-memory race
// checker should see. A body calls only what its `sync` declares (cudasim refuses the rest).
//
// Adding a kernel family (say boundary/ or density/):
//   1. its thread bodies, host+device (REVWAVE_HD), in a header of cuda/kernels/include/...;
//   2. its tuning constants (block shape, chunk lengths) in one policy header under tuning/;
//   3. its launch structs (the concept above) in a header, accesses declared with the struct;
//   4. a .cu file in cuda/kernels/src whose launch_* functions call launch::enqueue(K{...}, stream), with
//      explicit instantiations. nvcc builds it for the GPU; cudasim compiles the same file (every
//      cuda/*/src/*.cu but the CUB wrappers), so nothing is added under tests/cudasim.
// Only .cu files include this header (the GPU executor declares __global__ functions).
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/launch/launch_shape.hpp"
#include "revwave/cuda/kernels/launch/memory_access.hpp"

namespace revwave::launch {

enum class Sync { none, warp, block };

// A kernel without static shared memory.
struct NoShared {};

inline constexpr unsigned warp_size = 32;
inline constexpr unsigned full_mask = 0xffffffffu;

// What every 1D kernel of a policy shares: a thread per item in blocks of Policy::block_threads, no
// shared memory, no collectives. A kernel struct derives from it and gives shape() and run().
template <class P>
struct LinearKernel {
  using Policy = P;
  using Shared = NoShared;
  static constexpr Sync sync = Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  static LaunchShape shape_for(index_t items) { return linear_shape(items, Policy::block_threads); }
  REVWAVE_HD static index_t item(const ThreadPlace& p) { return linear_index(p, Policy::block_threads); }
};

}  // namespace revwave::launch

// The executor: the one a build names (tests/cudasim's on the CPU), else a real launch. This header
// names no file outside the library.
#if defined(REVWAVE_LAUNCH_EXECUTOR)
#include REVWAVE_LAUNCH_EXECUTOR
#else
#include "revwave/cuda/kernels/launch/cuda_executor.cuh"
#endif

namespace revwave::launch {

// Enqueues kernel `k` on `stream`.
template <class K>
void enqueue(const K& k, cudaStream_t stream) {
  const LaunchShape s = k.shape();
  if (s.grid.x == 0 || s.grid.y == 0 || s.grid.z == 0) return;
  execute(k, s, stream);
}

}  // namespace revwave::launch
