// The variable-density equation on the CUDA propagator, kernel for kernel what DensityCpuPhysics
// does on the CPU (numerics/density/density_physics.hpp): its coefficients (s, t and the half
// points' B per axis) in device memory; the sweeps (K, K^T, the fused reverse sweep) with the free
// surface's top rows computed around them; u[n+1] at the probes; and, when the problem images
// dJ/drho, one accumulator that a pass at the end of every reverse step adds to (lam[n+1]
// complete, u[n] the step's). The CudaPropagator keeps the fields, the traces, the probes' tables,
// dJ/dm's re-imaging and the adjoint source's injection, and calls these in the CPU propagator's
// order. Nothing waits for the device but density_gradient (the accumulator read back once,
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
};

template <class T>
class DensityDevicePhysics {
 public:
  // `field_capacity`: bytes of the largest field it will hold (an engine's windows), at least the problem's.
  DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, std::size_t field_capacity);
  // The problem's coefficients to the device (through `ring` on `stream` when given: an engine's
  // shot; else synchronously), and the buffers sized for it.
  void assign(UploadRing* ring, cudaStream_t stream);

  // out = the update with K u (forward) or K^T lam (adjoint), no source terms; out may alias u_prev.
  void sweep(const T* u, const T* u_prev, T* out, bool adjoint, cudaStream_t stream);
  // u[n+1] at the probes (ProbeStep's contract).
  void probes(const ProbeStep<T>& step, cudaStream_t stream);
  // The fused reverse sweep: lam[n+1] and dJ/dm.
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream);
  // The last thing of a reverse step (lam[n+1] complete: every boundary's and the adjoint source's
  // share in): dJ/drho's share imaged, when the problem images it.
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream);
  void reset_images(cudaStream_t stream);
  // dJ/drho at the interior points when the problem images it (waits for the device); else empty.
  std::vector<double> density_gradient(cudaStream_t stream);
  // The coefficients on the device (a boundary stretching the same operator: the C-PML) and
  // dJ/drho's accumulator (null unless imaging), valid until the next assign.
  DensityCoefficients<T> coefficients() const;
  T* image() { return imaging() ? image_.template as<T>() : nullptr; }

 private:
  bool imaging() const { return p_.density->image; }
  DensitySweepArgs<T> args(const T* u, const T* u_prev, T* out) const;
  // The sweep with the free surface's top rows around it (density/cpu_sweep.cpp's order).
  void sweep_with_top(const DensitySweepArgs<T>& a, cudaStream_t stream);

  const Problem<T>& p_;
  const DeviceProblem<T>& dev_;
  DeviceBuffer s_, t_, b_[3];  // the coefficients (b: z, y, x)
  DeviceBuffer image_;         // dJ/drho's accumulator, when imaging
  DeviceBuffer top_;           // --free-surface: the top rows' new values
};

}  // namespace revwave
