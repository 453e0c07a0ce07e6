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
    out[idx] = cpml_value(out[idx], k.adjoint_correction(adj, t.region_at + 3 * r, idx), t.divisor[r]);
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

template <class T, int R>
struct DensityImageKernel : LinearKernel {
  static constexpr const char* name = "the C-PML's share of dJ/drho";
  CpmlTables<T> t;
  const T *u, *lam, *adj, *psi;
  T* image;
  DensityImageKernel(const CpmlTables<T>& tables, const T* uu, const T* l, const T* a, const T* p, T* im)
      : t(tables), u(uu), lam(l), adj(a), psi(p), image(im) {}
  LaunchShape shape() const { return shape_for(t.region_count); }
  void accesses(MemoryAccesses& acc) const {
    table_accesses(t, acc);
    acc.insert(acc.end(), {reads(u), reads(lam), reads(adj), reads(psi), reads(image), writes(image)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region_count) return;
    const Point<T, R> k{t};
    const index_t idx = t.region_index[r];
    image[idx] += k.layer_density_image(u, lam, adj, psi, t.region_at + 3 * r, idx, t.padded);
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
    acc.insert(acc.end(), {reads(v.u), reads(v.u_prev), reads(v.u_next), reads(v.adj), reads(v.grad0, n),
                           writes(v.lam_out), writes(v.grad)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    const index_t r = item(th.place());
    if (r >= t.region_count) return;
    const Point<T, R> k{t};
    const index_t idx = t.region_index[r];
    const index_t* at = t.region_at + 3 * r;
    const T a = t.divisor[r];
    const T lam = cpml_value(v.lam_out[idx], k.adjoint_correction(v.adj, at, idx), a);
    v.grad[idx] = v.grad0[r] + imaging_term(v.c, lam, v.u_next[idx], v.u[idx], v.u_prev[idx]);
    v.lam_out[idx] = lam;
  }
};

}  // namespace revwave::cpml
