// The visco-acoustic equation's point formulas (visco_model.hpp: the equation and its
// coefficients), written once for the sweeps. At a point, with lap = L u[n] (the free surface's
// rows completed), the memory variables' and the operator's values are
//   r_l[n+1/2] = alpha_l r_l[n-1/2] + beta_l lap,
//   op = e1 lap - e2 sum_l (r_l[n+1/2] + r_l[n-1/2]),
// and op enters the acoustic leapfrog update where L u does (acoustic/point_formulas.hpp). As a
// linear map op = (e1 - e2 sum_l beta_l) lap - e2 sum_l (1 + alpha_l) r_l[n-1/2], so its transpose,
// with lam the adjoint field and rho_l the memory variables' adjoints, is
//   the field's row: L g,  g = (e1 - e2 sum_l beta_l) lam + sum_l beta_l rho_l  (at every point),
//   rho_l's:         alpha_l rho_l - e2 (1 + alpha_l) lam.
// Where Q is infinite (e1 = 1, e2 = beta_l = 0) op is lap plus signed zeros.
#pragma once
#include "revwave/core/config.hpp"

namespace revwave {

inline constexpr int visco_mechanisms = 3;  // visco_model.hpp's sls_mechanisms

// Three values, one per mechanism: written out, not an array, so that a sweep's vector loop over
// points keeps each in a register (an array and a loop over it stop GCC vectorising the points).
template <class T>
struct ViscoTriple {
  T a, b, c;
};

// op at a point from lap and the memory variables' old values r; their new values into rn.
template <class T>
REVWAVE_HD_INLINE T visco_operator(T lap, ViscoTriple<T> r, T e1, T e2, ViscoTriple<T> alpha, ViscoTriple<T> beta,
                                   ViscoTriple<T>& rn) {
  rn.a = alpha.a * r.a + beta.a * lap;
  rn.b = alpha.b * r.b + beta.b * lap;
  rn.c = alpha.c * r.c + beta.c * lap;
  return e1 * lap - e2 * (((rn.a + r.a) + (rn.b + r.b)) + (rn.c + r.c));
}

// g at a point: the combination the transpose's stencil reads (rho: the memory variables' adjoints).
template <class T>
REVWAVE_HD_INLINE T visco_adjoint_combination(T lam, ViscoTriple<T> rho, T e1, T e2, ViscoTriple<T> beta) {
  const T b = (beta.a + beta.b) + beta.c;
  return (e1 - e2 * b) * lam + ((beta.a * rho.a + beta.b * rho.b) + beta.c * rho.c);
}

// The memory variables' adjoints' new values at a point.
template <class T>
REVWAVE_HD_INLINE ViscoTriple<T> visco_adjoint_memory(T lam, ViscoTriple<T> rho, T e2, ViscoTriple<T> alpha) {
  return {alpha.a * rho.a - e2 * (T(1) + alpha.a) * lam, alpha.b * rho.b - e2 * (T(1) + alpha.b) * lam,
          alpha.c * rho.c - e2 * (T(1) + alpha.c) * lam};
}

}  // namespace revwave
