// --boundary cpml on the CUDA propagator, pass for pass what CpmlCpuPhysics does on the CPU
// (numerics/boundary/cpml_physics.hpp) around whichever physics the propagator runs: its tables
// (profile, slab points, region points and their divisors, which probes lie in the region) built
// on the host once and uploaded; nu and mu of the adjoint in a buffer of its own (the adjoint is not
// checkpointed); psi and zeta ride in every field's tail (Grid::cpml_values), so every store and
// history that copies a field's field_bytes carries them. The propagator calls these in the CPU's order.
#pragma once
#include <functional>

#include "revwave/cuda/backend/density_device_physics.hpp"
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
class CpmlDevicePhysics {
 public:
  // `a_at`: the update's divisor a at an allocated-grid index (an engine's window reads it from the resident model).
  CpmlDevicePhysics(const Problem<T>& problem, const std::function<T(index_t)>& a_at);
  // After the physics' forward sweep into out (before the sources): psi, zeta and C / a.
  void forward(const T* u, T* out, cudaStream_t stream);
  // After the physics' adjoint sweep into out (before the adjoint source): nu, mu and C' / a.
  void adjoint(const T* lam, T* out, cudaStream_t stream);
  // Before the probe kernel: C / a at the probes in the region, which `step` then adds before the sources.
  void probe_share(const T* u, ProbeStep<T>& step, cudaStream_t stream);
  // A reverse step: before the physics' sweep, dJ/dm at the region saved; `region_probes` and
  // `region_next` for the physics' u[n+1] there (no sources); after it, the completion.
  void save_gradient(const T* grad, cudaStream_t stream);
  const ProbesView& region_probes() const { return region_probes_; }
  T* region_next() { return next_.template as<T>(); }
  void reverse(const DeviceReverseStep<T>& step, cudaStream_t stream);
  void reset(cudaStream_t stream) { adjoint_.zero_async(stream); }
  // With a variable density: its coefficients on the device (the layer stretches its flux form,
  // numerics/boundary/cpml_point.hpp) and dJ/drho's accumulator when imaging (null otherwise).
  void use_density(const DensityCoefficients<T>& c, T* image);
  // The last of a reverse step, after the density's own image: the layer's share of dJ/drho.
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream);

 private:
  const Problem<T>& p_;
  int radius_;
  CpmlTables<T> t_;
  DeviceBuffer a_[3], b_[3], d1_, d2_;
  DeviceBuffer slab_axis_, slab_offset_, slab_index_, slab_x_;
  DeviceBuffer region_index_, region_at_, divisor_, region_sources_;
  DeviceBuffer probe_region_, share_;
  ProbesView region_probes_{};
  index_t probes_ = 0;
  DeviceBuffer psi_, adjoint_, grad0_, next_;
  DeviceBuffer stagger_;  // the density's staggered weights, as T
  T* image_ = nullptr;    // dJ/drho's accumulator (the density physics')
};

}  // namespace revwave
