// The read-only part of a Problem on the device: m, damping profiles, wavelet, sources,
// receivers and their per-corner scales, the reverse step's probes (NextFieldProbes), plus the
// sweep arguments that never change during a shot.
#pragma once
#include <functional>

#include "revwave/cuda/backend/device_points.hpp"
#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// Where a shot engine's window comes from: the resident model's m on the device (cut into the
// window's m there; the Problem's own m is not used), and a = m/dt^2 + eta/(2 dt) at the points'
// corners from the resident model on the host (for the per-corner scales).
template <class T>
struct ResidentWindow {
  const T* whole_m = nullptr;  // device, the whole model's interior points
  WindowPlace place;
  std::function<T(index_t idx)> a_at;
};

template <class T>
class DeviceProblem {
 public:
  DeviceProblem() = default;
  // Uploads everything, m included, synchronously (a propagator for one run).
  explicit DeviceProblem(const Problem<T>& problem);
  // A shot engine's: a window of the resident model, everything copied through `ring` on `stream`
  // into buffers that only grow; nothing waits.
  DeviceProblem(const Problem<T>& problem, const ResidentWindow<T>& window, UploadRing& ring, cudaStream_t stream);
  // The next shot (engine only).
  void assign(const Problem<T>& problem, const ResidentWindow<T>& window, UploadRing& ring, cudaStream_t stream);

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
  // Everything but m; `a_at` gives a at an allocated-grid index.
  void set_tables(const Problem<T>& p, const std::function<T(index_t)>& a_at, UploadRing* ring, cudaStream_t stream);
  Grid grid_;
  DeviceBuffer m_, kx_, ky_, kz_, wavelet_, src_scale_, rec_scale_;
  DevicePoints<T> src_, rec_;
  DeviceBuffer probe_index_, probe_source_begin_, probe_source_corner_, receiver_probe_, target_probe_;
  ProbesView probes_{};
  SweepArgs<T> base_{};
};

}  // namespace revwave
