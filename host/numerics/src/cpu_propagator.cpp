#include "revwave/numerics/cpu_propagator.hpp"

#include <algorithm>
#include <cstring>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/numerics/cpu_sweep.hpp"
#include "revwave/store/memory_store.hpp"
#include "revwave/store/parallel_copy.hpp"

namespace revwave {
template <class T>
CpuPropagator<T>::CpuPropagator(const Problem<T>& problem) : p_(problem) {
  const std::size_t bytes = field_bytes();
  state_.u = HostBuffer(bytes);
  state_.u_prev = HostBuffer(bytes);
  const double h3 = p_.grid.spacing * p_.grid.spacing * p_.grid.spacing;
  src_scale_.resize(p_.src.index.size());
  for (std::size_t c = 0; c < src_scale_.size(); ++c)
    src_scale_[c] = static_cast<T>(1.0 / (h3 * static_cast<double>(leapfrog_a_at(p_, p_.src.index[c]))));
  rec_scale_.resize(p_.rec.index.size());
  for (std::size_t c = 0; c < rec_scale_.size(); ++c) rec_scale_[c] = T(1) / leapfrog_a_at(p_, p_.rec.index[c]);
  residual_.resize(static_cast<std::size_t>(p_.rec.count));
}

template <class T>
void CpuPropagator<T>::reset_forward() {
  state_.u.zero();
  state_.u_prev.zero();
}

template <class T>
void CpuPropagator<T>::forward_step(index_t n) {
  T* u = state_.u.template as<T>();
  T* up = state_.u_prev.template as<T>();
  cpu_leapfrog_sweep<T>(p_, {u, up, up});
  const std::vector<T> q(static_cast<std::size_t>(p_.src.count), p_.wavelet[static_cast<std::size_t>(n)]);
  inject_points(p_.src, q.data(), src_scale_.data(), up);
  swap(state_.u, state_.u_prev);
}

template <class T>
void CpuPropagator<T>::sample(T* out) const {
  sample_points(p_.rec, state_.u.template as<T>(), out);
}

template <class T>
double CpuPropagator<T>::wavefield_energy() const {
  // Per x-plane partial sums added in order: the same bits whatever the thread count.
  const Grid& g = p_.grid;
  const T* u = state_.u.template as<T>();
  std::vector<double> planes(static_cast<std::size_t>(g.alloc(0)), 0.0);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < g.alloc(0); ++i) {
    double s = 0;
    const T* plane = u + i * g.stride_x();
    for (index_t k = 0; k < g.stride_x(); ++k) s += double(plane[k]) * double(plane[k]);
    planes[static_cast<std::size_t>(i)] = s;
  }
  double total = 0;
  for (double s : planes) total += s;
  return total;
}

template <class T>
void CpuPropagator<T>::reset_adjoint() {
  const std::size_t bytes = field_bytes();
  if (lam_.bytes() != bytes) {
    scratch_ = HostBuffer(bytes);
    lam_ = HostBuffer(bytes);
    lam_prev_ = HostBuffer(bytes);
    grad_ = HostBuffer(bytes);
  }
  lam_.zero();
  lam_prev_.zero();
  grad_.zero();
}

template <class T>
double CpuPropagator<T>::reverse_step(index_t n, const T* observed_next) {
  const T* u = state_.u.template as<T>();
  const T* up = state_.u_prev.template as<T>();
  T* un = scratch_.template as<T>();
  cpu_leapfrog_sweep<T>(p_, {u, up, un});
  const std::vector<T> q(static_cast<std::size_t>(p_.src.count), p_.wavelet[static_cast<std::size_t>(n)]);
  inject_points(p_.src, q.data(), src_scale_.data(), un);
  return reverse_step_from(n, un, u, up, observed_next);
}

template <class T>
double CpuPropagator<T>::reverse_step_from(index_t /*n*/, const T* u_next, const T* u, const T* u_prev,
                                           const T* observed_next) {
  sample_points(p_.rec, u_next, residual_.data());
  double misfit = 0;
  for (std::size_t r = 0; r < residual_.size(); ++r) {
    residual_[r] -= observed_next[r];
    misfit += 0.5 * static_cast<double>(residual_[r]) * static_cast<double>(residual_[r]);
  }
  T* lam = lam_.template as<T>();
  T* lam_prev = lam_prev_.template as<T>();
  cpu_leapfrog_sweep<T>(p_, {lam, lam_prev, lam_prev, u_next, u, u_prev, grad_.template as<T>()});
  inject_residual(residual_.data(), u_next, u, u_prev);
  swap(lam_, lam_prev_);
  return misfit;
}

// lam += S^T r / a at the receivers, and the imaging condition's share of that increment.
template <class T>
void CpuPropagator<T>::inject_residual(const T* residual, const T* u_next, const T* u, const T* u_prev) {
  T* lam = lam_prev_.template as<T>();  // holds lam[n+1] until the swap
  T* grad = grad_.template as<T>();
  for (index_t r = 0; r < p_.rec.count; ++r)
    for (int c = 0; c < 8; ++c) {
      const index_t k = 8 * r + c;
      const index_t idx = p_.rec.index[k];
      const T delta = static_cast<T>(p_.rec.weight[k]) * residual[r] * rec_scale_[k];
      lam[idx] += delta;
      grad[idx] += imaging_term(p_.coeffs, delta, u_next[idx], u[idx], u_prev[idx]);
    }
}

template <class T>
std::size_t CpuPropagator<T>::allocate_history(index_t steps) {
  const std::size_t bytes = field_bytes();
  const std::size_t need = full_history_bytes(steps, bytes);  // u[0..N], as allocated below
  require_memory(need, "--strategy full (the wavefield history, " + std::to_string(steps + 1) + " fields of " +
                           format_bytes(double(bytes)) + ")",
                 "use --strategy revolve with --snaps or --checkpoint-memory");
  history_.clear();
  history_.reserve(static_cast<std::size_t>(steps) + 1);
  history_.emplace_back(bytes);  // u[0] = 0
  for (index_t n = 0; n < steps; ++n) history_.emplace_back(bytes);
  return need;
}

template <class T>
void CpuPropagator<T>::record_history(index_t n) {
  copy_to_slot(history_[static_cast<std::size_t>(n)].data(), state_.u.data(), field_bytes());
}

template <class T>
const T* CpuPropagator<T>::history_field(index_t k) const {
  return history_[static_cast<std::size_t>(std::max<index_t>(k, 0))].template as<T>();  // u[-1] = u[0] = 0
}

template <class T>
double CpuPropagator<T>::reverse_step_from_history(index_t n, const T* observed_next) {
  return reverse_step_from(n, history_field(n + 1), history_field(n), history_field(n - 1), observed_next);
}

template <class T>
void CpuPropagator<T>::release_history() {
  history_.clear();
  history_.shrink_to_fit();
}

template <class T>
void CpuPropagator<T>::adjoint_data_step(const T* data_j, T* source_out) {
  T* lam = lam_.template as<T>();
  T* lam_prev = lam_prev_.template as<T>();
  cpu_leapfrog_sweep<T>(p_, {lam, lam_prev, lam_prev});
  inject_points(p_.rec, data_j, rec_scale_.data(), lam_prev);
  swap(lam_, lam_prev_);
  // P^T: the source weights w / h^3, without 1/a (that belongs to A^{-T}).
  const T inv_h3 = static_cast<T>(1.0 / (p_.grid.spacing * p_.grid.spacing * p_.grid.spacing));
  sample_points(p_.src, lam_.template as<T>(), source_out);
  for (index_t s = 0; s < p_.src.count; ++s) source_out[s] *= inv_h3;
}

template <class T>
std::vector<double> CpuPropagator<T>::interior_gradient() const {
  return fold_to_interior<T>(p_.grid, grad_.template as<T>());
}

template <class T>
std::vector<double> fold_to_interior(const Grid& g, const T* padded) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2], nbl = g.nbl;
  std::vector<double> out(static_cast<std::size_t>(nx * ny * nz));
  // Padded indices that copy interior index ix: the whole layer at the edges.
  auto lo = [nbl](index_t ix) { return ix == 0 ? index_t(0) : ix + nbl; };
  auto hi = [nbl](index_t ix, index_t n) { return ix == n - 1 ? n + 2 * nbl - 1 : ix + nbl; };
#pragma omp parallel for schedule(static)
  for (index_t ix = 0; ix < nx; ++ix)
    for (index_t iy = 0; iy < ny; ++iy)
      for (index_t iz = 0; iz < nz; ++iz) {
        double s = 0;
        for (index_t i = lo(ix); i <= hi(ix, nx); ++i)
          for (index_t j = lo(iy); j <= hi(iy, ny); ++j)
            for (index_t k = lo(iz); k <= hi(iz, nz); ++k) s += static_cast<double>(padded[g.index(i, j, k)]);
        out[static_cast<std::size_t>((ix * ny + iy) * nz + iz)] = s;
      }
  return out;
}

template class CpuPropagator<float>;
template class CpuPropagator<double>;
template std::vector<double> fold_to_interior<float>(const Grid&, const float*);
template std::vector<double> fold_to_interior<double>(const Grid&, const double*);

}  // namespace revwave
