#include "revwave/cuda/backend/density_device_physics.hpp"

#include <algorithm>
#include <stdexcept>

#include "revwave/numerics/density/density_gradient.hpp"

namespace revwave {

template <class T>
DensityDevicePhysics<T>::DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev)
    : p_(problem), dev_(dev), radius_(static_cast<int>(problem.grid.radius())) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  const std::size_t bytes = p_.grid.template field_bytes<T>();
  s_ = DeviceBuffer(bytes, "the density's s = rho^-1/2");
  t_ = DeviceBuffer(bytes, "the density's t = rho^1/2");
  s_.upload(p_.density->s.data(), bytes);
  t_.upload(p_.density->t.data(), bytes);
  if (!imaging()) return;
  // Now, with the propagator's fields: before any checkpoint takes its share of the device.
  image_g_ = DeviceBuffer(bytes, "dJ/drho's accumulator G");
  image_q_ = DeviceBuffer(bytes, "dJ/drho's accumulator Q");
  const std::size_t probes = static_cast<std::size_t>(std::max<index_t>(dev_.probes().count, 1)) * sizeof(T);
  k_u_ = DeviceBuffer(probes, "K u at the probes");
  y_ = DeviceBuffer(probes, "y at the source probes");
  saved_g_ = DeviceBuffer(probes, "G at the source probes");
}

template <class T>
DensitySweepArgs<T> DensityDevicePhysics<T>::args(const T* u, const T* u_prev, T* out) const {
  DensitySweepArgs<T> a;
  a.base = dev_.sweep_base();
  a.base.u = u;
  a.base.u_prev = u_prev;
  a.base.out = out;
  a.s = s_.as<T>();
  a.t = t_.as<T>();
  return a;
}

template <class T>
void DensityDevicePhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out, cudaStream_t stream) {
  launch_density_sweep(args(u, u_prev, out), radius_, stream);
}

template <class T>
void DensityDevicePhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) {
  DensitySweepArgs<T> a = args(lam, lam_prev, out);
  a.adjoint = true;
  launch_density_sweep(a, radius_, stream);
}

template <class T>
void DensityDevicePhysics<T>::probes(const ProbeStep<T>& step, const T* lam, cudaStream_t stream) {
  DensityProbeStep<T> a;
  a.base = step;
  a.s = s_.as<T>();
  a.t = t_.as<T>();
  if (imaging() && lam != nullptr) {
    a.lam = lam;
    a.image_g = image_g_.as<T>();
    a.k_u = k_u_.as<T>();
    a.y = y_.as<T>();
    a.saved_g = saved_g_.as<T>();
  }
  launch_density_probes(a, radius_, stream);
}

template <class T>
void DensityDevicePhysics<T>::reverse_sweep(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  DensitySweepArgs<T> a = args(s.u, s.u_prev, s.lam_out);
  a.base.lam = s.lam;
  a.base.lam_prev = s.lam_prev;
  a.base.grad = s.grad;
  if (imaging()) {
    a.image_g = image_g_.as<T>();
    a.image_q = image_q_.as<T>();
  }
  launch_density_sweep(a, radius_, stream);
  if (!imaging()) return;
  DensityReimage<T> r;
  r.lam = s.lam_out;
  r.s = s_.as<T>();
  r.next = s.next;
  r.k_u = k_u_.as<T>();
  r.y = y_.as<T>();
  r.saved_g = saved_g_.as<T>();
  r.image_g = image_g_.as<T>();
  launch_density_reimage(dev_.probes(), r, stream);
}

template <class T>
void DensityDevicePhysics<T>::after_adjoint_source(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  if (!imaging()) return;
  DensityAdjointSourceImages<T> a;
  a.source = s.r_next;
  a.scale = dev_.rec_scale();
  a.target_probe = dev_.probes().target_probe;
  a.k_u = k_u_.as<T>();
  a.u = s.u;
  a.image_g = image_g_.as<T>();
  a.image_q = image_q_.as<T>();
  launch_density_adjoint_source(dev_.rec(), a, stream);
}

template <class T>
void DensityDevicePhysics<T>::reset_images(cudaStream_t stream) {
  image_g_.zero_async(stream);
  image_q_.zero_async(stream);
}

// Read back once, finished on the host by the CPU's own code (density_gradient.hpp).
template <class T>
std::vector<double> DensityDevicePhysics<T>::density_gradient(cudaStream_t stream) {
  if (!imaging()) return {};
  const std::size_t bytes = p_.grid.template field_bytes<T>();
  HostBuffer g(bytes), q(bytes);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(g.data(), image_g_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(q.data(), image_q_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return ::revwave::density_gradient<T>(p_.grid, p_.weights, p_.density->s.template as<T>(),
                                        p_.density->t.template as<T>(), g.as<T>(), q.as<T>());
}

template class DensityDevicePhysics<float>;
template class DensityDevicePhysics<double>;

}  // namespace revwave
