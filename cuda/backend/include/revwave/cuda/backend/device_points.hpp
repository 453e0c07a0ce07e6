// SparsePoints on the device, with the gather table (distinct indices, their corners in order)
// that makes injection deterministic without atomics.
#pragma once
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/sparse_points.hpp"

namespace revwave {

template <class T>
class DevicePoints {
 public:
  DevicePoints() = default;
  explicit DevicePoints(const SparsePoints& points) { assign(points, nullptr, nullptr); }
  // Another shot's points: with a ring, copied through it on `stream` into buffers that only grow;
  // without, allocated to size and uploaded synchronously.
  void assign(const SparsePoints& points, UploadRing* ring, cudaStream_t stream);
  const PointsView<T>& view() const { return view_; }

 private:
  DeviceBuffer index_, weight_, target_index_, target_begin_, corner_;
  PointsView<T> view_{};
};

// dst = v on the device: through `ring` into a buffer grown when too small, or (no ring) a new
// buffer of v's size uploaded synchronously.
template <class V>
void put_on_device(DeviceBuffer& dst, const std::vector<V>& v, const char* what, UploadRing* ring,
                   cudaStream_t stream) {
  const std::size_t bytes = v.size() * sizeof(V);
  if (ring == nullptr) {
    dst = DeviceBuffer(bytes, what);
    dst.upload(v.data(), bytes);
    return;
  }
  if (dst.bytes() < bytes) {
    if (dst.bytes() > 0) REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));  // kernels may still read the old one
    dst = DeviceBuffer(bytes + bytes / 4, what);
  }
  ring->upload(dst.data(), v.data(), bytes, stream);
}

}  // namespace revwave
