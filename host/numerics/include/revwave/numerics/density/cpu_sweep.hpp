// The variable-density physics' CPU sweeps over the padded grid, blocked and threaded as the
// constant-density ones are (sweep_rows.hpp): the forward sweep (K), the adjoint sweep (K^T: the
// dot-product test's), the reverse step's fused sweep, and the operator at a few points (probes).
// The point formulas are density/point_formulas.hpp's.
#pragma once
#include <cstddef>

#include "revwave/numerics/problem.hpp"

namespace revwave {

// out = the leapfrog update with K u (forward) or K^T lam (adjoint), no source terms; out may alias
// the previous field. The problem must carry a density.
template <class T>
void density_forward_sweep(const Problem<T>& problem, const T* u, const T* u_prev, T* out);
template <class T>
void density_adjoint_sweep(const Problem<T>& problem, const T* lam, const T* lam_prev, T* out);

// One reverse step's sweep: at every padded point
//   u_next = update(u, u_prev, K u)      (u[n+1], in registers only)
//   lam_out = update(lam, lam_prev, K^T lam)
//   grad += imaging_term(lam_out, u_next, u, u_prev)
// and, when image_g is set, dJ/drho's accumulators: image_g += density_image_g(lam_out, K u, s,
// u_next, y(lam)), image_q += lam_out u. Reads u, lam, s, t (stencils), u_prev, lam_prev, m, grad;
// 40 bytes a point in float, 56 with the accumulators.
template <class T>
struct DensityReverseFields {
  const T* u = nullptr;         // u[n]
  const T* u_prev = nullptr;    // u[n-1]
  const T* lam = nullptr;       // lam[n+2]
  const T* lam_prev = nullptr;  // lam[n+3]
  T* lam_out = nullptr;         // lam[n+1]; may alias lam_prev
  T* grad = nullptr;
  T* image_g = nullptr;  // null: dJ/drho is not imaged
  T* image_q = nullptr;
};
template <class T>
void density_reverse_sweep(const Problem<T>& problem, const DensityReverseFields<T>& fields);

// At `count` padded-point indices, by the sweeps' point formulas (the same bits): u[n+1] before any
// source term; K u; y(lam) = sum_i w_ki t_i lam_i.
template <class T>
void density_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                     T* out);
template <class T>
void density_operator_at(const Problem<T>& problem, const T* u, const index_t* index, std::size_t count, T* out);
template <class T>
void density_y_at(const Problem<T>& problem, const T* lam, const index_t* index, std::size_t count, T* out);

}  // namespace revwave
