// The variable-density equation on the CUDA propagator, kernel for kernel what DensityCpuPhysics
// does on the CPU (numerics/density/density_physics.hpp): its coefficients s and t in device memory;
// the sweeps (K, K^T, the fused reverse sweep) with the free surface's top rows computed around
// them; and, when the problem images dJ/drho, its two accumulators, K u at the probes and, where a
// source injects, y and G before the sweep. The CudaPropagator keeps the fields, the traces, the
// probes' tables, dJ/dm's re-imaging and the adjoint source's injection, and calls these in the
// CPU propagator's order. Nothing waits for the device but density_gradient (G and Q read back once,
// finished on the host by the CPU's own density_gradient).
#pragma once
#include <vector>

#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

// One reverse step's fields, as the propagator holds them.
template <class T>
struct DeviceReverseStep {
  const T* u = nullptr;         // u[n]
  const T* u_prev = nullptr;    // u[n-1]
  const T* lam = nullptr;       // lam[n+2]
  const T* lam_prev = nullptr;  // lam[n+3]
  T* lam_out = nullptr;         // lam[n+1]; may alias lam_prev
  T* grad = nullptr;            // dJ/dm
  const T* next = nullptr;      // u[n+1] at the probes
  const T* r_next = nullptr;    // the adjoint source's sample n+1
};

template <class T>
class DensityDevicePhysics {
 public:
  // `field_capacity`: bytes of the largest field it will hold (an engine's windows), at least the problem's.
  DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, std::size_t field_capacity);
  // The problem's s and t to the device (through `ring` on `stream` when given: an engine's shot;
  // else synchronously), and the buffers sized for it.
  void assign(UploadRing* ring, cudaStream_t stream);

  // out = the update with K u (forward) or K^T lam (adjoint), no source terms; out may alias u_prev.
  void sweep(const T* u, const T* u_prev, T* out, bool adjoint, cudaStream_t stream);
  // u[n+1] at the probes (ProbeStep's contract); lam: lam[n+2] when a reverse step's, else null.
  void probes(const ProbeStep<T>& step, const T* lam, cudaStream_t stream);
  // The fused reverse sweep (lam[n+1], dJ/dm, dJ/drho's accumulators) and G re-imaged at the sources.
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream);
  // For a boundary that completes lam[n+1] and u[n+1] after the sweep at `points` (the C-PML's
  // region): G and Q kept there before reverse_sweep, and taken again after the completion (u_next
  // per point), then G at the sources again (DensityCpuPhysics::keep_images_at, reimage_at).
  void keep_images_at(const ProbesView& points, cudaStream_t stream);
  void reimage_at(const ProbesView& points, const DeviceReverseStep<T>& step, const T* u_next, cudaStream_t stream);
  // After the adjoint source went into lam at the receivers: its share of G and Q.
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream);
  void reset_images(cudaStream_t stream);
  // dJ/drho at the interior points when the problem images it (waits for the device); else empty.
  std::vector<double> density_gradient(cudaStream_t stream);

 private:
  bool imaging() const { return p_.density->image; }
  DensitySweepArgs<T> args(const T* u, const T* u_prev, T* out) const;
  // The sweep with the free surface's top rows around it (density/cpu_sweep.cpp's order).
  void sweep_with_top(const DensitySweepArgs<T>& a, cudaStream_t stream);
  // G at the probes with a source term from its value before the sweep, with lam[n+1] as it stands.
  void reimage_sources(const DeviceReverseStep<T>& step, cudaStream_t stream);
  DensityRegionImages<T> region_images(const ProbesView& points);

  const Problem<T>& p_;
  const DeviceProblem<T>& dev_;
  DeviceBuffer s_, t_;
  DeviceBuffer image_g_, image_q_, k_u_, y_, saved_g_;  // when imaging
  DeviceBuffer top_;                                    // --free-surface: the top rows' new values
  DeviceBuffer kept_g_, kept_q_;                        // keep_images_at's: G and Q at its points
};

}  // namespace revwave
