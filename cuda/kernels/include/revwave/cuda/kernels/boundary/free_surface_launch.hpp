// The free surface's launch structs (the launch layer's concept, launch/kernel_launch.hpp) and
// their thread bodies: 1D launches with the sparse kernels' policy (small launches: nx ny R
// points), a thread per top-row point (i, j, k < rows), numbered as cpu_free_surface.cpp numbers
// them. Each thread reads fields it does not write but at its own point.
#pragma once
#include "revwave/cuda/kernels/boundary/free_surface_kernels.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/tuning/sparse_policy.hpp"
#include "revwave/numerics/boundary/free_surface.hpp"

namespace revwave::boundary {

using launch::bytes_of;
using launch::MemoryAccesses;
using launch::reads;
using launch::writes;

// Top-row point t: padded coordinates and Grid::index.
struct TopPoint {
  index_t i = 0, j = 0, k = 0, idx = 0;
};
template <class T>
REVWAVE_HD TopPoint top_point(const FreeSurfacePass<T>& a, index_t t) {
  TopPoint p;
  p.k = t % a.rows;
  const index_t column = t / a.rows;
  p.j = column % a.s.ny;
  p.i = column / a.s.ny;
  p.idx = (p.i + a.radius) * a.s.sx + (p.j + a.radius) * a.s.sy + p.k;
  return p;
}

template <class T>
REVWAVE_HD T top_eta(const FreeSurfacePass<T>& a, const TopPoint& p) {
  return damping_eta(a.s.c, a.s.kx[p.i], a.s.ky[p.j], a.s.kz[p.k]);
}

using LinearKernel = launch::LinearKernel<tuning::SparsePolicy>;

template <class T>
void damping_reads(const FreeSurfacePass<T>& a, MemoryAccesses& acc) {
  acc.push_back(reads(a.s.m));
  acc.push_back(reads(a.s.kx, bytes_of<T>(a.s.nx)));
  acc.push_back(reads(a.s.ky, bytes_of<T>(a.s.ny)));
  acc.push_back(reads(a.s.kz, bytes_of<T>(a.s.nz)));
}

template <class T, int R>
struct StepKernel : LinearKernel {
  static constexpr const char* name = "the free surface";
  FreeSurfacePass<T> a;
  explicit StepKernel(const FreeSurfacePass<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points()); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.field), writes(a.out)};
    damping_reads(a, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    const index_t n = item(t.place());
    if (n >= a.points()) return;
    const TopPoint p = top_point(a, n);
    const T div = leapfrog_a(a.s.c, a.s.m[p.idx], top_eta(a, p));
    a.out[p.idx] = free_surface_value<T, R>(a.s.w, a.field + (p.idx - p.k), p.k, a.out[p.idx], div);
  }
};

template <class T>
struct SaveKernel : LinearKernel {
  static constexpr const char* name = "the free surface's saved gradient";
  FreeSurfacePass<T> a;
  explicit SaveKernel(const FreeSurfacePass<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points()); }
  void accesses(MemoryAccesses& acc) const { acc = {reads(a.grad), writes(a.saved, bytes_of<T>(a.points()))}; }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    const index_t n = item(t.place());
    if (n < a.points()) a.saved[n] = a.grad[top_point(a, n).idx];
  }
};

// cpu_free_surface_reverse at one point: the sweep's u[n+1] (sweep_columns' formula), then both
// fields' mirror shares, and the gradient imaged again from its saved value.
template <class T, int R>
struct ReverseKernel : LinearKernel {
  static constexpr const char* name = "the free surface's reverse step";
  FreeSurfacePass<T> a;
  explicit ReverseKernel(const FreeSurfacePass<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.points()); }
  void accesses(MemoryAccesses& acc) const {
    acc = {reads(a.field), reads(a.u_prev), reads(a.lam),
           writes(a.out),  writes(a.grad),  reads(a.saved, bytes_of<T>(a.points()))};
    damping_reads(a, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    const index_t n = item(t.place());
    if (n >= a.points()) return;
    const TopPoint p = top_point(a, n);
    const index_t i = p.idx;
    const T eta = top_eta(a, p);
    const T* u = a.field;
    T w[R + 1];
    for (int q = 0; q <= R; ++q) w[q] = a.s.w[q];
    const T u_sweep =
        leapfrog_update(a.s.c, u[i], a.u_prev[i], laplacian<T, R>(w, u + i, a.s.sy, a.s.sx), a.s.m[i], eta);
    const T div = leapfrog_a(a.s.c, a.s.m[i], eta);
    const T u_next = free_surface_value<T, R>(w, u + (i - p.k), p.k, u_sweep, div);
    const T lam_next = free_surface_value<T, R>(w, a.lam + (i - p.k), p.k, a.out[i], div);
    a.grad[i] = a.saved[n] + imaging_term(a.s.c, lam_next, u_next, u[i], a.u_prev[i]);
    a.out[i] = lam_next;
  }
};

}  // namespace revwave::boundary
