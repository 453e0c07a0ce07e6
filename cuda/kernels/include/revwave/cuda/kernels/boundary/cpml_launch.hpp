// The C-PML kernels' thread bodies and launch structs (boundary/cpml_kernels.hpp): a thread per
// slab point, region point or probe (the sparse policy), each value by the point formulas of
// numerics/boundary/cpml_formulas.hpp in the order boundary/cpml_physics.cpp sums them: the same bits.
#pragma once
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/tuning/sparse_policy.hpp"
#include "revwave/numerics/boundary/cpml_formulas.hpp"

namespace revwave::cpml {

using launch::bytes_of;
using launch::MemoryAccesses;
using launch::reads;
using launch::writes;
using LinearKernel = launch::LinearKernel<tuning::SparsePolicy>;

// Axis a's slab offsets along a line (cpml_physics.cpp's Cpml::Line).
struct Line {
  index_t base, step, lo, hi, n;
  REVWAVE_HD index_t at(index_t x) const {
    if (x < 0 || x >= n) return -1;
    if (x < lo) return base + x * step;
    if (x >= n - hi) return base + (lo + x - (n - hi)) * step;
    return -1;
  }
};

template <class T, int R>
struct Point {
  const CpmlTables<T>& t;
  REVWAVE_HD bool near(int a, index_t x) const {
    return (t.lo[a] > 0 && x < t.lo[a] + R) || (t.hi[a] > 0 && x >= t.padded[a] - t.hi[a] - R);
  }
  REVWAVE_HD bool in_region(const index_t* at) const {
    if (t.free_surface && at[2] == 0) return false;
    return near(0, at[0]) || near(1, at[1]) || near(2, at[2]);
  }
  REVWAVE_HD Line line(int a, const index_t* c) const {
    index_t ext[3] = {t.padded[0], t.padded[1], t.padded[2]};
    index_t at[3] = {c[0], c[1], c[2]};
    ext[a] = t.lo[a] + t.hi[a];
    at[a] = 0;
    const index_t step = a == 0 ? ext[1] * ext[2] : a == 1 ? ext[2] : 1;
    return {(at[0] * ext[1] + at[1]) * ext[2] + at[2], step, t.lo[a], t.hi[a], t.padded[a]};
  }
  REVWAVE_HD T coef_a(int a, index_t x) const { return x < 0 || x >= t.padded[a] ? T(0) : t.a[a][x]; }
  REVWAVE_HD T d1_field(int a, const T* f, index_t idx) const {
    T fp[R], fm[R];
    for (int q = 1; q <= R; ++q) {
      fp[q - 1] = f[idx + q * t.stride[a]];
      fm[q - 1] = f[idx - q * t.stride[a]];
    }
    return cpml_d1<T, R>(t.d1, fp, fm);
  }
  REVWAVE_HD T psi_new(int a, const T* u, const T* tail_old, index_t o, index_t x, index_t idx) const {
    return cpml_psi(t.b[a][x], t.a[a][x], tail_old[t.psi[a] + o], d1_field(a, u, idx));
  }
  // C at (at, idx): psi[n] from `psi_tail` when set, else recomputed from u; zeta[n] to zeta_out if set.
  REVWAVE_HD T correction(const T* u, const T* tail_old, const index_t* at, index_t idx, const T* psi_tail,
                          T* zeta_out) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const Line ln = line(a, at);
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
  REVWAVE_HD T adjoint_correction(const T* adj, const index_t* at) const {
    T sum = T(0);
    for (int a = 0; a < 3; ++a) {
      if (!near(a, at[a])) continue;
      const Line ln = line(a, at);
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

// What every pass reads of the tables.
template <class T>
void table_accesses(const CpmlTables<T>& t, MemoryAccesses& acc) {
  for (int a = 0; a < 3; ++a)
    if (t.a[a] != nullptr) acc.insert(acc.end(), {reads(t.a[a]), reads(t.b[a])});
  acc.insert(acc.end(), {reads(t.d1), reads(t.d2)});
  if (t.slab_count > 0)
    acc.insert(acc.end(), {reads(t.slab_axis), reads(t.slab_offset), reads(t.slab_index), reads(t.slab_x)});
  if (t.region_count > 0) acc.insert(acc.end(), {reads(t.region_index), reads(t.region_at), reads(t.divisor)});
}

enum class SlabPass { psi, nu, mu };

template <class T, int R, SlabPass P>
struct SlabKernel : LinearKernel {
  static constexpr const char* name = P == SlabPass::psi  ? "the C-PML's psi"
                                      : P == SlabPass::nu ? "the C-PML's nu"
                                                          : "the C-PML's mu";
  CpmlTables<T> t;
  const T* field;  // u (psi) or lam (nu, mu)
  T* out;          // psi: the new tail; nu, mu: the adjoint's buffer
  SlabKernel(const CpmlTables<T>& tables, const T* f, T* o) : t(tables), field(f), out(o) {}
  LaunchShape shape() const { return shape_for(t.slab_count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(), {reads(field), writes(out)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t s = item(th.place());
    if (s >= t.slab_count) return;
    const Point<T, R> k{t};
    const int a = static_cast<int>(t.slab_axis[s]);
    const index_t o = t.slab_offset[s], idx = t.slab_index[s], x = t.slab_x[s];
    if constexpr (P == SlabPass::psi) {
      out[t.psi[a] + o] = k.psi_new(a, field, field + t.tail, o, x, idx);
    } else if constexpr (P == SlabPass::nu) {
      T& nu = out[t.zeta[a] + o];
      nu = cpml_nu(t.b[a][x], nu, field[idx]);
    } else {
      const Line ln = line_of(a, o, x);
      T fp[R], fm[R];
      for (int q = 1; q <= R; ++q) {
        const index_t op = ln.at(x + q), om = ln.at(x - q);
        fp[q - 1] = field[idx + q * t.stride[a]] + (op < 0 ? T(0) : k.coef_a(a, x + q) * out[t.zeta[a] + op]);
        fm[q - 1] = field[idx - q * t.stride[a]] + (om < 0 ? T(0) : k.coef_a(a, x - q) * out[t.zeta[a] + om]);
      }
      T& mu = out[t.psi[a] + o];
      mu = cpml_mu(t.b[a][x], mu, cpml_d1<T, R>(t.d1, fp, fm));
    }
  }
  // The line through slab offset o of axis a, whose coordinate on a is x.
  REVWAVE_HD Line line_of(int a, index_t o, index_t x) const {
    const index_t step = a == 0 ? t.padded[1] * t.padded[2] : a == 1 ? t.padded[2] : 1;
    const index_t local = x < t.lo[a] ? x : t.lo[a] + x - (t.padded[a] - t.hi[a]);
    return {o - local * step, step, t.lo[a], t.hi[a], t.padded[a]};
  }
};

template <class T, int R>
struct ForwardKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's forward share";
  CpmlTables<T> t;
  const T* u;
  T* out;
  ForwardKernel(const CpmlTables<T>& tables, const T* uu, T* o) : t(tables), u(uu), out(o) {}
  LaunchShape shape() const { return shape_for(t.region_count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(), {reads(u), writes(out)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region_count) return;
    const Point<T, R> k{t};
    const index_t idx = t.region_index[r];
    T* tail = out + t.tail;
    out[idx] = cpml_value(out[idx], k.correction(u, u + t.tail, t.region_at + 3 * r, idx, tail, tail), t.divisor[r]);
  }
};

template <class T, int R>
struct AdjointKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's adjoint share";
  CpmlTables<T> t;
  const T* adj;
  T* out;
  AdjointKernel(const CpmlTables<T>& tables, const T* a, T* o) : t(tables), adj(a), out(o) {}
  LaunchShape shape() const { return shape_for(t.region_count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(), {reads(adj), writes(out)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region_count) return;
    const Point<T, R> k{t};
    const index_t idx = t.region_index[r];
    out[idx] = cpml_value(out[idx], k.adjoint_correction(adj, t.region_at + 3 * r), t.divisor[r]);
  }
};

template <class T, int R>
struct ProbeShareKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's share at the probes";
  CpmlTables<T> t;
  index_t probes;
  const index_t* probe_region;
  const T* u;
  T* share;
  ProbeShareKernel(const CpmlTables<T>& tables, index_t n, const index_t* pr, const T* uu, T* s)
      : t(tables), probes(n), probe_region(pr), u(uu), share(s) {}
  LaunchShape shape() const { return shape_for(probes); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(),
               {reads(probe_region, bytes_of<index_t>(probes)), reads(u), writes(share, bytes_of<T>(probes))});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t p = item(th.place());
    if (p >= probes) return;
    const index_t r = probe_region[p];
    if (r < 0) return;
    const Point<T, R> k{t};
    const T c = k.correction(u, u + t.tail, t.region_at + 3 * r, t.region_index[r], nullptr, nullptr);
    share[p] = c / t.divisor[r];  // cpml_value's c / a, added by the probe kernel before the sources
  }
};

template <class T>
struct SaveGradientKernel : LinearKernel {
  static constexpr const char* name = "the C-PML region's gradient";
  CpmlTables<T> t;
  const T* grad;
  T* grad0;
  SaveGradientKernel(const CpmlTables<T>& tables, const T* g, T* g0) : t(tables), grad(g), grad0(g0) {}
  LaunchShape shape() const { return shape_for(t.region_count); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(t.region_index), reads(grad), writes(grad0, bytes_of<T>(t.region_count))};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r < t.region_count) grad0[r] = grad[t.region_index[r]];
  }
};

template <class T, int R>
struct ReverseKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's reverse completion";
  CpmlTables<T> t;
  CpmlReverse<T> v;
  ReverseKernel(const CpmlTables<T>& tables, const CpmlReverse<T>& rv) : t(tables), v(rv) {}
  LaunchShape shape() const { return shape_for(t.region_count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    const std::size_t n = bytes_of<T>(t.region_count);
    acc.insert(acc.end(), {reads(v.u), reads(v.u_prev), reads(v.psi), reads(v.adj), reads(v.next, n), reads(v.grad0, n),
                           writes(v.lam_out), writes(v.grad)});
    if (v.next_out != nullptr) acc.push_back(writes(v.next_out, n));
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region_count) return;
    const Point<T, R> k{t};
    const index_t idx = t.region_index[r];
    const index_t* at = t.region_at + 3 * r;
    const T a = t.divisor[r];
    const T u_next = cpml_value(v.next[r], k.correction(v.u, v.u + t.tail, at, idx, v.psi, nullptr), a);
    const T lam = cpml_value(v.lam_out[idx], k.adjoint_correction(v.adj, at), a);
    v.grad[idx] = v.grad0[r] + imaging_term(v.c, lam, u_next, v.u[idx], v.u_prev[idx]);
    v.lam_out[idx] = lam;
    if (v.next_out != nullptr) v.next_out[r] = u_next;
  }
};

}  // namespace revwave::cpml
