#include "revwave/cuda/backend/acoustic_device_physics.hpp"

#include <algorithm>
#include <stdexcept>

#include "revwave/cuda/kernels/acoustic/sweep_restore.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

template <class T>
SweepArgs<T> forward_sweep_args(const DeviceProblem<T>& dev, const Grid& grid, const DeviceForwardSweep<T>& s) {
  SweepArgs<T> a = dev.sweep_base();
  a.u = s.u;
  a.u_prev = s.u_prev;
  a.out = s.out;
  if (s.illuminate != nullptr) {
    a.illuminate.sum = s.illuminate;
    for (int axis = 0; axis < 3; ++axis) {
      a.illuminate.lo[axis] = grid.layer_lo(axis);
      a.illuminate.shape[axis] = grid.shape[axis];
    }
  }
  return a;
}

template <class T>
SweepArgs<T> reverse_sweep_args(const DeviceProblem<T>& dev, const DeviceReverseStep<T>& step) {
  SweepArgs<T> b = dev.sweep_base();
  b.u = step.u;
  b.u_prev = step.u_prev;
  b.lam = step.lam;
  b.lam_prev = step.lam_prev;
  b.out = step.lam_out;
  b.grad = step.grad;
  return b;
}

template <class T>
AcousticDevicePhysics<T>::AcousticDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, bool engine,
                                                cudaStream_t stream)
    : p_(problem), dev_(dev), engine_(engine) {
  size_top(stream);
}

template <class T>
void AcousticDevicePhysics<T>::size_top(cudaStream_t stream) {
  if (!p_.grid.free_surface) return;
  const std::size_t bytes = static_cast<std::size_t>(free_surface_pass().points()) * sizeof(T);
  if (saved_top_.bytes() >= bytes) return;
  if (engine_ && saved_top_.bytes() > 0) REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  saved_top_ = DeviceBuffer(engine_ ? bytes + bytes / 4 : bytes, "the gradient at the free surface's rows");
}

template <class T>
bool AcousticDevicePhysics<T>::retarget(UploadRing* /*ring*/, cudaStream_t stream) {
  size_top(stream);  // it keeps nothing else of the problem
  return true;
}

template <class T>
FreeSurfacePass<T> AcousticDevicePhysics<T>::free_surface_pass() {
  FreeSurfacePass<T> a;
  a.s = dev_.sweep_base();
  a.radius = p_.grid.radius();
  a.rows = std::min(p_.grid.radius(), p_.grid.padded(2));
  a.saved = saved_top_.template as<T>();
  return a;
}

template <class T>
void AcousticDevicePhysics<T>::free_surface_step(const T* field, T* out, cudaStream_t stream) {
  if (!p_.grid.free_surface) return;
  FreeSurfacePass<T> a = free_surface_pass();
  a.field = field;
  a.out = out;
  launch_free_surface_step(a, radius(), stream);
}

template <class T>
void AcousticDevicePhysics<T>::forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) {
  if (s.decode_u != nullptr) {  // the restored state's u_prev field holds nothing yet
    if (s.illuminate != nullptr || s.encode != nullptr)
      throw std::logic_error("AcousticDevicePhysics: a restore's sweep neither encodes nor illuminates");
    RestoreStep<T> r;
    r.sweep = dev_.sweep_base();
    r.sweep.out = s.out;
    r.u_code = s.decode_u;
    r.u_prev_code = s.decode_u_prev;
    r.bf16 = s.decode_bf16;
    r.u_decoded = s.u_decoded;
    launch_restore_step(r, radius(), stream);
    free_surface_step(s.u_decoded, s.out, stream);
    return;
  }
  SweepArgs<T> a = forward_sweep_args(dev_, p_.grid, s);
  if (s.encode != nullptr) a.encode = *s.encode;
  launch_sweep(a, radius(), stream, kernel_);
  free_surface_step(s.u, s.out, stream);
}

template <class T>
void AcousticDevicePhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) {
  SweepArgs<T> a = dev_.sweep_base();
  a.u = lam;
  a.u_prev = lam_prev;
  a.out = out;
  launch_sweep(a, radius(), stream, kernel_);
  free_surface_step(lam, out, stream);
}

template <class T>
void AcousticDevicePhysics<T>::probes(const ProbeStep<T>& step, cudaStream_t stream) {
  launch_probes(step, radius(), stream);
}

// The sweep with the free surface's passes around it.
template <class T>
void AcousticDevicePhysics<T>::reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) {
  FreeSurfacePass<T> top = free_surface_pass();
  if (p_.grid.free_surface) {
    top.grad = step.grad;
    launch_free_surface_save(top, stream);
  }
  launch_sweep(reverse_sweep_args(dev_, step), radius(), stream, kernel_);
  if (p_.grid.free_surface) {
    top.field = step.u;
    top.u_prev = step.u_prev;
    top.lam = step.lam;
    top.out = step.lam_out;
    launch_free_surface_reverse(top, radius(), stream);
  }
}

template class AcousticDevicePhysics<float>;
template class AcousticDevicePhysics<double>;
template SweepArgs<float> reverse_sweep_args(const DeviceProblem<float>&, const DeviceReverseStep<float>&);
template SweepArgs<double> reverse_sweep_args(const DeviceProblem<double>&, const DeviceReverseStep<double>&);
template SweepArgs<float> forward_sweep_args(const DeviceProblem<float>&, const Grid&,
                                             const DeviceForwardSweep<float>&);
template SweepArgs<double> forward_sweep_args(const DeviceProblem<double>&, const Grid&,
                                              const DeviceForwardSweep<double>&);

}  // namespace revwave
