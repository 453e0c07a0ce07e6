// The variable-density equation's point formulas, written once for the CPU loops and the CUDA
// kernels (docs/physics/density.md derives them).
//
//   m u_tt - rho div(rho^-1 grad u) + eta u_t = q
//
// is discretised conservatively on the Laplacian's own stencil: each pair of points (k, i) that
// the 2k-order Laplacian couples with weight w_q is coupled with w_q times 1/sqrt(rho_k rho_i),
// the geometric mean of the two buoyancies, and the sum is multiplied by rho_k:
//
//   (K u)_k = t_k sum_i w_ki s_i (u_i - u_k),      s = rho^(-1/2), t = rho^(1/2)
//           = (L u)_k + t_k sum_i w_ki (s_i - s_k)(u_i - u_k)
//
// The second line is how it is computed: where the density is constant the correction is exactly
// zero and K u is the constant-density L u, bit for bit. K = diag(rho) S with S symmetric, so K is
// not symmetric; the exact discrete adjoint applies its transpose,
//
//   (K^T lam)_k = (L lam)_k - sum_i w_ki (s_i - s_k)(t_i lam_i + t_k lam_k).
//
// The leapfrog update (acoustic/point_formulas.hpp) takes K u in place of L u; a, b and the
// imaging of dJ/dm are the constant-density ones. Sums run over the axes z, y, x per distance q,
// nearest first, as laplacian_axes does. On a plane (ny = 1, sy = 0) the y "neighbours" are the
// point itself: their pairs (s_k - s_k)(...) vanish exactly, and y below leaves them out.
#pragma once
#include "revwave/numerics/acoustic/point_formulas.hpp"

namespace revwave {

// sum_i w_ki (s_i - s_k)(u_i - u_k) at the point s[0], u[0] of fields with strides (1, sy, sx).
template <class T, int R, class Stride = index_t>
REVWAVE_HD T density_pairs(const T* w, const T* s, const T* u, Stride sy, Stride sx) {
  const T s0 = s[0], u0 = u[0];
  T sum = T(0);
#pragma unroll
  for (int q = 1; q <= R; ++q) {
    const Stride z = Stride(q), y = q * sy, x = q * sx;
    const T pz = (s[z] - s0) * (u[z] - u0) + (s[-z] - s0) * (u[-z] - u0);
    const T py = (s[y] - s0) * (u[y] - u0) + (s[-y] - s0) * (u[-y] - u0);
    const T px = (s[x] - s0) * (u[x] - u0) + (s[-x] - s0) * (u[-x] - u0);
    sum += w[q] * ((pz + py) + px);
  }
  return sum;
}

// (K u)_k: the Laplacian plus the density's correction, t0 = t_k.
template <class T, int R, class Stride = index_t>
REVWAVE_HD T density_operator(const T* w, const T* s, T t0, const T* u, Stride sy, Stride sx) {
  return laplacian<T, R, Stride>(w, u, sy, sx) + t0 * density_pairs<T, R, Stride>(w, s, u, sy, sx);
}

// (K^T lam)_k, and with WithY also y = sum_i w_ki t_i lam_i (what dJ/drho images from lam).
// With a free surface the rows below it evaluate the pairs on a mirrored stencil cross
// (boundary/free_surface.hpp's MirroredCross) and the Laplacian on the field (density/cpu_sweep.cpp).
template <class T>
struct DensityAdjoint {
  T value;
  T y;
};

// sum_i w_ki (s_i - s_k)(t_i lam_i + t_k lam_k), and with WithY also y (as .value and .y).
template <class T, int R, bool WithY, class Stride = index_t>
REVWAVE_HD DensityAdjoint<T> density_adjoint_pairs(const T* w, const T* s, const T* t, const T* l, Stride sy,
                                                   Stride sx) {
  const T s0 = s[0], tl0 = t[0] * l[0];
  T z_sum = T(0), y_sum = T(0);
#pragma unroll
  for (int q = 1; q <= R; ++q) {
    const Stride z = Stride(q), y = q * sy, x = q * sx;
    const T az = t[z] * l[z], bz = t[-z] * l[-z];
    const T ay = t[y] * l[y], by = t[-y] * l[-y];
    const T ax = t[x] * l[x], bx = t[-x] * l[-x];
    const T pz = (s[z] - s0) * (az + tl0) + (s[-z] - s0) * (bz + tl0);
    const T py = (s[y] - s0) * (ay + tl0) + (s[-y] - s0) * (by + tl0);
    const T px = (s[x] - s0) * (ax + tl0) + (s[-x] - s0) * (bx + tl0);
    z_sum += w[q] * ((pz + py) + px);
    if constexpr (WithY) {
      const T pair_y = sy != 0 ? ay + by : T(0);  // a plane's y neighbours are the point: no pair
      y_sum += w[q] * (((az + bz) + pair_y) + (ax + bx));
    }
  }
  return {z_sum, y_sum};
}

template <class T, int R, bool WithY, class Stride = index_t>
REVWAVE_HD DensityAdjoint<T> density_adjoint_operator(const T* w, const T* s, const T* t, const T* l, Stride sy,
                                                      Stride sx) {
  const DensityAdjoint<T> pairs = density_adjoint_pairs<T, R, WithY, Stride>(w, s, t, l, sy, sx);
  return {laplacian<T, R, Stride>(w, l, sy, sx) - pairs.value, pairs.y};
}

// dJ/drho's share of one reverse step at a point, in two accumulators that the end of the reverse
// sweep turns into the gradient (docs/physics/density.md):
//   G += lam[n+1] (K u[n]) - s u[n+1] y(lam[n+2]),     Q += lam[n+1] u[n].
// The u[n+1] y(lam[n+2]) term is step n+1's, taken one step early, where both are at hand.
template <class T>
REVWAVE_HD T density_image_g(T lam_next, T k_u, T s0, T u_next, T y) {
  return lam_next * k_u - (s0 * u_next) * y;
}
template <class T>
REVWAVE_HD T density_image_q(T lam_next, T u) {
  return lam_next * u;
}

}  // namespace revwave
