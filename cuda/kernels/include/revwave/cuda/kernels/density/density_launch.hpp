// The variable-density kernels' thread bodies and launch structs (launch/kernel_launch.hpp): the
// sweep and dJ/drho's imaging pass (a thread per (y, z) column walking a chunk of x planes, no
// collectives), the free surface's top-rows pass (a thread per top-row point, numbered as
// boundary/free_surface_launch.hpp numbers them), and the probes (1D, the sparse policy). Every
// value is computed by the point formulas the CPU's density/cpu_sweep.cpp calls, in the same
// order: the same bits.
#pragma once
#include <stdexcept>
#include <string>

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

enum class Mode { forward, adjoint, reverse };

// The density kernels' (y, z) columns, each walking a chunk of x planes (the sweep's and the image's).
template <class Layout>
LaunchShape column_shape(index_t nx, index_t ny, index_t nz, const char* what) {
  if (ny > 65535L * Layout::block_y || nx > 65535L * Layout::chunk_x)
    throw std::logic_error(std::string("grid too large for ") + what + "'s launch");
  return {{blocks_covering(nz, Layout::block_z), blocks_covering(ny, Layout::block_y),
           blocks_covering(nx, static_cast<unsigned>(Layout::chunk_x))},
          {Layout::block_z, Layout::block_y, 1}};
}

// A column thread's place: its depth k, row j and x chunk [i_begin, i_end) (padded coordinates),
// or none past the extents.
template <class Layout>
struct ColumnPlace {
  index_t k, j, i_begin, i_end;
  bool inside;
  REVWAVE_HD ColumnPlace(const ThreadPlace& p, index_t nx, index_t ny, index_t nz)
      : k(static_cast<index_t>(p.block.x) * Layout::block_z + p.thread.x),
        j(static_cast<index_t>(p.block.y) * Layout::block_y + p.thread.y),
        i_begin(static_cast<index_t>(p.block.z) * Layout::chunk_x),
        i_end(i_begin + Layout::chunk_x < nx ? i_begin + Layout::chunk_x : nx),
        inside(k < nz && j < ny) {}
};

template <class T, int R, Mode M>
REVWAVE_HD void sweep_thread(const DensitySweepArgs<T>& a, const ThreadPlace& p) {
  const SweepArgs<T>& b = a.base;
  const ColumnPlace<Policy> cp(p, b.nx, b.ny, b.nz);
  if (!cp.inside) return;
  T w[R + 1] = {};
  for (int q = 0; q <= R; ++q) w[q] = b.w[q];
  T d[stagger_radius<R> + 1] = {};
  for (int q = 1; q <= stagger_radius<R>; ++q) d[q] = a.rho.d[q];
  const index_t sx = b.sx, sy = b.sy;
  const index_t col = (cp.j + R) * sy + cp.k;  // Grid::index within a plane (a plane's sy is 0)
  const T kyj = b.ky[cp.j], kzk = b.kz[cp.k];
  for (index_t i = cp.i_begin; i < cp.i_end; ++i) {
    const index_t idx = (i + R) * sx + col;
    const T eta = damping_eta(b.c, b.kx[i], kyj, kzk);
    const T m0 = b.m[idx];
    const DensityPoint<T> c = a.rho.at(idx);
    if constexpr (M == Mode::forward || M == Mode::adjoint) {
      const T op = density_apply<T, R, M == Mode::adjoint>(w, d, c, b.u + idx, sy, sx);
      b.out[idx] = leapfrog_update(b.c, b.u[idx], b.u_prev[idx], op, m0, eta);
    } else {
      const T u0 = b.u[idx], up0 = b.u_prev[idx];
      const T u_next = leapfrog_update(b.c, u0, up0, density_operator<T, R>(w, d, c, b.u + idx, sy, sx), m0, eta);
      const T l = leapfrog_update(b.c, b.lam[idx], b.lam_prev[idx],
                                  density_adjoint_operator<T, R>(w, d, c, b.lam + idx, sy, sx), m0, eta);
      b.grad[idx] += imaging_term(b.c, l, u_next, u0, up0);
      b.out[idx] = l;
    }
  }
}

// What the density's coefficients add to a kernel's reads.
template <class T>
void coefficient_accesses(const DensityCoefficients<T>& rho, std::size_t field, MemoryAccesses& acc) {
  acc.insert(acc.end(), {reads(rho.s, field), reads(rho.t, field), reads(rho.b[0], field), reads(rho.b[1], field),
                         reads(rho.b[2], field)});
}

// What a density sweep reads and writes: the acoustic sweep's, and the density's coefficients.
template <class T, int R>
void sweep_accesses(const DensitySweepArgs<T>& a, MemoryAccesses& acc) {
  acoustic::sweep_accesses<T, R>(a.base, acc);
  coefficient_accesses(a.rho, bytes_of<T>((a.base.nx + 2 * R) * a.base.sx), acc);
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
  LaunchShape shape() const { return column_shape<Policy>(a.base.nx, a.base.ny, a.base.nz, name); }
  void accesses(MemoryAccesses& acc) const { sweep_accesses<T, R>(a, acc); }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    sweep_thread<T, R, M>(a, t.place());
  }
};

// ---- dJ/drho's imaging pass ----

// density/cpu_sweep.cpp's image_step at the points of one column thread: the same taps, axes and
// place, the mirrored z in the free surface's top rows.
template <class T, int R>
REVWAVE_HD void image_thread(const DensityImageStep<T>& a, const ThreadPlace& p) {
  using IP = tuning::DensityImagePolicy;
  const SweepArgs<T>& g = a.sweep;
  const ColumnPlace<IP> cp(p, g.nx, g.ny, g.nz);
  if (!cp.inside) return;
  T w[R + 1] = {};
  for (int q = 0; q <= R; ++q) w[q] = g.w[q];
  T d[stagger_radius<R> + 1] = {};
  for (int q = 1; q <= stagger_radius<R>; ++q) d[q] = a.rho.d[q];
  const index_t sx = g.sx, sy = g.sy, k = cp.k;
  const index_t col = (cp.j + R) * sy + k;
  const bool mirrored = a.free_surface && k < R;  // the mirror's reach
  const T *s = a.rho.s, *t = a.rho.t, *bz = a.rho.b[0], *by = a.rho.b[1], *bx = a.rho.b[2];
  for (index_t i = cp.i_begin; i < cp.i_end; ++i) {
    const index_t idx = (i + R) * sx + col;
    const DensityPlace place{{k, cp.j, i}, {g.nz, g.ny, g.nx}, a.free_surface};
    const DensityTaps<T, false> tu{g.u + idx, s + idx, t + idx};
    const DensityTaps<T, true> tl{g.lam + idx, s + idx, t + idx};
    const DensityAxis<T, false> uy{tu, by + idx, sy}, ux{tu, bx + idx, sx};
    const DensityAxis<T, true> ly{tl, by + idx, sy}, lx{tl, bx + idx, sx};
    T v;
    if (mirrored) {
      const MirroredDensityZ<T, false> uz{tu, bz + idx, k};
      const MirroredDensityZ<T, true> lz{tl, bz + idx, k};
      v = density_image<T, R>(w, d, s[idx], g.u[idx], g.lam[idx], uz, uy, ux, lz, ly, lx, place);
    } else {
      const DensityAxis<T, false> uz{tu, bz + idx, 1};
      const DensityAxis<T, true> lz{tl, bz + idx, 1};
      v = density_image<T, R>(w, d, s[idx], g.u[idx], g.lam[idx], uz, uy, ux, lz, ly, lx, place);
    }
    a.image[idx] += v;
  }
}

template <class T, int R>
struct ImageKernel {
  using IP = tuning::DensityImagePolicy;
  static constexpr const char* name = "the density's imaging";
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = IP::block_threads;
  static constexpr int min_blocks = IP::blocks_per_sm;
  DensityImageStep<T> a;
  explicit ImageKernel(const DensityImageStep<T>& args) : a(args) {}
  LaunchShape shape() const { return column_shape<IP>(a.sweep.nx, a.sweep.ny, a.sweep.nz, name); }
  void accesses(MemoryAccesses& acc) const {
    const std::size_t field = bytes_of<T>((a.sweep.nx + 2 * R) * a.sweep.sx);
    acc = {reads(a.sweep.u, field), reads(a.sweep.lam, field), writes(a.image, field)};
    coefficient_accesses(a.rho, field, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    image_thread<T, R>(a, t.place());
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
  const index_t idx = p.idx, k = p.k;
  const T* w = b.w;  // the kernel argument's (max_radius + 1) weights, as the free surface's pass reads them
  const T* d = a.sweep.rho.d;
  const DensityPoint<T> c = a.sweep.rho.at(idx);
  const T eta = damping_eta(b.c, b.kx[p.i], b.ky[p.j], b.kz[k]);
  const T m0 = b.m[idx];
  if (b.grad == nullptr) {
    const DensityTopValue<T> v = a.sweep.adjoint ? density_top_apply<T, R, true>(w, d, c, b.u + idx, k, b.sy, b.sx)
                                                 : density_top_apply<T, R, false>(w, d, c, b.u + idx, k, b.sy, b.sx);
    a.scratch[n] = density_top_update(b.c, b.u[idx], b.u_prev[idx], k, v, m0, eta);
    return;
  }
  const T u_next = density_top_update(b.c, b.u[idx], b.u_prev[idx], k,
                                      density_top_apply<T, R, false>(w, d, c, b.u + idx, k, b.sy, b.sx), m0, eta);
  const T lam = density_top_update(b.c, b.lam[idx], b.lam_prev[idx], k,
                                   density_top_apply<T, R, true>(w, d, c, b.lam + idx, k, b.sy, b.sx), m0, eta);
  a.scratch[n] = lam;
  a.scratch[n + points] = b.grad[idx] + imaging_term(b.c, lam, u_next, b.u[idx], b.u_prev[idx]);
}

template <class T>
REVWAVE_HD void top_write_thread(const DensityTopPass<T>& a, index_t n) {
  const index_t points = a.points();
  if (n >= points) return;
  const SweepArgs<T>& b = a.sweep.base;
  const index_t idx = top_point(a, n).idx;
  b.out[idx] = a.scratch[n];
  if (b.grad != nullptr) b.grad[idx] = a.scratch[n + points];
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
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    top_write_thread(a, item(t.place()));
  }
};

// ---- the sparse work ----

// u[n+1] at probe p as sparse::probe_thread gives it, by K (density_next_at's formulas).
template <class T, int R>
REVWAVE_HD void probe_thread(const DensityProbeStep<T>& a, index_t p) {
  const ProbeStep<T>& ps = a.base;
  if (p >= ps.probes.count) return;
  const SweepArgs<T>& g = ps.sweep;
  const index_t idx = ps.probes.index[p];
  const index_t i = idx / g.sx - R, in_plane = idx % g.sx;  // Grid::coordinates
  const index_t j = g.sy ? in_plane / g.sy - R : 0, k = g.sy ? in_plane % g.sy : in_plane;
  const T* w = g.w;
  const T* d = a.rho.d;
  const DensityPoint<T> c = a.rho.at(idx);
  const T eta = damping_eta(g.c, g.kx[i], g.ky[j], g.kz[k]);
  T v;
  if (ps.free_surface && k < R) {
    const DensityTopValue<T> op = density_top_apply<T, R, false>(w, d, c, g.u + idx, k, g.sy, g.sx);
    v = density_top_update(g.c, g.u[idx], g.u_prev[idx], k, op, g.m[idx], eta);
  } else {
    v = leapfrog_update(g.c, g.u[idx], g.u_prev[idx], density_operator<T, R>(w, d, c, g.u + idx, g.sy, g.sx), g.m[idx],
                        eta);
  }
  if (ps.boundary_share != nullptr && ps.boundary_probe[p] >= 0) v += ps.boundary_share[p];
  const index_t e0 = ps.probes.source_begin[p], e1 = ps.probes.source_begin[p + 1];
  if (e0 == e1) {
    ps.next[p] = v;
    return;
  }
  const T q = ps.wavelet[ps.n];
  for (index_t e = e0; e < e1; ++e) {
    const index_t corner = ps.probes.source_corner[e];
    v += ps.src_weight[corner] * q * ps.src_scale[corner];
  }
  ps.next[p] = v;
  if (ps.grad != nullptr) ps.saved[p] = ps.grad[idx];
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
    acc = {reads(ps.sweep.u), reads(ps.sweep.u_prev), reads(ps.sweep.m), reads(ps.wavelet), writes(ps.next, probes)};
    coefficient_accesses(a.rho, 0, acc);
    if (ps.grad != nullptr) acc.insert(acc.end(), {reads(ps.grad), writes(ps.saved, probes)});
    if (ps.boundary_share != nullptr) acc.insert(acc.end(), {reads(ps.boundary_share), reads(ps.boundary_probe)});
    sparse::probe_tables(ps.probes, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    probe_thread<T, R>(a, item(t.place()));
  }
};

}  // namespace revwave::density
