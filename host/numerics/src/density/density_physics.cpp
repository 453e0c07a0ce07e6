#include "revwave/numerics/density/density_physics.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "../sweep_rows.hpp"
#include "revwave/numerics/density/cpu_sweep.hpp"
#include "revwave/numerics/density/density_gradient.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

template <class T>
DensityCpuPhysics<T>::DensityCpuPhysics(const Problem<T>& problem) : p_(problem) {
  if (!p_.density) throw std::logic_error("the density physics on a problem without a density");
  if (imaging()) {  // with the propagator's fields, before any checkpoint takes its share of memory
    image_g_ = HostBuffer(p_.grid.template field_bytes<T>());
    image_q_ = HostBuffer(p_.grid.template field_bytes<T>());
  }
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
  image_g_.zero();
  image_q_.zero();
}

// As the propagator does for dJ/dm: where a source injects, the sweep imaged with u[n+1] less its
// source term, so G is imaged again there from its value before the sweep, with the whole u[n+1].
template <class T>
void DensityCpuPhysics<T>::reverse_sweep(const ReverseStepView<T>& v) {
  T* g = imaging() ? image_g_.template as<T>() : nullptr;
  T* q = imaging() ? image_q_.template as<T>() : nullptr;
  const NextFieldProbes& pr = *v.probes;
  if (g != nullptr) {
    k_u_.resize(pr.size());
    density_operator_at(p_, v.u, pr.index.data(), pr.size(), k_u_.data());
    if (source_index_.size() != pr.source_targets.size()) {
      source_index_.clear();
      for (index_t t : pr.source_targets) source_index_.push_back(pr.index[static_cast<std::size_t>(t)]);
      y_.resize(source_index_.size());
      saved_g_.resize(source_index_.size());
    }
    density_y_at(p_, v.lam, source_index_.data(), source_index_.size(), y_.data());
    for (std::size_t i = 0; i < source_index_.size(); ++i) saved_g_[i] = g[source_index_[i]];
  }
  density_reverse_sweep<T>(p_, {v.u, v.u_prev, v.lam, v.lam_prev, v.lam_out, v.grad, g, q});
  if (g == nullptr) return;
  const T* s = p_.density->s.template as<T>();
  for (std::size_t i = 0; i < source_index_.size(); ++i) {
    const index_t t = pr.source_targets[i], idx = source_index_[i];
    g[idx] = saved_g_[i] + density_image_g(v.lam_out[idx], k_u_[static_cast<std::size_t>(t)], s[idx],
                                           v.next[static_cast<std::size_t>(t)], y_[i]);
  }
}

template <class T>
bool DensityCpuPhysics<T>::keep_images_at(const index_t* index, std::size_t count) {
  if (!imaging()) return false;
  const T* g = image_g_.template as<T>();
  const T* q = image_q_.template as<T>();
  kept_ = index;
  kept_g_.resize(count);
  kept_q_.resize(count);
  kept_k_u_.resize(count);
  kept_y_.resize(count);
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (n > 4096)
  for (std::int64_t i = 0; i < n; ++i) {
    kept_g_[static_cast<std::size_t>(i)] = g[index[i]];
    kept_q_[static_cast<std::size_t>(i)] = q[index[i]];
  }
  return true;
}

// G and Q at the kept points from their values before the sweep, with the completed lam[n+1] and
// u[n+1]; where a source injects, u[n+1] is the probes' (its source term included), as in
// reverse_sweep. K u[n] and y(lam[n+2]) read only fields the completion does not change.
template <class T>
void DensityCpuPhysics<T>::reimage_at(const ReverseStepView<T>& v, const T* u_next) {
  const std::size_t n = kept_g_.size();
  T* g = image_g_.template as<T>();
  T* q = image_q_.template as<T>();
  const T* s = p_.density->s.template as<T>();
  density_operator_at(p_, v.u, kept_, n, kept_k_u_.data());
  density_y_at(p_, v.lam, kept_, n, kept_y_.data());
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel if (count > 4096)
  {
    const sweep_rows::FlushSubnormals flush;  // as the sweep that imaged the other points
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) {
      const index_t idx = kept_[i];
      const auto k = static_cast<std::size_t>(i);
      const T lam = v.lam_out[idx];
      g[idx] = kept_g_[k] + density_image_g(lam, kept_k_u_[k], s[idx], u_next[i], kept_y_[k]);
      q[idx] = kept_q_[k] + density_image_q(lam, v.u[idx]);
    }
  }
  const NextFieldProbes& pr = *v.probes;
  for (std::size_t k = 0; k < source_index_.size(); ++k) {
    const index_t idx = source_index_[k];
    const index_t* at = std::lower_bound(kept_, kept_ + n, idx);
    if (at == kept_ + n || *at != idx) continue;
    const auto i = static_cast<std::size_t>(at - kept_);
    g[idx] = kept_g_[i] + density_image_g(v.lam_out[idx], kept_k_u_[i], s[idx],
                                          v.next[static_cast<std::size_t>(pr.source_targets[k])], kept_y_[i]);
  }
}

// lam[n+1] grew by delta = w r / a at each receiver corner (the propagator's sum, recomputed in its
// order): G and Q take delta's share, G with K u[n] from the probes.
template <class T>
void DensityCpuPhysics<T>::after_adjoint_source(const ReverseStepView<T>& v) {
  if (!imaging()) return;
  T* g = image_g_.template as<T>();
  T* q = image_q_.template as<T>();
  const NextFieldProbes& pr = *v.probes;
  for (index_t r = 0; r < p_.rec.count; ++r)
    for (int c = 0; c < 8; ++c) {
      const std::size_t k = static_cast<std::size_t>(8 * r + c);
      const index_t idx = p_.rec.index[k];
      const T delta = static_cast<T>(p_.rec.weight[k]) * v.r_next[r] * v.rec_scale[k];
      g[idx] += delta * k_u_[static_cast<std::size_t>(pr.receiver_probe[k])];
      q[idx] += density_image_q(delta, v.u[idx]);
    }
}

template <class T>
std::vector<double> DensityCpuPhysics<T>::density_gradient() const {
  if (!imaging()) return {};
  return ::revwave::density_gradient<T>(p_.grid, p_.weights, p_.density->s.template as<T>(),
                                        p_.density->t.template as<T>(), image_g_.template as<T>(),
                                        image_q_.template as<T>());
}

template class DensityCpuPhysics<float>;
template class DensityCpuPhysics<double>;

}  // namespace revwave
