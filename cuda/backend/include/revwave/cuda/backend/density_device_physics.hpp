// The variable-density equation as the CUDA propagator's physics (device_physics.hpp), kernel for
// kernel what DensityCpuPhysics does (numerics/density/density_physics.hpp): its coefficients s
// and t in device memory, and when the problem images dJ/drho its two accumulators, K u at the
// probes and, where a source injects, y and G before the sweep.
#pragma once
#include "revwave/cuda/backend/device_physics.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

template <class T>
class DensityDevicePhysics final : public DevicePhysics<T> {
 public:
  DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev);
  void forward_sweep(const T* u, const T* u_prev, T* out, cudaStream_t stream) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) override;
  void probes(const ProbeStep<T>& step, const T* lam, cudaStream_t stream) override;
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  void reset_images(cudaStream_t stream) override;
  std::vector<double> density_gradient(cudaStream_t stream) override;

 private:
  bool imaging() const { return p_.density->image; }
  DensitySweepArgs<T> args(const T* u, const T* u_prev, T* out) const;

  const Problem<T>& p_;
  const DeviceProblem<T>& dev_;
  int radius_;
  DeviceBuffer s_, t_;
  DeviceBuffer image_g_, image_q_, k_u_, y_, saved_g_;  // when imaging
};

}  // namespace revwave
