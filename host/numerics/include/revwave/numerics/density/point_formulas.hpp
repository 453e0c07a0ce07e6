// The variable-density equation's point formulas, written once for the CPU loops and the CUDA
// kernels (docs/physics/density.md derives them).
//
//   m u_tt - rho div(rho^-1 grad u) + eta u_t = q
//
// is discretised as K = diag(rho) A with A symmetric and negative semi-definite for every positive
// density, so that no mode can grow under the constant-density CFL limit:
//
//   A = S (L + D^T D) S - D^T B D,      S = diag(s), s = rho^(-1/2), B_h = s_a s_b,
//
// L the 2R-order Laplacian, D the staggered first derivative of order 2 RD (RD = (R + 1) / 2, so
// that D^T D reaches 2 RD - 1 <= R points: the grid's halo) from points to the half points h
// between neighbours a and b = a + 1 along each axis, B the geometric mean of the two buoyancies
// there. L + D^T D is negative semi-definite (its symbol is a difference of truncated series of
// (2 arcsin(sin(x/2)))^2 with non-negative terms), S (.) S keeps that, and -D^T B D is so for
// B > 0. Where rho is constant, s (L + D^T D)(s u) - B D^T D u = s^2 L u and K = L: in a constant
// density the operator is the constant-density one, of order 2R; across a contrast it is the
// conservative flux form of order 2 RD. Computed, with t = rho^(1/2) (t s = 1):
//
//   (K u)_k   = t_k [ L(s u)_k - sum_q d_q (g_{k+q-1} - g_{k-q}) ],   g_a = D(s u)_a - t_k B_a D(u)_a
//   (K^T l)_k = s_k [ L(t l)_k - sum_q d_q (g_{k+q-1} - g_{k-q}) ],   g_a = D(t l)_a - t_k B_a D(t t l)_a
//
// (K^T = A diag(rho), one formula with the roles of s and t swapped). The densities are scaled by
// their geometric middle (density_model.hpp), so a constant density has s = t = B = 1 and gives
// the constant-density bits: v = 1 u, g = D u - 1 (1 D u) = 0 exactly. On a plane (sy = 0) the y
// "neighbours" are the point itself: D along y is exactly zero there and L's y pairs cancel as in
// the constant-density sweep.
#pragma once
#include "revwave/numerics/acoustic/point_formulas.hpp"

namespace revwave {

// The staggered derivative's radius beside a Laplacian of radius R.
template <int R>
inline constexpr int stagger_radius = (R + 1) / 2;

// The two fields a density formula differentiates, at offsets from the point: v = s u and w = u
// (forward, K), or v = t l and w = t t l (adjoint, K^T).
template <class T, bool Adjoint>
struct DensityTaps {
  const T* f;
  const T* s;
  const T* t;
  REVWAVE_HD T v(index_t o) const { return Adjoint ? t[o] * f[o] : s[o] * f[o]; }
  REVWAVE_HD T w(index_t o) const { return Adjoint ? t[o] * (t[o] * f[o]) : f[o]; }
};

// One axis through the point: offsets q * st; b the axis' half-point coefficients at the point
// (b[j st]: between offsets j and j + 1).
template <class T, bool Adjoint>
struct DensityAxis {
  DensityTaps<T, Adjoint> taps;
  const T* b;
  index_t st;
  REVWAVE_HD T v(int q) const { return taps.v(q * st); }
  REVWAVE_HD T w(int q) const { return taps.w(q * st); }
  REVWAVE_HD T bh(int j) const { return b[j * st]; }
};

// z through a point at depth k below a free surface: above z = 0 the column's mirror image, the
// fields odd (u, lam; s and t even make v and w odd too) and the half points' B even
// (boundary/free_surface.hpp; docs/physics/density.md).
template <class T, bool Adjoint>
struct MirroredDensityZ {
  DensityTaps<T, Adjoint> taps;
  const T* b;
  index_t k;
  REVWAVE_HD T v(int q) const { return k + q >= 0 ? taps.v(q) : -taps.v(-2 * k - q); }
  REVWAVE_HD T w(int q) const { return k + q >= 0 ? taps.w(q) : -taps.w(-2 * k - q); }
  REVWAVE_HD T bh(int j) const { return k + j >= 0 ? b[j] : b[-2 * k - j - 1]; }
};

// D f at the half point between offsets j and j + 1: sum_p d_p (f(j + p) - f(j + 1 - p)).
template <class T, int R, class Axis>
REVWAVE_HD_INLINE T density_dv(const T* d, const Axis& a, int j) {
  T s = T(0);
#pragma unroll
  for (int p = 1; p <= stagger_radius<R>; ++p) s += d[p] * (a.v(j + p) - a.v(j + 1 - p));
  return s;
}
template <class T, int R, class Axis>
REVWAVE_HD_INLINE T density_dw(const T* d, const Axis& a, int j) {
  T s = T(0);
#pragma unroll
  for (int p = 1; p <= stagger_radius<R>; ++p) s += d[p] * (a.w(j + p) - a.w(j + 1 - p));
  return s;
}

// g at the half point j: D v - t_k B D w.
template <class T, int R, class Axis>
REVWAVE_HD_INLINE T density_half_flux(const T* d, const Axis& a, T tk, int j) {
  return density_dv<T, R>(d, a, j) - tk * (a.bh(j) * density_dw<T, R>(d, a, j));
}

// sum_q d_q (g_{q-1} - g_{-q}) along one axis.
template <class T, int R, class Axis>
REVWAVE_HD_INLINE T density_axis_flux(const T* d, const Axis& a, T tk) {
  T s = T(0);
#pragma unroll
  for (int q = 1; q <= stagger_radius<R>; ++q)
    s += d[q] * (density_half_flux<T, R>(d, a, tk, q - 1) - density_half_flux<T, R>(d, a, tk, -q));
  return s;
}

// L v at the point in laplacian_axes' order (the constant-density bits when v = u).
template <class T, int R, class Z, class Y, class X>
REVWAVE_HD_INLINE T density_laplacian(const T* w, const Z& z, const Y& y, const X& x) {
  T lap = w[0] * z.v(0);
#pragma unroll
  for (int q = 1; q <= R; ++q) lap += w[q] * ((z.v(q) + z.v(-q)) + (y.v(q) + y.v(-q)) + (x.v(q) + x.v(-q)));
  return lap;
}

// L(v) less the three axes' fluxes (D^T g = -sum_q d_q (g_{q-1} - g_{-q})), before the outer
// factor (t_k forward, s_k adjoint).
template <class T, int R, class Z, class Y, class X>
REVWAVE_HD_INLINE T density_inner(const T* w, const T* d, const Z& z, const Y& y, const X& x, T tk) {
  T flux = density_axis_flux<T, R>(d, z, tk);
  flux += density_axis_flux<T, R>(d, y, tk);
  flux += density_axis_flux<T, R>(d, x, tk);
  return density_laplacian<T, R>(w, z, y, x) - flux;
}

// The point's coefficients: s, t and the half points' B per axis (z, y, x), all at the point.
template <class T>
struct DensityPoint {
  const T* s;
  const T* t;
  const T* bz;
  const T* by;
  const T* bx;
};

// (K u)_k (Adjoint false) or (K^T lam)_k (true) at a point of a field with strides (1, sy, sx).
template <class T, int R, bool Adjoint>
REVWAVE_HD_INLINE T density_apply(const T* w, const T* d, const DensityPoint<T>& c, const T* f, index_t sy,
                                  index_t sx) {
  const DensityTaps<T, Adjoint> taps{f, c.s, c.t};
  const DensityAxis<T, Adjoint> z{taps, c.bz, 1}, y{taps, c.by, sy}, x{taps, c.bx, sx};
  const T outer = Adjoint ? c.s[0] : c.t[0];
  return outer * density_inner<T, R>(w, d, z, y, x, c.t[0]);
}

template <class T, int R>
REVWAVE_HD T density_operator(const T* w, const T* d, const DensityPoint<T>& c, const T* u, index_t sy, index_t sx) {
  return density_apply<T, R, false>(w, d, c, u, sy, sx);
}
template <class T, int R>
REVWAVE_HD T density_adjoint_operator(const T* w, const T* d, const DensityPoint<T>& c, const T* l, index_t sy,
                                      index_t sx) {
  return density_apply<T, R, true>(w, d, c, l, sy, sx);
}

// ---- dJ/drho's share of one reverse step (docs/physics/density.md, "The gradients") ----
//
// With u = u[n] and l = lam[n+1] (complete: every boundary's and source's share in), at a padded
// point j, the derivative of l^T K u through rho_j (the scaled density; density_gradient.hpp
// scales back):
//
//   (s_j / 2) l_j P(s u)_j - (s_j^3 / 2) u_j P(t l)_j + l_j SB(u)_j + (s_j^2 / 2) sum_h n_h B_h X_h
//
// P(v) = L v - S v the symmetric part (S v = sum_q d_q (Dv_{q-1} - Dv_{-q}), L + D^T D), SB(u) =
// sum_q d_q (B Du_{q-1} - B Du_{-q}) = -D^T B D u, X_h = D(rho l)_h D(u)_h, and n_h the number of
// ends of half point h that are j once the density is extended past the padded grid (the edge's
// value repeated: both ends of a half point beyond the edge are the edge point; density_model.hpp).

// S v along one axis.
template <class T, int R, class Axis>
REVWAVE_HD_INLINE T density_axis_s(const T* d, const Axis& a) {
  T s = T(0);
#pragma unroll
  for (int q = 1; q <= stagger_radius<R>; ++q) s += d[q] * (density_dv<T, R>(d, a, q - 1) - density_dv<T, R>(d, a, -q));
  return s;
}

// P(v) = L v - S v.
template <class T, int R, class Z, class Y, class X>
REVWAVE_HD_INLINE T density_symmetric(const T* w, const T* d, const Z& z, const Y& y, const X& x) {
  const T s = (density_axis_s<T, R>(d, z) + density_axis_s<T, R>(d, y)) + density_axis_s<T, R>(d, x);
  return density_laplacian<T, R>(w, z, y, x) - s;
}

// How many ends of the half point between j + jj and j + jj + 1 are j, on an axis of n padded
// points (0 where the operator reads no such half point). mirror_low: a free surface at 0 (the
// half points above it are the mirror images of those below, counted there).
REVWAVE_HD_INLINE int density_half_ends(index_t j, index_t n, int jj, bool mirror_low, int rd) {
  const index_t a = j + jj;
  if (a < (mirror_low ? 0 : -rd) || a > n + rd - 2) return 0;
  const index_t lo = a < 0 ? 0 : (a > n - 1 ? n - 1 : a);
  const index_t hi = a + 1 < 0 ? 0 : (a + 1 > n - 1 ? n - 1 : a + 1);
  return (lo == j ? 1 : 0) + (hi == j ? 1 : 0);
}

// sum over one axis' half points of n_h B_h X_h, and SB(u) along it (into sb). Inner: the point
// is at least RD from both ends of the axis (RD <= j <= n - RD - 1), where n_h is 1 for the two
// half points next to it and 0 for the others, known without a branch (the same values).
template <class T, int R, bool Inner = false, class AxisU, class AxisL>
REVWAVE_HD_INLINE T density_axis_x(const T* d, const AxisU& u, const AxisL& l, index_t j, index_t n, bool mirror_low,
                                   T& sb) {
  constexpr int RD = stagger_radius<R>;
  T x = T(0), s = T(0);
#pragma unroll
  for (int q = 1; q <= RD; ++q) {
    const T du_hi = density_dw<T, R>(d, u, q - 1), du_lo = density_dw<T, R>(d, u, -q);
    s += d[q] * (u.bh(q - 1) * du_hi - u.bh(-q) * du_lo);
    const int n_hi = Inner ? (q == 1 ? 1 : 0) : density_half_ends(j, n, q - 1, mirror_low, RD);
    const int n_lo = Inner ? (q == 1 ? 1 : 0) : density_half_ends(j, n, -q, mirror_low, RD);
    if (n_hi != 0) x += T(n_hi) * (u.bh(q - 1) * (density_dw<T, R>(d, l, q - 1) * du_hi));
    if (n_lo != 0) x += T(n_lo) * (u.bh(-q) * (density_dw<T, R>(d, l, -q) * du_lo));
  }
  sb += s;
  return x;
}

// The point's coordinates and padded extents along z, y, x (the half points' ends), and whether z
// starts at a free surface.
struct DensityPlace {
  index_t at[3];
  index_t n[3];
  bool surface;
};

// dJ/drho's share at the point: u axes (forward taps over u[n]) and l axes (adjoint taps over lam[n+1]).
// Inner: the point is at least RD from every end of every axis (density_axis_x).
template <class T, int R, bool Inner = false, class UZ, class UY, class UX, class LZ, class LY, class LX>
REVWAVE_HD_INLINE T density_image(const T* w, const T* d, T s0, T u0, T l0, const UZ& uz, const UY& uy, const UX& ux,
                                  const LZ& lz, const LY& ly, const LX& lx, const DensityPlace& pl) {
  T sb = T(0);  // the axes in a fixed order: every backend sums them alike
  T x = density_axis_x<T, R, Inner>(d, uz, lz, pl.at[0], pl.n[0], pl.surface, sb);
  x += density_axis_x<T, R, Inner>(d, uy, ly, pl.at[1], pl.n[1], false, sb);
  x += density_axis_x<T, R, Inner>(d, ux, lx, pl.at[2], pl.n[2], false, sb);
  const T half = T(0.5) * s0;
  T g = (half * l0) * density_symmetric<T, R>(w, d, uz, uy, ux);
  g -= (half * (s0 * s0) * u0) * density_symmetric<T, R>(w, d, lz, ly, lx);
  g += l0 * sb;
  g += (half * s0) * x;
  return g;
}

// One axis' share of dJ/drho at a point (density_image's terms along that axis alone, for an
// operator K_a = t (L_a s - D_a^T g) of one axis: the C-PML's, boundary/cpml_point.hpp): d2 the
// axis' second-derivative weights (L_a), ua over u[n], la over the adjoint values, j and n the
// point's coordinate and the padded extent along the axis.
template <class T, int R, class AxisU, class AxisL>
REVWAVE_HD T density_axis_image(const T* d2, const T* d, T s0, T u0, T l0, const AxisU& ua, const AxisL& la, index_t j,
                                index_t n) {
  T sb = T(0);
  const T x = density_axis_x<T, R>(d, ua, la, j, n, false, sb);
  T lu = d2[0] * ua.v(0), ll = d2[0] * la.v(0);
#pragma unroll
  for (int q = 1; q <= R; ++q) {
    lu += d2[q] * (ua.v(q) + ua.v(-q));
    ll += d2[q] * (la.v(q) + la.v(-q));
  }
  const T half = T(0.5) * s0;
  T g = (half * l0) * (lu - density_axis_s<T, R>(d, ua));
  g -= (half * (s0 * s0) * u0) * (ll - density_axis_s<T, R>(d, la));
  g += l0 * sb;
  g += (half * s0) * x;
  return g;
}

}  // namespace revwave
