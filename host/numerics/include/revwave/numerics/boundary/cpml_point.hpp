// The C-PML's share at one point, written once for the CPU's per-point form (next_at and the
// region's membership, boundary/cpml_physics.cpp) and the CUDA kernels (a thread per point,
// cuda/kernels/.../boundary/cpml_launch.hpp): which points a slab reaches, where a line's slab
// values lie in the tail (CpmlLayout), and C and C' summed in the order the CPU's row passes sum
// them (axes x, y, z; q = 1..R), by cpml_formulas.hpp. The tables are raw pointers, host or device.
//
// With a variable density (density/point_formulas.hpp) the layer stretches the flux form itself,
// rho d~(rho^-1 d~ u) with d~ = d + (a conv) d along each axis with a layer, so that (docs/physics/
// density.md, "The C-PML"), with K_a the density operator's share along axis a and E = diag(rho)
// D1 diag(rho^-1) (rho the scaled density: t^2, its inverse s^2):
//   psi[n]  = b psi[n-1]  + a D1 u[n]
//   zeta[n] = b zeta[n-1] + a (K_a u[n] + E psi[n])
//   C[n]    = sum over the axes of (E psi[n] + zeta[n])
// and the exact transpose
//   nu[k] = b nu[k+1] + lam[k+1]
//   mu[k] = b mu[k+1] - s^2 D1 (t^2 (lam[k+1] + a nu[k]))
//   C'[k] = sum over the axes of (K_a^T (a nu[k]) - D1 (a mu[k])).
// A constant density has s = t = B = 1, K_a = D2 and E = D1 with the same roundings: the
// constant-density bits. dJ/drho gains the layer's share (layer_density_image).
#pragma once
#include "revwave/core/config.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

// What a point of the C-PML reads: the layout (CpmlLayout's), the grid's strides and the profile.
template <class T>
struct CpmlPointTables {
  index_t padded[3] = {}, lo[3] = {}, hi[3] = {};
  index_t psi[3] = {}, zeta[3] = {};  // offsets into a tail (CpmlLayout)
  index_t stride[3] = {};             // the grid's strides: x, y, 1
  index_t tail = 0;                   // the tail's offset in a field
  bool free_surface = false;
  const T* a[3] = {};  // per padded index on each axis
  const T* b[3] = {};
  const T* d1 = nullptr;  // [0] unused
  const T* d2 = nullptr;
  // The variable density's coefficients on the allocated grid (density_model.hpp), all null
  // without one: s, t, the half points' B per axis (x, y, z here) and the staggered weights.
  const T* ds = nullptr;
  const T* dt = nullptr;
  const T* db[3] = {};
  const T* dstag = nullptr;  // [0] unused
};

// Adjoint density taps over one line's values f[R + q], q = -R..R (a C-PML's a nu, which lives
// in the slabs only): DensityAxis's interface for the point formulas of density/point_formulas.hpp.
template <class T, int R>
struct CpmlDensityLine {
  const T* f;
  const T* s;
  const T* t;
  const T* b;
  index_t st;
  REVWAVE_HD T v(int q) const { return t[q * st] * f[R + q]; }
  REVWAVE_HD T w(int q) const { return t[q * st] * (t[q * st] * f[R + q]); }
  REVWAVE_HD T bh(int j) const { return b[j * st]; }
};

// Padded coordinates `at` of offset o in axis a's slabs (the layer_lo(a) planes, then the
// layer_hi(a) ones, over the whole padded extent of the other axes, z fastest): CpmlLayout's
// slab_point and the device's threads (CpmlTables) alike.
REVWAVE_HD void cpml_slab_point(const index_t* padded, const index_t* lo, const index_t* hi, int a, index_t o,
                                index_t* at) {
  index_t ext[3] = {padded[0], padded[1], padded[2]};
  ext[a] = lo[a] + hi[a];
  at[0] = o / (ext[1] * ext[2]);
  at[1] = (o / ext[2]) % ext[1];
  at[2] = o % ext[2];
  if (at[a] >= lo[a]) at[a] = at[a] - lo[a] + (padded[a] - hi[a]);
}

// Axis a's slab offsets along the line through a point (CpmlLayout::slab_offset, linear in the
// coordinate along a): that of coordinate x, -1 outside the slabs.
struct CpmlLine {
  index_t base, step, lo, hi, n;
  REVWAVE_HD index_t at(index_t x) const {
    if (x < 0 || x >= n) return -1;
    if (x < lo) return base + x * step;
    if (x >= n - hi) return base + (lo + x - (n - hi)) * step;
    return -1;
  }
};

template <class T, int R>
struct CpmlPoint {
  static constexpr int radius = R;
  const CpmlPointTables<T>& t;

  // Whether padded coordinate x of axis a lies within R of one of a's slabs.
  REVWAVE_HD_INLINE bool near(int a, index_t x) const {
    return (t.lo[a] > 0 && x < t.lo[a] + R) || (t.hi[a] > 0 && x >= t.padded[a] - t.hi[a] - R);
  }
  // The region: within R of a slab, the plane z = 0 left out under a free surface.
  REVWAVE_HD bool in_region(const index_t* at) const {
    if (t.free_surface && at[2] == 0) return false;
    return near(0, at[0]) || near(1, at[1]) || near(2, at[2]);
  }
  // Whether the box [b, e) (padded coordinates, e past the grid allowed) holds a point within R of
  // a slab: in_region's points, but for the plane z = 0 under a free surface, which it counts.
  REVWAVE_HD_INLINE bool box_near(const index_t* b, const index_t* e) const {
    for (int a = 0; a < 3; ++a) {
      if (t.lo[a] > 0 && b[a] < t.lo[a] + R) return true;
      if (t.hi[a] > 0 && e[a] > t.padded[a] - t.hi[a] - R) return true;
    }
    return false;
  }
  REVWAVE_HD_INLINE CpmlLine line(int a, const index_t* c) const {
    index_t ext[3] = {t.padded[0], t.padded[1], t.padded[2]};
    index_t at[3] = {c[0], c[1], c[2]};
    ext[a] = t.lo[a] + t.hi[a];
    at[a] = 0;
    const index_t step = a == 0 ? ext[1] * ext[2] : a == 1 ? ext[2] : 1;
    return {(at[0] * ext[1] + at[1]) * ext[2] + at[2], step, t.lo[a], t.hi[a], t.padded[a]};
  }
  REVWAVE_HD_INLINE T coef_a(int a, index_t x) const { return x < 0 || x >= t.padded[a] ? T(0) : t.a[a][x]; }
  // D1 of field f along axis a at grid index idx.
  REVWAVE_HD_INLINE T d1_field(int a, const T* f, index_t idx) const {
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      fp[q - 1] = f[idx + q * t.stride[a]];
      fm[q - 1] = f[idx - q * t.stride[a]];
    }
    return cpml_d1<T, R>(t.d1, fp, fm);
  }
  REVWAVE_HD bool density() const { return t.ds != nullptr; }
  // psi[n] at slab offset o of axis a (coordinate x on a, grid index idx) from u[n] and psi[n-1].
  REVWAVE_HD_INLINE T psi_new(int a, const T* u, const T* tail_old, index_t o, index_t x, index_t idx) const {
    return cpml_psi(t.b[a][x], t.a[a][x], tail_old[t.psi[a] + o], d1_field(a, u, idx));
  }
  // E psi from the line's psi values (fp, fm; +0 outside the slabs): D1 psi without a density.
  REVWAVE_HD_INLINE T stretch_flux(int a, index_t idx, T* fp, T* fm) const {
    if (!density()) return cpml_d1<T, R>(t.d1, fp, fm);
    for (int q = 1; q <= R; ++q) {
      const index_t ip = idx + q * t.stride[a], im = idx - q * t.stride[a];
      fp[q - 1] = (t.ds[ip] * t.ds[ip]) * fp[q - 1];
      fm[q - 1] = (t.ds[im] * t.ds[im]) * fm[q - 1];
    }
    return (t.dt[idx] * t.dt[idx]) * cpml_d1<T, R>(t.d1, fp, fm);
  }
  // K_a u at grid index idx (D2 u without a density).
  REVWAVE_HD_INLINE T axis_operator(int a, const T* u, index_t idx) const {
    T fp[R], fm[R];
    if (!density()) {
      for (int q = 1; q <= R; ++q) {
        fp[q - 1] = u[idx + q * t.stride[a]];
        fm[q - 1] = u[idx - q * t.stride[a]];
      }
      return cpml_d2<T, R>(t.d2, u[idx], fp, fm);
    }
    const DensityTaps<T, false> taps{u + idx, t.ds + idx, t.dt + idx};
    const DensityAxis<T, false> ax{taps, t.db[a] + idx, t.stride[a]};
    for (int q = 1; q <= R; ++q) fp[q - 1] = ax.v(q), fm[q - 1] = ax.v(-q);
    const T lap = cpml_d2<T, R>(t.d2, ax.v(0), fp, fm);
    return t.dt[idx] * (lap - density_axis_flux<T, R>(t.dstag, ax, t.dt[idx]));
  }
  // K_a^T f at grid index idx for the line's values f[R + q] (D2 f without a density).
  REVWAVE_HD_INLINE T axis_adjoint(int a, const T* f, index_t idx) const {
    T fp[R], fm[R];
    if (!density()) {
      for (int q = 1; q <= R; ++q) fp[q - 1] = f[R + q], fm[q - 1] = f[R - q];
      return cpml_d2<T, R>(t.d2, f[R], fp, fm);
    }
    const CpmlDensityLine<T, R> ln{f, t.ds + idx, t.dt + idx, t.db[a] + idx, t.stride[a]};
    for (int q = 1; q <= R; ++q) fp[q - 1] = ln.v(q), fm[q - 1] = ln.v(-q);
    const T lap = cpml_d2<T, R>(t.d2, ln.v(0), fp, fm);
    return t.ds[idx] * (lap - density_axis_flux<T, R>(t.dstag, ln, t.dt[idx]));
  }
  // Axis a's share of C at (at, idx), a near one of a's slabs: D1 psi (E psi) + zeta, psi[n] from
  // `psi_tail` when set, else recomputed from u; zeta[n] to zeta_out if set.
  REVWAVE_HD_INLINE T axis_share(int a, const T* u, const T* tail_old, const index_t* at, index_t idx,
                                 const T* psi_tail, T* zeta_out) const {
    const CpmlLine ln = line(a, at);
    const index_t x = at[a];
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t op = ln.at(x + q), om = ln.at(x - q);
      const index_t ip = idx + q * t.stride[a], im = idx - q * t.stride[a];
      fp[q - 1] = op < 0 ? T(0) : psi_tail ? psi_tail[t.psi[a] + op] : psi_new(a, u, tail_old, op, x + q, ip);
      fm[q - 1] = om < 0 ? T(0) : psi_tail ? psi_tail[t.psi[a] + om] : psi_new(a, u, tail_old, om, x - q, im);
    }
    const T d1psi = stretch_flux(a, idx, fp, fm);
    const index_t o = ln.at(x);
    T zeta = T(0);
    if (o >= 0) {
      zeta = cpml_zeta(t.b[a][x], t.a[a][x], tail_old[t.zeta[a] + o], axis_operator(a, u, idx), d1psi);
      if (zeta_out != nullptr) zeta_out[t.zeta[a] + o] = zeta;
    }
    return d1psi + zeta;
  }
  // C at (at, idx): the near axes' shares summed in order x, y, z.
  REVWAVE_HD_INLINE T correction(const T* u, const T* tail_old, const index_t* at, index_t idx, const T* psi_tail,
                                 T* zeta_out) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a)
      if (near(a, at[a])) sum += axis_share(a, u, tail_old, at, idx, psi_tail, zeta_out);
    return sum;
  }
  // mu[k] at slab offset o of axis a (coordinate x, grid index idx) from lam[k+1] and adj (every
  // nu[k] in, mu[k+1] at its place).
  REVWAVE_HD_INLINE T mu_new(int a, const T* lam, const T* adj, index_t o, index_t x, index_t idx) const {
    const CpmlLine ln = line_through(a, o, x);
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t op = ln.at(x + q), om = ln.at(x - q);
      const index_t ip = idx + q * t.stride[a], im = idx - q * t.stride[a];
      fp[q - 1] = lam[ip] + (op < 0 ? T(0) : coef_a(a, x + q) * adj[t.zeta[a] + op]);
      fm[q - 1] = lam[im] + (om < 0 ? T(0) : coef_a(a, x - q) * adj[t.zeta[a] + om]);
      if (density()) {
        fp[q - 1] = (t.dt[ip] * t.dt[ip]) * fp[q - 1];
        fm[q - 1] = (t.dt[im] * t.dt[im]) * fm[q - 1];
      }
    }
    T d = cpml_d1<T, R>(t.d1, fp, fm);
    if (density()) d = (t.ds[idx] * t.ds[idx]) * d;
    return cpml_mu(t.b[a][x], adj[t.psi[a] + o], d);
  }
  // The line through slab offset o of axis a, whose coordinate on a is x.
  REVWAVE_HD_INLINE CpmlLine line_through(int a, index_t o, index_t x) const {
    const index_t step = a == 0 ? t.padded[1] * t.padded[2] : a == 1 ? t.padded[2] : 1;
    const index_t local = x < t.lo[a] ? x : t.lo[a] + x - (t.padded[a] - t.hi[a]);
    return {o - local * step, step, t.lo[a], t.hi[a], t.padded[a]};
  }
  // Axis a's share of C' at (at, idx), a near one of a's slabs, from the adjoint's nu (zeta's
  // places) and mu (psi's) in adj.
  REVWAVE_HD_INLINE T adjoint_axis_share(int a, const T* adj, const index_t* at, index_t idx) const {
    const CpmlLine ln = line(a, at);
    T f[2 * R + 1], mp[R], mm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t op = ln.at(at[a] + q), om = ln.at(at[a] - q);
      const T ap = coef_a(a, at[a] + q), am = coef_a(a, at[a] - q);
      f[R + q] = op < 0 ? T(0) : ap * adj[t.zeta[a] + op];
      f[R - q] = om < 0 ? T(0) : am * adj[t.zeta[a] + om];
      mp[q - 1] = op < 0 ? T(0) : ap * adj[t.psi[a] + op];
      mm[q - 1] = om < 0 ? T(0) : am * adj[t.psi[a] + om];
    }
    const index_t o = ln.at(at[a]);
    f[R] = o < 0 ? T(0) : coef_a(a, at[a]) * adj[t.zeta[a] + o];
    return axis_adjoint(a, f, idx) - cpml_d1<T, R>(t.d1, mp, mm);
  }
  // C' at (at, idx): the near axes' shares summed in order x, y, z.
  REVWAVE_HD_INLINE T adjoint_correction(const T* adj, const index_t* at, index_t idx) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a)
      if (near(a, at[a])) sum += adjoint_axis_share(a, adj, at, idx);
    return sum;
  }
  // The layer's share of dJ/drho at (at, idx) in the reverse step of u[n] (docs/physics/density.md,
  // "The C-PML"): lam = lam[n+1] complete, adj's nu still nu[n+1] (nu[n] = b nu[n+1] + lam[n+1] is
  // formed here), psi = psi[n] (tail layout). With rho's derivative taken through K_a and E:
  //   a nu_a K_a u's per-axis image, and L_j D1(s^2 psi)_j + s_j^4 psi_j D1(t^2 L)_j, L = lam + a nu_a.
  // n: the padded extents along x, y, z. Zero without a density.
  REVWAVE_HD T layer_density_image(const T* u, const T* lam, const T* adj, const T* psi, const index_t* at, index_t idx,
                                   const index_t* n) const {
    if (!density()) return T(0);
    T sum = T(0);
    for (int a = 0; a < 3; ++a)
      if (near(a, at[a])) sum += layer_density_image_axis(a, u, lam, adj, psi, at, idx, n[a]);
    return sum;
  }
  // Axis a's share of it, a near one of a's slabs.
  REVWAVE_HD_INLINE T layer_density_image_axis(int a, const T* u, const T* lam, const T* adj, const T* psi,
                                               const index_t* at, index_t idx, index_t n_a) const {
    const CpmlLine ln = line(a, at);
    const index_t st = t.stride[a];
    T f[2 * R + 1], ps[2 * R + 1];  // a nu[n] and psi[n] along the line, +0 outside the slabs
    for (int q = -R; q <= R; ++q) {
      const index_t o = ln.at(at[a] + q);
      if (o < 0) {
        f[R + q] = T(0), ps[R + q] = T(0);
        continue;
      }
      const index_t x = at[a] + q;
      f[R + q] = t.a[a][x] * cpml_nu(t.b[a][x], adj[t.zeta[a] + o], lam[idx + q * st]);
      ps[R + q] = psi[t.psi[a] + o];
    }
    return axis_image(a, u, lam, f, ps, at[a], idx, n_a);
  }
  // Axis a's share of layer_density_image at idx (coordinate x on a, n_a points along it) from the
  // line's a nu[n] (f) and psi[n] (ps).
  REVWAVE_HD_INLINE T axis_image(int a, const T* u, const T* lam, const T* f, const T* ps, index_t x, index_t idx,
                                 index_t n_a) const {
    const index_t st = t.stride[a];
    // a nu's share through K_a.
    const DensityTaps<T, false> tu{u + idx, t.ds + idx, t.dt + idx};
    const DensityAxis<T, false> ua{tu, t.db[a] + idx, st};
    const CpmlDensityLine<T, R> la{f, t.ds + idx, t.dt + idx, t.db[a] + idx, st};
    T g = density_axis_image<T, R>(t.d2, t.dstag, t.ds[idx], u[idx], f[R], ua, la, x, n_a);
    // E's: L D1(s^2 psi) + s^4 psi D1(t^2 L).
    T fp[R], fm[R], gp[R], gm[R];
    for (int q = 1; q <= R; ++q) {
      const index_t ip = idx + q * st, im = idx - q * st;
      fp[q - 1] = (t.ds[ip] * t.ds[ip]) * ps[R + q];
      fm[q - 1] = (t.ds[im] * t.ds[im]) * ps[R - q];
      gp[q - 1] = (t.dt[ip] * t.dt[ip]) * (lam[ip] + f[R + q]);
      gm[q - 1] = (t.dt[im] * t.dt[im]) * (lam[im] + f[R - q]);
    }
    const T s2 = t.ds[idx] * t.ds[idx];
    g += (lam[idx] + f[R]) * cpml_d1<T, R>(t.d1, fp, fm);
    g += (s2 * s2 * ps[R]) * cpml_d1<T, R>(t.d1, gp, gm);
    return g;
  }
};

}  // namespace revwave
