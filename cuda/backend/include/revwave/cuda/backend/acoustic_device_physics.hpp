// The constant-density acoustic equation on the CUDA propagator, kernel for kernel what
// AcousticCpuPhysics does on the CPU (numerics/acoustic/acoustic_physics.hpp): the sweep kernel
// the propagator chose (sweep_kernels.hpp), the free surface's top rows after it, u[n+1] at the
// probes, and the fused reverse sweep with the free surface's passes around it. Its forward sweep
// is the one that can do things in passing (DeviceForwardSweep): the fused codec's encode and
// decode, and the illumination.
#pragma once
#include "revwave/cuda/backend/device_physics.hpp"
#include "revwave/cuda/kernels/boundary/free_surface_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {

// The column sweep's arguments for a forward sweep `s` of the grid's u (no codec): dev's constants,
// s's fields and its illumination sum (over grid's interior) when it asks for one.
template <class T>
SweepArgs<T> forward_sweep_args(const DeviceProblem<T>& dev, const Grid& grid, const DeviceForwardSweep<T>& s);
// The fused reverse sweep's arguments for `step`.
template <class T>
SweepArgs<T> reverse_sweep_args(const DeviceProblem<T>& dev, const DeviceReverseStep<T>& step);

template <class T>
class AcousticDevicePhysics final : public DevicePhysics<T> {
 public:
  // `engine`: buffers grown with room to spare, after the work that still reads them (retarget).
  AcousticDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, bool engine, cudaStream_t stream);

  void forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) override;
  void probes(const ProbeStep<T>& step, cudaStream_t stream) override;
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  bool retarget(UploadRing* ring, cudaStream_t stream) override;
  bool fuses_codec() const override { return true; }
  bool illuminates_in_passing() const override { return revwave::illuminates_in_passing(kernel_); }
  void set_sweep_kernel(SweepKernel k) override { kernel_ = k; }

 private:
  int radius() const { return static_cast<int>(p_.grid.radius()); }
  // --free-surface: the top rows' buffer (the gradient there before a reverse sweep), grown only.
  void size_top(cudaStream_t stream);
  FreeSurfacePass<T> free_surface_pass();
  // --free-surface: the top rows' pass after a forward or adjoint sweep.
  void free_surface_step(const T* field, T* out, cudaStream_t stream);

  const Problem<T>& p_;
  const DeviceProblem<T>& dev_;
  bool engine_;
  SweepKernel kernel_ = SweepKernel::columns;
  DeviceBuffer saved_top_;  // --free-surface: the gradient at the top rows before the sweep
};

}  // namespace revwave
