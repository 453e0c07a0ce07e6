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

#include "revwave/cuda/backend/device_physics.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

template <class T>
class DensityDevicePhysics final : public DevicePhysics<T> {
 public:
  // `field_capacity`: bytes of the largest field it will hold (an engine's windows), at least the
  // problem's. The problem's coefficients go to the device through `ring` on `stream` when given
  // (an engine's shot), else synchronously.
  DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, std::size_t field_capacity,
                       UploadRing* ring, cudaStream_t stream);

  // out = the update with K u (forward) or K^T lam (adjoint), no source terms; out may alias u_prev.
  void forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) override;
  void probes(const ProbeStep<T>& step, cudaStream_t stream) override;
  // The fused reverse sweep: lam[n+1] and dJ/dm.
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  // dJ/drho's share imaged, when the problem images it.
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  void reset_adjoint(cudaStream_t stream) override;
  // The new window's coefficients uploaded into the same buffers (it was built for the largest).
  bool retarget(UploadRing* ring, cudaStream_t stream) override;
  std::vector<double> density_gradient(cudaStream_t stream) override;
  // Valid until the next retarget.
  std::optional<DensityCoefficients<T>> density_coefficients() const override { return coefficients(); }
  T* density_image() override { return imaging() ? image_.template as<T>() : nullptr; }

 private:
  bool imaging() const { return p_.density->image; }
  void assign(UploadRing* ring, cudaStream_t stream);
  void sweep(const T* u, const T* u_prev, T* out, bool adjoint, cudaStream_t stream);
  DensityCoefficients<T> coefficients() const;
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
