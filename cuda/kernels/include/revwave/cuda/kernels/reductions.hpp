// Device-wide reductions in double (CUB, run-to-run deterministic) with their scratch allocated
// once: Thrust's default allocator would allocate, and so synchronise the device, on every call.
// The result stays on the device; the caller copies it back when (and if) the host needs it.
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

template <class T>
class DeviceReducer {
 public:
  // Scratch for reductions of up to max_items values (allocated now).
  explicit DeviceReducer(std::size_t max_items);
  // *device_out = sum_i x_i^2, enqueued on `stream`.
  void sum_squares(const T* data, std::size_t n, double* device_out, cudaStream_t stream);
  // *device_out = max_i |x_i|; NaN propagates as NaN, so a blown-up field is never reported finite.
  void max_abs(const T* data, std::size_t n, double* device_out, cudaStream_t stream);

 private:
  std::size_t max_items_;
  DeviceBuffer scratch_;
};

}  // namespace revwave
