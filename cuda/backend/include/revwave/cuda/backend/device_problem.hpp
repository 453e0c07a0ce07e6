// The read-only part of a Problem on the device: m, damping profiles, wavelet, sources,
// receivers and their per-corner scales, the reverse step's probes (NextFieldProbes), plus the
// sweep arguments that never change.
#pragma once
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/backend/device_points.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave {

template <class T>
class DeviceProblem {
 public:
  explicit DeviceProblem(const Problem<T>& problem);

  // Sweep arguments with everything but the fields filled in.
  const SweepArgs<T>& sweep_base() const { return base_; }
  const PointsView<T>& src() const { return src_.view(); }
  const PointsView<T>& rec() const { return rec_.view(); }
  const T* src_scale() const { return src_scale_.as<T>(); }  // per corner: 1 / (h^3 a)
  const T* rec_scale() const { return rec_scale_.as<T>(); }  // per corner: 1 / a
  const T* wavelet() const { return wavelet_.as<T>(); }
  const ProbesView& probes() const { return probes_; }
  FoldShape fold_shape() const;
  std::size_t bytes() const;

 private:
  const Grid grid_;
  DeviceBuffer m_, kx_, ky_, kz_, wavelet_, src_scale_, rec_scale_;
  DevicePoints<T> src_, rec_;
  DeviceBuffer probe_index_, probe_source_begin_, probe_source_corner_, receiver_probe_, target_probe_;
  ProbesView probes_{};
  SweepArgs<T> base_{};
};

}  // namespace revwave
