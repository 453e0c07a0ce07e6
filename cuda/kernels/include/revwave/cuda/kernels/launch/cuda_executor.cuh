// The launch layer's GPU executor (kernel_launch.hpp): one __global__ entry point per launch
// struct, its __launch_bounds__ from the struct's policy, and the thread's view of the hardware
// (DeviceThread: the built-in indices, warp intrinsics, barriers, shared memory).
#pragma once
#include <type_traits>

#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave::launch {

template <class S>
class DeviceThread {
 public:
  __device__ explicit DeviceThread(S* shared) : shared_(shared) {}
  __device__ ThreadPlace place() const { return this_thread(); }
  __device__ unsigned lane() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % warp_size;
  }
  __device__ void sync_block() const { __syncthreads(); }
  __device__ void sync_warp(unsigned mask = full_mask) const { __syncwarp(mask); }
  template <class V>
  __device__ V shfl(unsigned mask, V v, int src, int width = warp_size) const {
    return __shfl_sync(mask, v, src, width);
  }
  template <class V>
  __device__ V shfl_up(unsigned mask, V v, unsigned delta, int width = warp_size) const {
    return __shfl_up_sync(mask, v, delta, width);
  }
  template <class V>
  __device__ V shfl_down(unsigned mask, V v, unsigned delta, int width = warp_size) const {
    return __shfl_down_sync(mask, v, delta, width);
  }
  template <class V>
  __device__ V shfl_xor(unsigned mask, V v, int lane_mask, int width = warp_size) const {
    return __shfl_xor_sync(mask, v, lane_mask, width);
  }
  __device__ unsigned ballot(unsigned mask, bool p) const { return __ballot_sync(mask, p); }
  __device__ bool any(unsigned mask, bool p) const { return __any_sync(mask, p) != 0; }
  __device__ bool all(unsigned mask, bool p) const { return __all_sync(mask, p) != 0; }
  template <class U>
  __device__ U& shared() const {
    static_assert(std::is_same_v<U, S>, "shared<S>(): the launch struct's Shared type");
    return *shared_;
  }
  template <class V>
  __device__ V shared_load(const V* p) const {
    return *p;
  }
  template <class V>
  __device__ void shared_store(V* p, V v) const {
    *p = v;
  }

 private:
  S* shared_;
};

template <class K>
__global__ void __launch_bounds__(K::max_threads, K::min_blocks) kernel_entry(const K k) {
  if constexpr (std::is_same_v<typename K::Shared, NoShared>) {
    DeviceThread<NoShared> t(nullptr);
    k(t);
  } else {
    __shared__ typename K::Shared shared;
    DeviceThread<typename K::Shared> t(&shared);
    k(t);
  }
}

template <class K>
void execute(const K& k, const LaunchShape& s, cudaStream_t stream) {
  kernel_entry<K><<<dim3(s.grid.x, s.grid.y, s.grid.z), dim3(s.block.x, s.block.y, s.block.z), 0, stream>>>(k);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace revwave::launch
