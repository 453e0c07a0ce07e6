#include "revwave/cuda/backend/density_device_physics.hpp"

#include <algorithm>
#include <stdexcept>

#include "revwave/core/host_buffer.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/numerics/density/density_gradient.hpp"

namespace revwave {

template <class T>
DensityDevicePhysics<T>::DensityDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                              std::size_t field_capacity, UploadRing* ring, cudaStream_t stream)
    : p_(problem), dev_(dev) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  const std::size_t bytes = std::max(field_capacity, p_.grid.template field_bytes<T>());
  s_ = DeviceBuffer(bytes, "the density's s = rho^-1/2");
  t_ = DeviceBuffer(bytes, "the density's t = rho^1/2");
  const char* b_what[3] = {"the density's B along z", "the density's B along y", "the density's B along x"};
  for (int a = 0; a < 3; ++a) b_[a] = DeviceBuffer(bytes, b_what[a]);
  // Now, with the propagator's fields: before any checkpoint takes its share of the device.
  if (imaging()) image_ = DeviceBuffer(bytes, "dJ/drho's accumulator");
  assign(ring, stream);
}

template <class T>
bool DensityDevicePhysics<T>::retarget(UploadRing* ring, cudaStream_t stream) {
  if (!p_.density || p_.density->image != static_cast<bool>(image_.bytes())) return false;
  assign(ring, stream);
  return true;
}

template <class T>
void DensityDevicePhysics<T>::assign(UploadRing* ring, cudaStream_t stream) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  const DensityFields& f = *p_.density;
  const std::size_t bytes = p_.grid.template field_bytes<T>();
  if (bytes > s_.bytes()) throw std::logic_error("DensityDevicePhysics: the window exceeds the fields' capacity");
  DeviceBuffer* device[5] = {&s_, &t_, &b_[0], &b_[1], &b_[2]};
  const HostBuffer* host[5] = {&f.s, &f.t, &f.b[0], &f.b[1], &f.b[2]};
  for (int k = 0; k < 5; ++k) {
    if (ring != nullptr)
      ring->upload(device[k]->data(), host[k]->data(), bytes, stream);
    else
      device[k]->upload(host[k]->data(), bytes);
  }
  // Grown only, after the work that still reads it (an engine's shots take at least the first's).
  const Grid& g = p_.grid;
  const index_t rows = std::min(g.radius(), g.padded(2));
  const std::size_t top = static_cast<std::size_t>(g.padded(0) * g.padded(1) * rows * 2) * sizeof(T);
  if (g.free_surface && top_.bytes() < top) {
    REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    top_ = DeviceBuffer(top + top / 4, "the free surface's rows");
  }
}

template <class T>
DensityCoefficients<T> DensityDevicePhysics<T>::coefficients() const {
  DensityCoefficients<T> c;
  c.s = s_.template as<T>();
  c.t = t_.template as<T>();
  for (int a = 0; a < 3; ++a) c.b[a] = b_[a].template as<T>();
  const std::vector<double>& d = p_.density->stagger;
  const auto rd = static_cast<std::size_t>(p_.grid.radius() + 1) / 2;  // stagger_radius<R>
  if (rd > static_cast<std::size_t>(stagger_radius<max_radius>) || d.size() <= rd)
    throw std::logic_error("DensityDevicePhysics: the staggered weights do not match the radius");
  for (std::size_t q = 1; q <= rd; ++q) c.d[q] = static_cast<T>(d[q]);
  return c;
}

template <class T>
DensitySweepArgs<T> DensityDevicePhysics<T>::args(const T* u, const T* u_prev, T* out) const {
  DensitySweepArgs<T> a;
  a.base = dev_.sweep_base();
  a.base.u = u;
  a.base.u_prev = u_prev;
  a.base.out = out;
  a.rho = coefficients();
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
void DensityDevicePhysics<T>::forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) {
  if (s.extras()) throw std::logic_error("DensityDevicePhysics: its sweep does nothing in passing");
  sweep(s.u, s.u_prev, s.out, false, stream);
}

template <class T>
void DensityDevicePhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) {
  sweep(lam, lam_prev, out, true, stream);
}

template <class T>
void DensityDevicePhysics<T>::probes(const ProbeStep<T>& step, cudaStream_t stream) {
  DensityProbeStep<T> a;
  a.base = step;
  a.rho = coefficients();
  launch_density_probes(a, static_cast<int>(p_.grid.radius()), stream);
}

template <class T>
void DensityDevicePhysics<T>::reverse_sweep(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  DensitySweepArgs<T> a = args(s.u, s.u_prev, s.lam_out);
  a.base.lam = s.lam;
  a.base.lam_prev = s.lam_prev;
  a.base.grad = s.grad;
  sweep_with_top(a, stream);
}

template <class T>
void DensityDevicePhysics<T>::after_adjoint_source(const DeviceReverseStep<T>& s, cudaStream_t stream) {
  if (!imaging()) return;
  DensityImageStep<T> a;
  a.sweep = dev_.sweep_base();
  a.sweep.u = s.u;
  a.sweep.lam = s.lam_out;
  a.rho = coefficients();
  a.free_surface = p_.grid.free_surface;
  a.image = image_.template as<T>();
  launch_density_image(a, static_cast<int>(p_.grid.radius()), stream);
}

template <class T>
void DensityDevicePhysics<T>::reset_adjoint(cudaStream_t stream) {
  if (imaging()) image_.zero_async(stream);
}

// Read back once, finished on the host by the CPU's own code (density_gradient.hpp).
template <class T>
std::vector<double> DensityDevicePhysics<T>::density_gradient(cudaStream_t stream) {
  if (!imaging()) return {};
  const std::size_t bytes = p_.grid.template field_bytes<T>();
  HostBuffer image(bytes);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(image.data(), image_.data(), bytes, cudaMemcpyDeviceToHost, stream));
  REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return ::revwave::density_gradient<T>(p_.grid, image.template as<T>(), p_.density->reference);
}

template class DensityDevicePhysics<float>;
template class DensityDevicePhysics<double>;

}  // namespace revwave
