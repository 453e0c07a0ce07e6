#include "revwave/numerics/density/density_physics.hpp"

#include <stdexcept>

#include "revwave/numerics/density/cpu_sweep.hpp"
#include "revwave/numerics/density/density_gradient.hpp"

namespace revwave {

template <class T>
DensityCpuPhysics<T>::DensityCpuPhysics(const Problem<T>& problem) : p_(problem) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  // With the propagator's fields, before any checkpoint takes its share of memory.
  if (imaging()) image_ = HostBuffer(p_.grid.template field_bytes<T>());
}

template <class T>
void DensityCpuPhysics<T>::forward_sweep(const T* u, const T* u_prev, T* out) {
  density_forward_sweep(p_, u, u_prev, out);
}

template <class T>
void DensityCpuPhysics<T>::adjoint_sweep(const T* lam, const T* lam_prev, T* out) {
  density_adjoint_sweep(p_, lam, lam_prev, out);
}

template <class T>
void DensityCpuPhysics<T>::next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) {
  density_next_at(p_, u, u_prev, index, count, out);
}

template <class T>
void DensityCpuPhysics<T>::reset_images() {
  image_.zero();
}

template <class T>
void DensityCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  density_reverse_sweep<T>(p_, {v.u, v.u_prev, v.lam, v.lam_prev, v.lam_out, v.grad});
}

// The last thing of a reverse step: lam[n+1] is complete, u[n] still the step's.
template <class T>
void DensityCpuPhysics<T>::after_adjoint_source(const ReverseStepView<T>& v) {
  if (imaging()) density_image_step(p_, v.u, v.lam_out, image_.template as<T>());
}

template <class T>
std::vector<double> DensityCpuPhysics<T>::density_gradient() const {
  if (!imaging()) return {};
  return ::revwave::density_gradient<T>(p_.grid, image_.template as<T>(), p_.density->reference);
}

template class DensityCpuPhysics<float>;
template class DensityCpuPhysics<double>;

}  // namespace revwave
