// SparsePoints on the device, with the gather table (distinct indices, their corners in order)
// that makes injection deterministic without atomics.
#pragma once
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/sparse_points.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"

namespace revwave {

template <class T>
class DevicePoints {
 public:
  DevicePoints() = default;
  explicit DevicePoints(const SparsePoints& points);
  const PointsView<T>& view() const { return view_; }

 private:
  DeviceBuffer index_, weight_, target_index_, target_begin_, corner_;
  PointsView<T> view_{};
};

}  // namespace revwave
