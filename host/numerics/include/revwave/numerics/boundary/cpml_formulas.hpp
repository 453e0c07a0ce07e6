// The convolutional PML's point formulas (complex-frequency-shifted, kappa = 1), written once for
// the CPU loops and, later, the CUDA kernels (docs/physics/boundaries.md derives them).
//
// Along an axis with a layer the stretched second derivative is D2 u + D1 psi + zeta, with the
// auxiliary fields, held at the layer's points only (a = 0 elsewhere),
//   psi[n]  = b psi[n-1]  + a D1 u[n]
//   zeta[n] = b zeta[n-1] + a (D2 u[n] + D1 psi[n])
// and the leapfrog update gets C[n] = sum over the axes of (D1 psi[n] + zeta[n]) beside L u[n]:
// u[n+1] = v + C / a_update, v the physics' own value. The exact discrete adjoint is the transpose
// of that recurrence (D1^T = -D1, D2^T = D2 on the zero-extended grid):
//   nu[k] = b nu[k+1] + lam[k+1]
//   mu[k] = b mu[k+1] - D1 (lam[k+1] + a nu[k])
//   C'[k] = sum over the axes of (D2 (a nu[k]) - D1 (a mu[k]))
// and lam[k] = v' + C' / a_update.
#pragma once
#include "revwave/core/config.hpp"

namespace revwave {

// b and a of one point from the profile's damping d and shift alpha (1/s): b = exp(-(d + alpha) dt)
// is the caller's, a = d (b - 1) / (d + alpha).
template <class T>
REVWAVE_HD T cpml_a(T d, T alpha, T b) {
  return d + alpha > T(0) ? d * (b - T(1)) / (d + alpha) : T(0);
}

template <class T>
REVWAVE_HD T cpml_psi(T b, T a, T psi_old, T d1u) {
  return b * psi_old + a * d1u;
}

template <class T>
REVWAVE_HD T cpml_zeta(T b, T a, T zeta_old, T d2u, T d1psi) {
  return b * zeta_old + a * (d2u + d1psi);
}

template <class T>
REVWAVE_HD T cpml_nu(T b, T nu_old, T lam) {
  return b * nu_old + lam;
}

template <class T>
REVWAVE_HD T cpml_mu(T b, T mu_old, T d1) {
  return b * mu_old - d1;
}

// The update's value completed with the boundary's share c; a_update: the update's divisor.
template <class T>
REVWAVE_HD T cpml_value(T v, T c, T a_update) {
  return v + c / a_update;
}

// The central first derivative of order 2R at a point from the values f(+-q) along the axis:
// sum_q d[q] (f(q) - f(-q)), nearest first; fp[q - 1] = f(q), fm[q - 1] = f(-q).
template <class T, int R>
REVWAVE_HD T cpml_d1(const T* d, const T* fp, const T* fm) {
  T s = T(0);
  for (int q = 1; q <= R; ++q) s += d[q] * (fp[q - 1] - fm[q - 1]);
  return s;
}

// The second derivative along one axis: d2[0] f(0) + sum_q d2[q] (f(q) + f(-q)), nearest first.
template <class T, int R>
REVWAVE_HD T cpml_d2(const T* d2, T f0, const T* fp, const T* fm) {
  T s = d2[0] * f0;
  for (int q = 1; q <= R; ++q) s += d2[q] * (fp[q - 1] + fm[q - 1]);
  return s;
}

}  // namespace revwave
