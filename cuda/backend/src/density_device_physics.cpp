#include "revwave/cuda/backend/density_device_physics.hpp"

#include <algorithm>
#include <stdexcept>

#include "revwave/core/host_buffer.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/numerics/density/density_gradient.hpp"

namespace revwave {

template <class T>
DensityDevicePhysics<T>::DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                              std::size_t field_capacity)
    : p_(problem), dev_(dev) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  const std::size_t bytes = std::max(field_capacity, p_.grid.template field_bytes<T>());
  s_ = DeviceBuffer(bytes, "the density's s = rho^-1/2");
  t_ = DeviceBuffer(bytes, "the density's t = rho^1/2");
  if (!imaging()) return;
  // Now, with the propagator's fields: before any checkpoint takes its share of the device.
  image_g_ = DeviceBuffer(bytes, "dJ/drho's accumulator G");
  image_q_ = DeviceBuffer(bytes, "dJ/drho's accumulator Q");
}

template <class T>
void DensityDevicePhysics<T>::assign(UploadRing* ring, cudaStream_t stream) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  const std::size_t bytes = p_.grid.template field_bytes<T>();
  if (bytes > s_.bytes()) throw std::logic_error("DensityDevicePhysics: the window exceeds the fields' capacity");
  if (ring != nullptr) {
    ring->upload(s_.data(), p_.density->s.data(), bytes, stream);
    ring->upload(t_.data(), p_.density->t.data(), bytes, stream);
  } else {
    s_.upload(p_.density->s.data(), bytes);
    t_.upload(p_.density->t.data(), bytes);
  }
  // Grown only, after the work that still reads them (an engine's shots take at least the first's).
  const Grid& g = p_.grid;
  const index_t rows = std::min(g.radius(), g.padded(2));
  const std::size_t top = static_cast<std::size_t>(g.padded(0) * g.padded(1) * rows * (imaging() ? 4 : 2)) * sizeof(T);
  if (g.free_surface && top_.bytes() < top) {
    REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    top_ = DeviceBuffer(top + top / 4, "the free surface's rows");
  }
  if (!imaging()) return;
  const std::size_t probes = static_cast<std::size_t>(std::max<index_t>(dev_.probes().count, 1)) * sizeof(T);
  if (k_u_.bytes() >= probes) return;
  REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
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
  a.s = s_.template as<T>();
  a.t = t_.template as<T>();
  return a;
}

template <class T>
void DensityDevicePhysics<T>::sweep_with_top(const DensitySweepArgs<T>& a, cudaStream_t stream) {
  const int radius = static_cast<int>(p_.grid.radius());
  if (!p_.grid.free_surface) {
    launch_density_sweep(a, radius, stream);
    return;
  }
  DensityTopPass<T> top;
  top.sweep = a;
  top.radius = p_.grid.radius();
  top.rows = std::min(p_.grid.radius(), p_.grid.padded(2));
  top.scratch = top_.template as<T>();
  if (static_cast<std::size_t>(top.points() * top.values()) * sizeof(T) > top_.bytes())
    throw std::logic_error("DensityDevicePhysics: the free surface's rows exceed their buffer");
  launch_density_top_compute(top, radius, stream);  // from whole inputs (out may alias u_prev)
  launch_density_sweep(a, radius, stream);
  launch_density_top_write(top, stream);
}

template <class T>
void DensityDevicePhysics<T>::sweep(const T* u, const T* u_prev, T* out, bool adjoint, cudaStream_t stream) {
  DensitySweepArgs<T> a = args(u, u_prev, out);
  a.adjoint = adjoint;
  sweep_with_top(a, stream);
}

template <class T>
void DensityDevicePhysics<T>::probes(const ProbeStep<T>& step, const T* lam, cudaStream_t stream) {
  DensityProbeStep<T> a;
  a.base = step;
  a.s = s_.template as<T>();
  a.t = t_.template as<T>();
  if (imaging() && lam != nullptr) {
    a.lam = lam;
    a.image_g = image_g_.template as<T>();
    a.k_u = k_u_.template as<T>();
    a.y = y_.template as<T>();
    a.saved_g = saved_g_.template as<T>();
  }
  launch_density_probes(a, static_cast<int>(p_.grid.radius()), stream);
}

template <class T>
void DensityDevicePhysics<T>::reverse_sweep(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  DensitySweepArgs<T> a = args(s.u, s.u_prev, s.lam_out);
  a.base.lam = s.lam;
  a.base.lam_prev = s.lam_prev;
  a.base.grad = s.grad;
  if (imaging()) {
    a.image_g = image_g_.template as<T>();
    a.image_q = image_q_.template as<T>();
  }
  sweep_with_top(a, stream);
  if (imaging()) reimage_sources(s, stream);
}

template <class T>
void DensityDevicePhysics<T>::reimage_sources(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  DensityReimage<T> r;
  r.lam = s.lam_out;
  r.s = s_.template as<T>();
  r.next = s.next;
  r.k_u = k_u_.template as<T>();
  r.y = y_.template as<T>();
  r.saved_g = saved_g_.template as<T>();
  r.image_g = image_g_.template as<T>();
  launch_density_reimage(dev_.probes(), r, stream);
}

template <class T>
DensityRegionImages<T> DensityDevicePhysics<T>::region_images(const ProbesView& points) {
  DensityRegionImages<T> a;
  a.s = s_.template as<T>();
  a.t = t_.template as<T>();
  a.free_surface = p_.grid.free_surface;
  a.points = points;
  a.kept_g = kept_g_.template as<T>();
  a.kept_q = kept_q_.template as<T>();
  a.image_g = image_g_.template as<T>();
  a.image_q = image_q_.template as<T>();
  return a;
}

template <class T>
void DensityDevicePhysics<T>::keep_images_at(const ProbesView& points, cudaStream_t stream) {
  if (!imaging()) return;
  const std::size_t bytes = static_cast<std::size_t>(std::max<index_t>(points.count, 1)) * sizeof(T);
  if (kept_g_.bytes() < bytes) {  // grown only, after the work that still reads them (an engine's shots)
    REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    kept_g_ = DeviceBuffer(bytes, "G kept near a boundary");
    kept_q_ = DeviceBuffer(bytes, "Q kept near a boundary");
  }
  launch_density_keep_images(region_images(points), stream);
}

template <class T>
void DensityDevicePhysics<T>::reimage_at(const ProbesView& points, const DeviceReverseStep<T>& s, const T* u_next,
                                         cudaStream_t stream) {
  if (!imaging()) return;
  DensityRegionImages<T> a = region_images(points);
  a.sweep = dev_.sweep_base();
  a.sweep.u = s.u;
  a.sweep.lam = s.lam;
  a.lam_out = s.lam_out;
  a.u_next = u_next;
  launch_density_region_reimage(a, static_cast<int>(p_.grid.radius()), stream);
  reimage_sources(s, stream);
}

template <class T>
void DensityDevicePhysics<T>::after_adjoint_source(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  if (!imaging()) return;
  DensityAdjointSourceImages<T> a;
  a.source = s.r_next;
  a.scale = dev_.rec_scale();
  a.target_probe = dev_.probes().target_probe;
  a.k_u = k_u_.template as<T>();
  a.u = s.u;
  a.image_g = image_g_.template as<T>();
  a.image_q = image_q_.template as<T>();
  launch_density_adjoint_source(dev_.rec(), a, stream);
}

template <class T>
void DensityDevicePhysics<T>::reset_images(cudaStream_t stream) {
  if (!imaging()) return;
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
                                        p_.density->t.template as<T>(), g.template as<T>(), q.template as<T>());
}

template class DensityDevicePhysics<float>;
template class DensityDevicePhysics<double>;

}  // namespace revwave
