// The pseudo-acoustic VTI pair's point formulas (vti_model.hpp: the equation, in (p, d = p - q)),
// written once for the sweeps. With C1 = 2 epsilon and C2 = S - 1 at the point, the operator is
//   p: L p + C1 Hxy p + C2 Hz p - (1 + C2) Hz d
//   d: (C1 - C2) Hxy p + C2 (Hz p - Hz d)
// L the isotropic Laplacian (acoustic/point_formulas.hpp, its bits), and its transpose
//   p: L lp + Hxy g1 + Hz g2,   d: -Hz g3,
//   g1 = C1 lp + (C1 - C2) ld,  g2 = C2 (lp + ld),  g3 = (1 + C2) lp + C2 ld
// (the coefficients at each point the stencils read: vti_adjoint_combinations). Where C1 = C2 = 0
// every correction is a signed zero, so the pair's p is the isotropic field value for value.
#pragma once
#include "revwave/core/config.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"

namespace revwave {

// The split of the Laplacian's centre weight: Hxy's (2 c0 / h^2, whose y pairs on a plane add the
// point twice and leave c0 / h^2: grid.hpp) and Hz's (c0 / h^2).
template <class T>
struct VtiWeights {
  T xy;
  T z;
};

// Hxy u at one point (strides (1, sy, sx)), the pairs nearest first, y before x.
template <class T, int R>
REVWAVE_HD T vti_hxy(const T* w, T centre_weight, const T* u, index_t sy, index_t sx) {
  T h = centre_weight * u[0];
#pragma unroll
  for (int q = 1; q <= R; ++q) h += w[q] * ((u[q * sy] + u[-q * sy]) + (u[q * sx] + u[-q * sx]));
  return h;
}

// Hz u at one point.
template <class T, int R>
REVWAVE_HD T vti_hz(const T* w, T centre_weight, const T* u) {
  T h = centre_weight * u[0];
#pragma unroll
  for (int q = 1; q <= R; ++q) h += w[q] * (u[q] + u[-q]);
  return h;
}

// The operator's two rows at a point of (p, d).
template <class T>
struct VtiPair {
  T p;
  T d;
};

template <class T, int R>
REVWAVE_HD VtiPair<T> vti_operator(const T* w, VtiWeights<T> cw, const T* p, const T* d, index_t sy, index_t sx, T c1,
                                   T c2) {
  const T lap = laplacian<T, R>(w, p, sy, sx);
  const T hxy = vti_hxy<T, R>(w, cw.xy, p, sy, sx);
  const T hzp = vti_hz<T, R>(w, cw.z, p);
  const T hzd = vti_hz<T, R>(w, cw.z, d);
  return {lap + ((c1 * hxy + c2 * hzp) - (T(1) + c2) * hzd), (c1 - c2) * hxy + c2 * (hzp - hzd)};
}

// The transpose's two rows at a point of (lp, ld), g1..g3 the combinations at every point.
template <class T, int R>
REVWAVE_HD VtiPair<T> vti_adjoint_operator(const T* w, VtiWeights<T> cw, const T* lp, const T* g1, const T* g2,
                                           const T* g3, index_t sy, index_t sx) {
  const T lap = laplacian<T, R>(w, lp, sy, sx);
  return {lap + (vti_hxy<T, R>(w, cw.xy, g1, sy, sx) + vti_hz<T, R>(w, cw.z, g2)), -vti_hz<T, R>(w, cw.z, g3)};
}

// The combinations the transpose's stencils read, at one point.
template <class T>
REVWAVE_HD void vti_adjoint_combinations(T lp, T ld, T c1, T c2, T& g1, T& g2, T& g3) {
  g1 = c1 * lp + (c1 - c2) * ld;
  g2 = c2 * (lp + ld);
  g3 = (T(1) + c2) * lp + c2 * ld;
}

}  // namespace revwave
