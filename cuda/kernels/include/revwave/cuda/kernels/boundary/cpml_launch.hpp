// The C-PML kernels' thread bodies and launch structs (boundary/cpml_kernels.hpp): a thread per
// slab point, region point or probe (the sparse policy), its point found by arithmetic on the
// layout (CpmlTables), each value by the point formulas of numerics/boundary/cpml_formulas.hpp in
// the order boundary/cpml_physics.cpp sums them: the same bits.
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

// The per-point form (numerics/boundary/cpml_point.hpp), the CPU's next_at's.
using Line = CpmlLine;
template <class T, int R>
using Point = CpmlPoint<T, R>;

// What every pass reads of the tables.
template <class T>
void table_accesses(const CpmlTables<T>& t, MemoryAccesses& acc) {
  for (int a = 0; a < 3; ++a)
    if (t.a[a] != nullptr) acc.insert(acc.end(), {reads(t.a[a]), reads(t.b[a])});
  acc.insert(acc.end(), {reads(t.d1), reads(t.d2)});
  if (t.ds != nullptr) {
    acc.insert(acc.end(), {reads(t.ds), reads(t.dt), reads(t.dstag)});
    for (int a = 0; a < 3; ++a) acc.push_back(reads(t.db[a]));
  }
}

// What the passes over the region read besides: m and the damping profiles, for the divisor.
template <class T>
void divisor_accesses(const CpmlTables<T>& t, MemoryAccesses& acc) {
  acc.push_back(reads(t.m));
  for (int a = 0; a < 3; ++a) acc.push_back(reads(t.kappa[a]));
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
    int a = 0;
    index_t o = 0, at[3];
    t.slab_point(s, a, o, at);
    const index_t idx = t.index_of(at), x = at[a];
    if constexpr (P == SlabPass::psi) {
      out[t.psi[a] + o] = k.psi_new(a, field, field + t.tail, o, x, idx);
    } else if constexpr (P == SlabPass::nu) {
      T& nu = out[t.zeta[a] + o];
      nu = cpml_nu(t.b[a][x], nu, field[idx]);
    } else {
      out[t.psi[a] + o] = k.mu_new(a, field, out, o, x, idx);
    }
  }
};

template <class T, int R>
struct ForwardKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's forward share";
  CpmlTables<T> t;
  const T* u;
  T* out;
  ForwardKernel(const CpmlTables<T>& tables, const T* uu, T* o) : t(tables), u(uu), out(o) {}
  LaunchShape shape() const { return shape_for(t.region.count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    divisor_accesses(t, acc);
    acc.insert(acc.end(), {reads(u), writes(out)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region.count) return;
    const Point<T, R> k{t};
    index_t at[3];
    t.region.point(r, at);
    const index_t idx = t.index_of(at);
    T* tail = out + t.tail;
    out[idx] = cpml_value(out[idx], k.correction(u, u + t.tail, at, idx, tail, tail), t.divisor(idx, at));
  }
};

template <class T, int R>
struct AdjointKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's adjoint share";
  CpmlTables<T> t;
  const T* adj;
  T* out;
  AdjointKernel(const CpmlTables<T>& tables, const T* a, T* o) : t(tables), adj(a), out(o) {}
  LaunchShape shape() const { return shape_for(t.region.count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    divisor_accesses(t, acc);
    acc.insert(acc.end(), {reads(adj), writes(out)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region.count) return;
    const Point<T, R> k{t};
    index_t at[3];
    t.region.point(r, at);
    const index_t idx = t.index_of(at);
    out[idx] = cpml_value(out[idx], k.adjoint_correction(adj, at, idx), t.divisor(idx, at));
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
    divisor_accesses(t, acc);
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
    index_t at[3];
    t.region.point(r, at);
    const index_t idx = t.index_of(at);
    const T c = k.correction(u, u + t.tail, at, idx, nullptr, nullptr);
    share[p] = c / t.divisor(idx, at);  // cpml_value's c / a, added by the probe kernel before the sources
  }
};

template <class T, int R>
struct DensityImageKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's share of dJ/drho";
  CpmlTables<T> t;
  const T *u, *lam, *adj, *psi;
  T* image;
  DensityImageKernel(const CpmlTables<T>& tables, const T* uu, const T* l, const T* a, const T* p, T* im)
      : t(tables), u(uu), lam(l), adj(a), psi(p), image(im) {}
  LaunchShape shape() const { return shape_for(t.region.count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(), {reads(u), reads(lam), reads(adj), reads(psi), reads(image), writes(image)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region.count) return;
    const Point<T, R> k{t};
    index_t at[3];
    t.region.point(r, at);
    const index_t idx = t.index_of(at);
    image[idx] += k.layer_density_image(u, lam, adj, psi, at, idx, t.padded);
  }
};

template <class T>
struct SaveGradientKernel : LinearKernel {
  static constexpr const char* name = "the C-PML region's gradient";
  CpmlTables<T> t;
  const T* grad;
  T* grad0;
  SaveGradientKernel(const CpmlTables<T>& tables, const T* g, T* g0) : t(tables), grad(g), grad0(g0) {}
  LaunchShape shape() const { return shape_for(t.region.count); }
  void accesses(MemoryAccesses& acc) const { acc = {reads(grad), writes(grad0, bytes_of<T>(t.region.count))}; }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region.count) return;
    index_t at[3];
    t.region.point(r, at);
    grad0[r] = grad[t.index_of(at)];
  }
};

template <class T, int R>
struct ReverseKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's reverse completion";
  CpmlTables<T> t;
  CpmlReverse<T> v;
  ReverseKernel(const CpmlTables<T>& tables, const CpmlReverse<T>& rv) : t(tables), v(rv) {}
  LaunchShape shape() const { return shape_for(t.region.count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    divisor_accesses(t, acc);
    const std::size_t n = bytes_of<T>(t.region.count);
    acc.insert(acc.end(), {reads(v.u), reads(v.u_prev), reads(v.u_next), reads(v.adj), reads(v.grad0, n),
                           writes(v.lam_out), writes(v.grad)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region.count) return;
    const Point<T, R> k{t};
    index_t at[3];
    t.region.point(r, at);
    const index_t idx = t.index_of(at);
    const T a = t.divisor(idx, at);
    const T lam = cpml_value(v.lam_out[idx], k.adjoint_correction(v.adj, at, idx), a);
    v.grad[idx] = v.grad0[r] + imaging_term(v.c, lam, v.u_next[idx], v.u[idx], v.u_prev[idx]);
    v.lam_out[idx] = lam;
  }
};

}  // namespace revwave::cpml
