// The C-PML's share at one point, written once for the CPU's per-point form (next_at and the
// region's membership, boundary/cpml_physics.cpp) and the CUDA kernels (a thread per point,
// cuda/kernels/.../boundary/cpml_launch.hpp): which points a slab reaches, where a line's slab
// values lie in the tail (CpmlLayout), and C and C' summed in the order the CPU's row passes sum
// them (axes x, y, z; q = 1..R), by cpml_formulas.hpp. The tables are raw pointers, host or device.
#pragma once
#include "revwave/core/config.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"

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
};

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
  const CpmlPointTables<T>& t;

  // Whether padded coordinate x of axis a lies within R of one of a's slabs.
  REVWAVE_HD bool near(int a, index_t x) const {
    return (t.lo[a] > 0 && x < t.lo[a] + R) || (t.hi[a] > 0 && x >= t.padded[a] - t.hi[a] - R);
  }
  // The region: within R of a slab, the plane z = 0 left out under a free surface.
  REVWAVE_HD bool in_region(const index_t* at) const {
    if (t.free_surface && at[2] == 0) return false;
    return near(0, at[0]) || near(1, at[1]) || near(2, at[2]);
  }
  REVWAVE_HD CpmlLine line(int a, const index_t* c) const {
    index_t ext[3] = {t.padded[0], t.padded[1], t.padded[2]};
    index_t at[3] = {c[0], c[1], c[2]};
    ext[a] = t.lo[a] + t.hi[a];
    at[a] = 0;
    const index_t step = a == 0 ? ext[1] * ext[2] : a == 1 ? ext[2] : 1;
    return {(at[0] * ext[1] + at[1]) * ext[2] + at[2], step, t.lo[a], t.hi[a], t.padded[a]};
  }
  REVWAVE_HD T coef_a(int a, index_t x) const { return x < 0 || x >= t.padded[a] ? T(0) : t.a[a][x]; }
  // D1 of field f along axis a at grid index idx.
  REVWAVE_HD T d1_field(int a, const T* f, index_t idx) const {
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      fp[q - 1] = f[idx + q * t.stride[a]];
      fm[q - 1] = f[idx - q * t.stride[a]];
    }
    return cpml_d1<T, R>(t.d1, fp, fm);
  }
  // psi[n] at slab offset o of axis a (coordinate x on a, grid index idx) from u[n] and psi[n-1].
  REVWAVE_HD T psi_new(int a, const T* u, const T* tail_old, index_t o, index_t x, index_t idx) const {
    return cpml_psi(t.b[a][x], t.a[a][x], tail_old[t.psi[a] + o], d1_field(a, u, idx));
  }
  // C at (at, idx): psi[n] from `psi_tail` when set, else recomputed from u; zeta[n] to zeta_out if set.
  REVWAVE_HD T correction(const T* u, const T* tail_old, const index_t* at, index_t idx, const T* psi_tail,
                          T* zeta_out) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const CpmlLine ln = line(a, at);
      const index_t x = at[a];
      T fp[R], fm[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = ln.at(x + q), om = ln.at(x - q);
        const index_t ip = idx + q * t.stride[a], im = idx - q * t.stride[a];
        fp[q - 1] = op < 0 ? T(0) : psi_tail ? psi_tail[t.psi[a] + op] : psi_new(a, u, tail_old, op, x + q, ip);
        fm[q - 1] = om < 0 ? T(0) : psi_tail ? psi_tail[t.psi[a] + om] : psi_new(a, u, tail_old, om, x - q, im);
      }
      const T d1psi = cpml_d1<T, R>(t.d1, fp, fm);
      const index_t o = ln.at(x);
      T zeta = T(0);
      if (o >= 0) {
        for (int q = 1; q <= R; ++q) {
          fp[q - 1] = u[idx + q * t.stride[a]];
          fm[q - 1] = u[idx - q * t.stride[a]];
        }
        const T d2u = cpml_d2<T, R>(t.d2, u[idx], fp, fm);
        zeta = cpml_zeta(t.b[a][x], t.a[a][x], tail_old[t.zeta[a] + o], d2u, d1psi);
        if (zeta_out != nullptr) zeta_out[t.zeta[a] + o] = zeta;
      }
      sum += d1psi + zeta;
    }
    return sum;
  }
  // C' at `at` from the adjoint's nu (zeta's places) and mu (psi's) in adj.
  REVWAVE_HD T adjoint_correction(const T* adj, const index_t* at) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const CpmlLine ln = line(a, at);
      T np[R], nm[R], mp[R], mm[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = ln.at(at[a] + q), om = ln.at(at[a] - q);
        const T ap = coef_a(a, at[a] + q), am = coef_a(a, at[a] - q);
        np[q - 1] = op < 0 ? T(0) : ap * adj[t.zeta[a] + op];
        nm[q - 1] = om < 0 ? T(0) : am * adj[t.zeta[a] + om];
        mp[q - 1] = op < 0 ? T(0) : ap * adj[t.psi[a] + op];
        mm[q - 1] = om < 0 ? T(0) : am * adj[t.psi[a] + om];
      }
      const index_t o = ln.at(at[a]);
      const T centre = o < 0 ? T(0) : coef_a(a, at[a]) * adj[t.zeta[a] + o];
      sum += cpml_d2<T, R>(t.d2, centre, np, nm) - cpml_d1<T, R>(t.d1, mp, mm);
    }
    return sum;
  }
};

}  // namespace revwave
