// The C-PML's device passes (the CPU's boundary/cpml_physics.cpp, formula for formula): psi over
// the slabs, the adjoint's nu and mu over the slabs, the share at the probes (psi recomputed), and
// the region's share, which runs inside the column sweep around the constant density
// (launch_cpml_sweep, boundary/cpml_sweep.hpp) and otherwise as passes after the sweep: the forward
// share C / a, the adjoint's C' / a, the reverse step's completion of lam[n+1] and dJ/dm. Only the
// profile is uploaded (cpml_device_physics.cpp); the threads find their points by arithmetic
// (CpmlTables).
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/core/config.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"
#include "revwave/numerics/boundary/cpml_point.hpp"

namespace revwave {

// The region (the points within R of a slab, the plane z = 0 left out under a free surface) as at
// most six disjoint boxes, z fastest in each: a thread's place r gives its point by arithmetic, so
// no table of points is built on the host or read on the device.
struct CpmlRegion {
  int boxes = 0;
  index_t count = 0;
  index_t first[6] = {};      // each box's first place
  index_t origin[6][3] = {};  // padded coordinates of its first point
  index_t extent[6][3] = {};
  REVWAVE_HD void point(index_t r, index_t* at) const {
    int b = 0;
    while (b + 1 < boxes && r >= first[b + 1]) ++b;
    index_t l = r - first[b];
    at[2] = origin[b][2] + l % extent[b][2];
    l /= extent[b][2];
    at[1] = origin[b][1] + l % extent[b][1];
    at[0] = origin[b][0] + l / extent[b][1];
  }
  // The place of padded point at, -1 outside the region (host: the probes').
  index_t place(const index_t* at) const {
    for (int b = 0; b < boxes; ++b) {
      index_t l = 0;
      bool in = true;
      for (int a = 0; a < 3; ++a) {
        const index_t d = at[a] - origin[b][a];
        in = in && d >= 0 && d < extent[b][a];
        l = l * extent[b][a] + d;
      }
      if (in) return first[b] + l;
    }
    return -1;
  }
};

// The region of a C-PML with these tables' layout at stencil radius `radius`: the points near x's
// slabs (all y, z), then near y's (x not near), then near z's (neither x nor y near).
template <class T>
CpmlRegion cpml_region(const CpmlPointTables<T>& t, int radius) {
  struct Span {
    index_t b, e;
  };
  // Axis a's coordinates near a slab, and the rest, as at most two and one spans.
  const auto spans = [&](int a, bool near_ones, Span* out) {
    const index_t n = t.padded[a];
    const index_t lo_end = t.lo[a] > 0 ? (t.lo[a] + radius < n ? t.lo[a] + radius : n) : 0;
    const index_t hi_begin = t.hi[a] > 0 ? (n - t.hi[a] - radius > lo_end ? n - t.hi[a] - radius : lo_end) : n;
    int k = 0;
    if (near_ones) {
      if (hi_begin == lo_end && lo_end > 0 && hi_begin < n) {
        out[k++] = {0, n};
      } else {
        if (lo_end > 0) out[k++] = {0, lo_end};
        if (hi_begin < n) out[k++] = {hi_begin, n};
      }
    } else if (lo_end < hi_begin) {
      out[k++] = {lo_end, hi_begin};
    }
    return k;
  };
  const index_t z0 = t.free_surface ? 1 : 0;
  CpmlRegion g;
  const auto add = [&](Span x, Span y, Span z) {
    if (z.b < z0) z.b = z0;
    if (x.e <= x.b || y.e <= y.b || z.e <= z.b) return;
    const int b = g.boxes++;
    g.first[b] = g.count;
    const Span s[3] = {x, y, z};
    index_t n = 1;
    for (int a = 0; a < 3; ++a) {
      g.origin[b][a] = s[a].b;
      g.extent[b][a] = s[a].e - s[a].b;
      n *= g.extent[b][a];
    }
    g.count += n;
  };
  Span near_x[2]{}, rest_x[1]{}, near_y[2]{}, rest_y[1]{}, near_z[2]{};
  const int nx = spans(0, true, near_x), rx = spans(0, false, rest_x);
  const int ny = spans(1, true, near_y), ry = spans(1, false, rest_y);
  const int nz = spans(2, true, near_z);
  const Span all_y{0, t.padded[1]}, all_z{0, t.padded[2]};
  for (int i = 0; i < nx; ++i) add(near_x[i], all_y, all_z);
  for (int i = 0; i < rx; ++i)
    for (int j = 0; j < ny; ++j) add(rest_x[i], near_y[j], all_z);
  for (int i = 0; i < rx; ++i)
    for (int j = 0; j < ry; ++j)
      for (int k = 0; k < nz; ++k) add(rest_x[i], rest_y[j], near_z[k]);
  return g;
}

// The per-point tables (numerics/boundary/cpml_point.hpp) in device memory, and what places the
// passes' threads: slab points and region points by arithmetic on the layout, the update's divisor
// a from m (the same formula as leapfrog_a_at: the damping profiles are zero under a C-PML).
template <class T>
struct CpmlTables : CpmlPointTables<T> {
  index_t origin = 0;       // Grid::origin(): the allocated index of padded point (0, 0, 0)
  index_t slab_count = 0;   // every slab point, axis by axis in tail order
  index_t tail_values = 0;  // the tail's length (CpmlLayout::values)
  CpmlRegion region;
  const T* m = nullptr;    // the allocated grid's m
  const T* kappa[3] = {};  // the damping profiles (zero under a C-PML, read for the formula's sake)
  StepCoefficients<T> c{};

  REVWAVE_HD index_t index_of(const index_t* at) const {
    return origin + at[0] * this->stride[0] + at[1] * this->stride[1] + at[2];
  }
  // Slab point s: its axis, offset o in the axis's slabs, padded coordinates (CpmlLayout::slab_point).
  REVWAVE_HD void slab_point(index_t s, int& axis, index_t& o, index_t* at) const {
    axis = 0;
    o = s;
    while (axis < 2 && o >= this->zeta[axis] - this->psi[axis]) {
      o -= this->zeta[axis] - this->psi[axis];
      ++axis;
    }
    cpml_slab_point(this->padded, this->lo, this->hi, axis, o, at);
  }
  REVWAVE_HD T divisor(index_t idx, const index_t* at) const {
    return leapfrog_a(c, m[idx], damping_eta(c, kappa[0][at[0]], kappa[1][at[1]], kappa[2][at[2]]));
  }
};

// The layer inside the constant-density column sweep (boundary/cpml_sweep.hpp): the forward
// step's, the adjoint's (the dot-product test's), or the fused reverse step's.
enum class CpmlSweepMode { forward, adjoint, reverse };
template <class T>
struct CpmlSweepFields {
  const T* u = nullptr;       // forward: u[n], its tail psi[n-1] and zeta[n-1]
  T* out = nullptr;           // forward: the sweep's out, its tail psi[n] (the psi pass) and then zeta[n]
  const T* adj = nullptr;     // adjoint, reverse: nu and mu, made by the slab passes before the sweep
  const T* u_next = nullptr;  // reverse: u[n+1] whole
};
// The radii the sweep with the layer inside it is built for: up to space order 8 (the default).
// Each of its kernels holds the column body twice (with and without the layer), and every radius
// more would carry it in every binary that links the kernels (the GPU check's pack must fit a
// device call: tests/ci/test_gpu_prebuild.py); higher orders run the passes after the sweep.
inline constexpr int cpml_sweep_max_radius = 4;
inline constexpr bool cpml_sweep_takes(int radius) { return radius >= 1 && radius <= cpml_sweep_max_radius; }
// The column sweep of `a` (a.u, a.out: forward and adjoint; a reverse step's fields: reverse) with
// the layer's share at the region's points, on a grid without a free surface, at a radius it takes,
// without the illumination in passing.
template <class T>
void launch_cpml_sweep(const SweepArgs<T>& a, const CpmlTables<T>& t, const CpmlSweepFields<T>& f, CpmlSweepMode mode,
                       int radius, cudaStream_t stream);

// forward: psi[n] of every slab point into out's tail (from u[n] and u's tail).
template <class T>
void launch_cpml_psi(const CpmlTables<T>& t, const T* u, T* psi_out, int radius, cudaStream_t stream);
// forward: at every region point zeta[n] into out's tail and out = v + C / a (psi[n] read from out's tail).
template <class T>
void launch_cpml_forward(const CpmlTables<T>& t, const T* u, T* out, int radius, cudaStream_t stream);
// adjoint: nu then mu (adj: the tail-shaped buffer of nu and mu) from lam[k+1].
template <class T>
void launch_cpml_adjoint_passes(const CpmlTables<T>& t, const T* lam, T* adj, int radius, cudaStream_t stream);
// adjoint: out = v' + C' / a at every region point.
template <class T>
void launch_cpml_adjoint(const CpmlTables<T>& t, const T* adj, T* out, int radius, cudaStream_t stream);
// probes: share[p] = C / a at the probes in the region (probe_region[p] >= 0), psi recomputed.
template <class T>
void launch_cpml_probe_share(const CpmlTables<T>& t, index_t probes, const index_t* probe_region, const T* u, T* share,
                             int radius, cudaStream_t stream);

// The reverse step's completion at the region's points (CpmlCpuPhysics::reverse_sweep).
template <class T>
struct CpmlReverse {
  const T* u = nullptr;
  const T* u_prev = nullptr;
  const T* adj = nullptr;     // nu and mu
  const T* u_next = nullptr;  // u[n+1] whole: a stored history's, or made by the forward step's kernels
  const T* grad0 = nullptr;   // per region place (CpmlRegion): dJ/dm before the sweep
  T* lam_out = nullptr;
  T* grad = nullptr;
  StepCoefficients<T> c;
};
// The layer's share of dJ/drho (CpmlCpuPhysics::after_adjoint_source) added to image at the region's
// points: lam = lam[n+1] complete, adj's nu still nu[n+1], psi = the reverse step's psi[n]. Only
// with a density (t.ds set).
template <class T>
void launch_cpml_density_image(const CpmlTables<T>& t, const T* u, const T* lam, const T* adj, const T* psi, T* image,
                               int radius, cudaStream_t stream);
template <class T>
void launch_cpml_save_gradient(const CpmlTables<T>& t, const T* grad, T* grad0, cudaStream_t stream);
template <class T>
void launch_cpml_reverse(const CpmlTables<T>& t, const CpmlReverse<T>& r, int radius, cudaStream_t stream);

}  // namespace revwave
