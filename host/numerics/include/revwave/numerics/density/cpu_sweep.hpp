// The variable-density physics' CPU sweeps over the padded grid, blocked and threaded as the
// constant-density ones are (sweep_rows.hpp): the forward sweep (K), the adjoint sweep (K^T: the
// dot-product test's), the reverse step's fused sweep, the update at a few points (probes), and
// dJ/drho's imaging pass. The point formulas are density/point_formulas.hpp's.
#pragma once
#include <cstddef>

#include "revwave/numerics/acoustic/cpu_sweep.hpp"
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
// Reads u, lam, s, t, B (stencils), u_prev, lam_prev, m, grad. The fields are the constant
// density's (acoustic/cpu_sweep.hpp) without a row hook: the C-PML around a density runs its
// passes after the sweep (a hook is a logic_error).
template <class T>
void density_reverse_sweep(const Problem<T>& problem, const ReverseSweepFields<T>& fields);

// u[n+1] before any source term at `count` padded-point indices, by the sweeps' point formulas
// (the same bits).
template <class T>
void density_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                     T* out);

// dJ/drho's share of one reverse step, added at every padded point: image += density_image(u[n],
// lam[n+1]) (point_formulas.hpp), lam complete.
template <class T>
void density_image_step(const Problem<T>& problem, const T* u, const T* lam, T* image);

}  // namespace revwave
