// The variable-density kernels' thread bodies and launch structs (launch/kernel_launch.hpp): the
// sweep (a thread per (y, z) column walking a chunk of x planes, no collectives), the free
// surface's top-rows pass (a thread per top-row point, numbered as boundary/free_surface_launch.hpp
// numbers them), and the sparse kernels (1D, the sparse policy). Every value is computed by the
// point formulas the CPU's density/cpu_sweep.cpp calls, in the same order: the same bits.
#pragma once
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/boundary/free_surface_launch.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/sparse_launch.hpp"
#include "revwave/cuda/kernels/tuning/density_policy.hpp"
#include "revwave/cuda/kernels/tuning/sparse_policy.hpp"
#include "revwave/numerics/density/surface_formulas.hpp"

namespace revwave::density {

using launch::bytes_of;
using launch::MemoryAccesses;
using launch::reads;
using launch::writes;
using Policy = tuning::DensitySweepPolicy;
using LinearKernel = launch::LinearKernel<tuning::SparsePolicy>;

enum class Mode { forward, adjoint, reverse, reverse_imaging };

template <class T, int R, Mode M>
REVWAVE_HD void sweep_thread(const DensitySweepArgs<T>& a, const ThreadPlace& p) {
  const SweepArgs<T>& b = a.base;
  const index_t k = static_cast<index_t>(p.block.x) * Policy::block_z + p.thread.x;
  const index_t j = static_cast<index_t>(p.block.y) * Policy::block_y + p.thread.y;
  if (k >= b.nz || j >= b.ny) return;
  const index_t i_begin = static_cast<index_t>(p.block.z) * Policy::chunk_x;
  const index_t i_end = i_begin + Policy::chunk_x < b.nx ? i_begin + Policy::chunk_x : b.nx;
  T w[R + 1] = {};
  for (int q = 0; q <= R; ++q) w[q] = b.w[q];
  const index_t sx = b.sx, sy = b.sy;
  const index_t col = (j + R) * sy + k;  // Grid::index within a plane (a plane's sy is 0)
  const T kyj = b.ky[j], kzk = b.kz[k];
  for (index_t i = i_begin; i < i_end; ++i) {
    const index_t idx = (i + R) * sx + col;
    const T eta = damping_eta(b.c, b.kx[i], kyj, kzk);
    const T m0 = b.m[idx];
    if constexpr (M == Mode::forward) {
      const T k_u = density_operator<T, R>(w, a.s + idx, a.t[idx], b.u + idx, sy, sx);
      b.out[idx] = leapfrog_update(b.c, b.u[idx], b.u_prev[idx], k_u, m0, eta);
    } else if constexpr (M == Mode::adjoint) {
      const T kt = density_adjoint_operator<T, R, false>(w, a.s + idx, a.t + idx, b.u + idx, sy, sx).value;
      b.out[idx] = leapfrog_update(b.c, b.u[idx], b.u_prev[idx], kt, m0, eta);
    } else {
      const T u0 = b.u[idx], up0 = b.u_prev[idx];
      const T k_u = density_operator<T, R>(w, a.s + idx, a.t[idx], b.u + idx, sy, sx);
      const T u_next = leapfrog_update(b.c, u0, up0, k_u, m0, eta);
      if constexpr (M == Mode::reverse_imaging) {
        const DensityAdjoint<T> adj =
            density_adjoint_operator<T, R, true>(w, a.s + idx, a.t + idx, b.lam + idx, sy, sx);
        const T l = leapfrog_update(b.c, b.lam[idx], b.lam_prev[idx], adj.value, m0, eta);
        b.grad[idx] += imaging_term(b.c, l, u_next, u0, up0);
        a.image_g[idx] += density_image_g(l, k_u, a.s[idx], u_next, adj.y);
        a.image_q[idx] += density_image_q(l, u0);
        b.out[idx] = l;
      } else {
        const T kt = density_adjoint_operator<T, R, false>(w, a.s + idx, a.t + idx, b.lam + idx, sy, sx).value;
        const T l = leapfrog_update(b.c, b.lam[idx], b.lam_prev[idx], kt, m0, eta);
        b.grad[idx] += imaging_term(b.c, l, u_next, u0, up0);
        b.out[idx] = l;
      }
    }
  }
}

// What a density sweep reads and writes: the acoustic sweep's, and s, t, G and Q.
template <class T, int R>
void sweep_accesses(const DensitySweepArgs<T>& a, MemoryAccesses& acc) {
  acoustic::sweep_accesses<T, R>(a.base, acc);
  const std::size_t field = bytes_of<T>((a.base.nx + 2 * R) * a.base.sx);
  acc.insert(acc.end(), {reads(a.s, field), reads(a.t, field)});
  if (a.image_g != nullptr) acc.insert(acc.end(), {writes(a.image_g, field), writes(a.image_q, field)});
}

template <class T, int R, Mode M>
struct SweepKernel {
  static constexpr const char* name = "the density sweep";
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  DensitySweepArgs<T> a;
  explicit SweepKernel(const DensitySweepArgs<T>& args) : a(args) {}
  LaunchShape shape() const {
    const SweepArgs<T>& b = a.base;
    if (b.ny > 65535L * Policy::block_y || b.nx > 65535L * Policy::chunk_x)
      throw std::logic_error("grid too large for the density sweep's launch");
    return {{blocks_covering(b.nz, Policy::block_z), blocks_covering(b.ny, Policy::block_y),
             blocks_covering(b.nx, static_cast<unsigned>(Policy::chunk_x))},
            {Policy::block_z, Policy::block_y, 1}};
  }
  void accesses(MemoryAccesses& acc) const { sweep_accesses<T, R>(a, acc); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    sweep_thread<T, R, M>(a, t.place());
  }
};

// ---- the free surface's top rows ----

template <class T>
REVWAVE_HD boundary::TopPoint top_point(const DensityTopPass<T>& a, index_t n) {
  boundary::TopPoint p;
  p.k = n % a.rows;
  const index_t column = n / a.rows;
  p.j = column % a.sweep.base.ny;
  p.i = column / a.sweep.base.ny;
  p.idx = (p.i + a.radius) * a.sweep.base.sx + (p.j + a.radius) * a.sweep.base.sy + p.k;
  return p;
}

// DensityConstants' top rows (density/cpu_sweep.cpp) at one point, into the scratch.
template <class T, int R>
REVWAVE_HD void top_compute_thread(const DensityTopPass<T>& a, index_t n) {
  const index_t points = a.points();
  if (n >= points) return;
  const SweepArgs<T>& b = a.sweep.base;
  const boundary::TopPoint p = top_point(a, n);
  const index_t idx = p.idx, k = p.k, col = idx - k;
  const T* w = b.w;  // the kernel argument's (max_radius + 1) weights, as the free surface's pass reads them
  const T* s = a.sweep.s;
  const T* t = a.sweep.t;
  const T eta = damping_eta(b.c, b.kx[p.i], b.ky[p.j], b.kz[k]);
  const T m0 = b.m[idx];
  if (b.grad == nullptr) {
    const T op = a.sweep.adjoint ? density_top_adjoint<T, R, false>(w, s, t, col, b.u + col, k, b.sy, b.sx).value
                                 : density_top_operator<T, R>(w, s, t, col, b.u + col, k, b.sy, b.sx);
    a.scratch[n] = density_top_update<T, R>(b.c, w, b.u + col, b.u_prev + col, k, op, m0, eta);
    return;
  }
  const T* u = b.u + col;
  const T k_u = density_top_operator<T, R>(w, s, t, col, u, k, b.sy, b.sx);
  const T u_next = density_top_update<T, R>(b.c, w, u, b.u_prev + col, k, k_u, m0, eta);
  const bool image = a.sweep.image_g != nullptr;
  const DensityAdjoint<T> adj = image ? density_top_adjoint<T, R, true>(w, s, t, col, b.lam + col, k, b.sy, b.sx)
                                      : density_top_adjoint<T, R, false>(w, s, t, col, b.lam + col, k, b.sy, b.sx);
  const T lam = density_top_update<T, R>(b.c, w, b.lam + col, b.lam_prev + col, k, adj.value, m0, eta);
  a.scratch[n] = lam;
  a.scratch[n + points] = b.grad[idx] + imaging_term(b.c, lam, u_next, b.u[idx], b.u_prev[idx]);
  if (!image) return;
  a.scratch[n + 2 * points] =
      a.sweep.image_g[idx] + density_image_g(lam, k_u + free_surface_mirror<T, R>(w, u, k), s[idx], u_next, adj.y);
  a.scratch[n + 3 * points] = a.sweep.image_q[idx] + density_image_q(lam, b.u[idx]);
}

template <class T>
REVWAVE_HD void top_write_thread(const DensityTopPass<T>& a, index_t n) {
  const index_t points = a.points();
  if (n >= points) return;
  const SweepArgs<T>& b = a.sweep.base;
  const index_t idx = top_point(a, n).idx;
  b.out[idx] = a.scratch[n];
  if (b.grad == nullptr) return;
  b.grad[idx] = a.scratch[n + points];
  if (a.sweep.image_g == nullptr) return;
  a.sweep.image_g[idx] = a.scratch[n + 2 * points];
  a.sweep.image_q[idx] = a.scratch[n + 3 * points];
}

template <class T, int R>
struct TopComputeKernel : LinearKernel {
  static constexpr const char* name = "the density's free-surface rows";
  DensityTopPass<T> a;
  explicit TopComputeKernel(const DensityTopPass<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points()); }
  void accesses(MemoryAccesses& acc) const {
    sweep_accesses<T, R>(a.sweep, acc);
    for (launch::MemoryAccess& m : acc) m.write = false;  // reads the sweep's fields, writes only the scratch
    acc.push_back(writes(a.scratch, bytes_of<T>(a.points() * a.values())));
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    top_compute_thread<T, R>(a, item(t.place()));
  }
};

template <class T>
struct TopWriteKernel : LinearKernel {
  static constexpr const char* name = "the density's free-surface rows' write";
  DensityTopPass<T> a;
  explicit TopWriteKernel(const DensityTopPass<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points()); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.scratch, bytes_of<T>(a.points() * a.values())), writes(a.sweep.base.out)};
    if (a.sweep.base.reverse()) acc.push_back(writes(a.sweep.base.grad));
    if (a.sweep.image_g != nullptr) acc.insert(acc.end(), {writes(a.sweep.image_g), writes(a.sweep.image_q)});
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    top_write_thread(a, item(t.place()));
  }
};

// ---- the sparse work ----

// u[n+1] at probe p as sparse::probe_thread gives it, by K; with a.lam, K u, and y and G where a
// source injects.
template <class T, int R>
REVWAVE_HD void probe_thread(const DensityProbeStep<T>& a, index_t p) {
  const ProbeStep<T>& ps = a.base;
  if (p >= ps.probes.count) return;
  const SweepArgs<T>& g = ps.sweep;
  const index_t idx = ps.probes.index[p];
  const index_t i = idx / g.sx - R, in_plane = idx % g.sx;  // Grid::coordinates
  const index_t j = g.sy ? in_plane / g.sy - R : 0, k = g.sy ? in_plane % g.sy : in_plane;
  const T* w = g.w;
  const T eta = damping_eta(g.c, g.kx[i], g.ky[j], g.kz[k]);
  const bool top = ps.free_surface && k < R;
  const index_t col = idx - k;
  T k_u, v;
  if (top) {
    const T op = density_top_operator<T, R>(w, a.s, a.t, col, g.u + col, k, g.sy, g.sx);
    v = density_top_update<T, R>(g.c, w, g.u + col, g.u_prev + col, k, op, g.m[idx], eta);
    k_u = op + free_surface_mirror<T, R>(w, g.u + col, k);
  } else {
    k_u = density_operator<T, R>(w, a.s + idx, a.t[idx], g.u + idx, g.sy, g.sx);
    v = leapfrog_update(g.c, g.u[idx], g.u_prev[idx], k_u, g.m[idx], eta);
  }
  if (ps.boundary_share != nullptr && ps.boundary_probe[p] >= 0) v += ps.boundary_share[p];
  if (a.lam != nullptr) a.k_u[p] = k_u;
  const index_t e0 = ps.probes.source_begin[p], e1 = ps.probes.source_begin[p + 1];
  if (e0 == e1) {
    ps.next[p] = v;
    return;
  }
  const T q = ps.wavelet[ps.n];
  for (index_t e = e0; e < e1; ++e) {
    const index_t c = ps.probes.source_corner[e];
    v += ps.src_weight[c] * q * ps.src_scale[c];
  }
  ps.next[p] = v;
  if (ps.grad != nullptr) ps.saved[p] = ps.grad[idx];
  if (a.lam == nullptr) return;
  a.y[p] = top ? density_top_adjoint<T, R, true>(w, a.s, a.t, col, a.lam + col, k, g.sy, g.sx).y
               : density_adjoint_operator<T, R, true>(w, a.s + idx, a.t + idx, a.lam + idx, g.sy, g.sx).y;
  a.saved_g[p] = a.image_g[idx];
}

template <class T>
REVWAVE_HD void reimage_thread(const ProbesView& pr, const DensityReimage<T>& a, index_t p) {
  if (p >= pr.count || pr.source_begin[p] == pr.source_begin[p + 1]) return;
  const index_t idx = pr.index[p];
  a.image_g[idx] = a.saved_g[p] + density_image_g(a.lam[idx], a.k_u[p], a.s[idx], a.next[p], a.y[p]);
}

template <class T>
REVWAVE_HD void adjoint_source_thread(const PointsView<T>& rec, const DensityAdjointSourceImages<T>& a, index_t t) {
  if (t >= rec.targets) return;
  const index_t idx = rec.target_index[t];
  T g = a.image_g[idx], q = a.image_q[idx];
  const T k_u = a.k_u[a.target_probe[t]], u = a.u[idx];
  for (index_t e = rec.target_begin[t]; e < rec.target_begin[t + 1]; ++e) {
    const index_t c = rec.corner[e];
    const T delta = rec.weight[c] * a.source[c / 8] * a.scale[c];
    g += delta * k_u;
    q += density_image_q(delta, u);
  }
  a.image_g[idx] = g;
  a.image_q[idx] = q;
}

template <class T, int R>
struct ProbeKernel : LinearKernel {
  static constexpr const char* name = "the density's probes";
  DensityProbeStep<T> a;
  explicit ProbeKernel(const DensityProbeStep<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.base.probes.count); }
  void accesses(MemoryAccesses& acc) const {
    const ProbeStep<T>& ps = a.base;
    const std::size_t probes = bytes_of<T>(ps.probes.count);
    acc = {reads(ps.sweep.u), reads(ps.sweep.u_prev),  reads(ps.sweep.m),
           reads(ps.wavelet), writes(ps.next, probes), reads(a.s),
           reads(a.t)};
    if (ps.grad != nullptr) acc.insert(acc.end(), {reads(ps.grad), writes(ps.saved, probes)});
    if (ps.boundary_share != nullptr) acc.insert(acc.end(), {reads(ps.boundary_share), reads(ps.boundary_probe)});
    if (a.lam != nullptr)
      acc.insert(acc.end(), {reads(a.lam), reads(a.image_g), writes(a.k_u, probes), writes(a.y, probes),
                             writes(a.saved_g, probes)});
    sparse::probe_tables(ps.probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    probe_thread<T, R>(a, item(t.place()));
  }
};

template <class T>
struct ReimageKernel : LinearKernel {
  static constexpr const char* name = "the density's source re-imaging";
  ProbesView probes;
  DensityReimage<T> a;
  ReimageKernel(const ProbesView& p, const DensityReimage<T>& args) : probes(p), a(args) {}
  LaunchShape shape() const { return shape_for(probes.count); }
  void accesses(MemoryAccesses& acc) const {
    const std::size_t n = bytes_of<T>(probes.count);
    acc = {reads(a.lam),  reads(a.s),          reads(a.next, n), reads(a.k_u, n),
           reads(a.y, n), reads(a.saved_g, n), writes(a.image_g)};
    sparse::probe_tables(probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    reimage_thread(probes, a, item(t.place()));
  }
};

template <class T>
struct AdjointSourceKernel : LinearKernel {
  static constexpr const char* name = "the density's adjoint-source images";
  PointsView<T> rec;
  DensityAdjointSourceImages<T> a;
  AdjointSourceKernel(const PointsView<T>& r, const DensityAdjointSourceImages<T>& args) : rec(r), a(args) {}
  LaunchShape shape() const { return shape_for(rec.targets); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.source, bytes_of<T>(rec.count)),
           reads(a.scale, bytes_of<T>(8 * rec.count)),
           reads(a.target_probe, bytes_of<index_t>(rec.targets)),
           reads(a.k_u),
           reads(a.u),
           writes(a.image_g),
           writes(a.image_q)};
    sparse::point_tables(rec, true, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    adjoint_source_thread(rec, a, item(t.place()));
  }
};

template <class T>
struct KeepImagesKernel : LinearKernel {
  static constexpr const char* name = "the density's images kept near a boundary";
  DensityRegionImages<T> a;
  explicit KeepImagesKernel(const DensityRegionImages<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points.count); }
  void accesses(MemoryAccesses& acc) const {
    const std::size_t n = bytes_of<T>(a.points.count);
    acc = {reads(a.points.index, bytes_of<index_t>(a.points.count)), reads(a.image_g), reads(a.image_q),
           writes(a.kept_g, n), writes(a.kept_q, n)};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    const index_t r = item(t.place());
    if (r >= a.points.count) return;
    a.kept_g[r] = a.image_g[a.points.index[r]];
    a.kept_q[r] = a.image_q[a.points.index[r]];
  }
};

template <class T, int R>
REVWAVE_HD void region_reimage_thread(const DensityRegionImages<T>& a, index_t r) {
  if (r >= a.points.count) return;
  const SweepArgs<T>& g = a.sweep;
  const index_t idx = a.points.index[r];
  const index_t in_plane = idx % g.sx;
  const index_t k = g.sy ? in_plane % g.sy : in_plane;  // the depth (Grid::coordinates)
  const index_t col = idx - k;
  const T* w = g.w;
  const bool top = a.free_surface && k < R;
  const T k_u = top ? density_top_full_operator<T, R>(w, a.s, a.t, col, g.u + col, k, g.sy, g.sx)
                    : density_operator<T, R>(w, a.s + idx, a.t[idx], g.u + idx, g.sy, g.sx);
  const T y = top ? density_top_adjoint<T, R, true>(w, a.s, a.t, col, g.lam + col, k, g.sy, g.sx).y
                  : density_adjoint_operator<T, R, true>(w, a.s + idx, a.t + idx, g.lam + idx, g.sy, g.sx).y;
  const T lam = a.lam_out[idx];
  a.image_g[idx] = a.kept_g[r] + density_image_g(lam, k_u, a.s[idx], a.u_next[r], y);
  a.image_q[idx] = a.kept_q[r] + density_image_q(lam, g.u[idx]);
}

template <class T, int R>
struct RegionReimageKernel : LinearKernel {
  static constexpr const char* name = "the density's images near a boundary";
  DensityRegionImages<T> a;
  explicit RegionReimageKernel(const DensityRegionImages<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points.count); }
  void accesses(MemoryAccesses& acc) const {
    const std::size_t n = bytes_of<T>(a.points.count);
    acc = {reads(a.points.index, bytes_of<index_t>(a.points.count)),
           reads(a.sweep.u),
           reads(a.sweep.lam),
           reads(a.s),
           reads(a.t),
           reads(a.lam_out),
           reads(a.u_next, n),
           reads(a.kept_g, n),
           reads(a.kept_q, n),
           writes(a.image_g),
           writes(a.image_q)};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    region_reimage_thread<T, R>(a, item(t.place()));
  }
};

}  // namespace revwave::density
