// The adjoint state of a CUDA run: lam[n+2] and lam[n+1] (swapped by every reverse step) and the
// gradient's accumulator, each a field of the pool's size (an engine's: its largest window's).
#pragma once
#include <cstddef>

#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

struct DeviceAdjoint {
  DeviceAdjoint() = default;
  explicit DeviceAdjoint(std::size_t field_bytes)
      : lam(field_bytes, "an adjoint wavefield"),
        lam_prev(field_bytes, "an adjoint wavefield"),
        grad(field_bytes, "the gradient") {}
  // All three zeroed on `stream` (a new reverse sweep).
  void reset(cudaStream_t stream) {
    lam.zero_async(stream);
    lam_prev.zero_async(stream);
    grad.zero_async(stream);
  }
  // lam[n+1] becomes the next step's lam[n+2].
  void advance() { swap(lam, lam_prev); }

  DeviceBuffer lam, lam_prev, grad;
};

}  // namespace revwave
