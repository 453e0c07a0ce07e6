// The C-PML inside the column sweep (acoustic/sweep_columns.hpp's Layer): the constant-density
// sweep completes the values at the region's points itself, after the interior's, by the per-point
// formulas the separate passes use (cpml_point.hpp; the same sums in the same order, the divisor a
// from the sweep's own m and eta), so the values keep their bits and the region's points are not
// read and written again by kernels of their own:
//   forward:  out = v + C / a, zeta[n] into out's tail (psi[n] there already: the psi pass);
//   adjoint:  out = v' + C' / a (nu and mu made before: the slab passes);
//   reverse:  lam[n+1] = v' + C' / a, and dJ/dm imaged from it and u[n+1] read from a whole field
//             (the history's, or the forward step's own kernels' again: next_field), never from
//             the registers, so that every strategy images from full's bits on any device.
// A block none of whose points is in the region runs the sweep without the layer (its own code and
// registers: layered_sweep_thread); in the others a thread asks per column whether its (y, z) lies
// within R of a y or z slab, then per plane whether x does. The free surface's rows are completed after the sweep (free_surface_kernels.hpp), and the
// region's share after them, so under a free surface the separate passes run instead.
#pragma once
#include "revwave/cuda/kernels/acoustic/sweep_launch.hpp"
#include "revwave/cuda/kernels/boundary/cpml_launch.hpp"

namespace revwave::cpml {

template <class T, int R, CpmlSweepMode M>
struct SweepLayer {
  static constexpr bool active = true;
  CpmlTables<T> t;
  CpmlSweepFields<T> f;

  REVWAVE_HD_INLINE bool column_in_region(int j, int k) const {
    const Point<T, R> p{t};
    return p.near(1, j) || p.near(2, k);
  }
  REVWAVE_HD_INLINE bool x_in_region(index_t i) const { return Point<T, R>{t}.near(0, i); }
  // Whether the box [i0, i1) x [j0, j1) x [k0, k1) (a block's points) holds a point of the region.
  REVWAVE_HD_INLINE bool box_in_region(index_t i0, index_t i1, index_t j0, index_t j1, index_t k0, index_t k1) const {
    const index_t b[3] = {i0, j0, k0}, e[3] = {i1, j1, k1};
    return Point<T, R>{t}.box_near(b, e);
  }
  // Forward (M forward) or the adjoint's (M adjoint) completed value at padded (i, j, k), index idx.
  REVWAVE_HD T forward_value(T v, index_t i, int j, int k, index_t idx, T m, T eta) const {
    const Point<T, R> p{t};
    const index_t at[3] = {i, j, k};
    const T a = leapfrog_a(t.c, m, eta);
    if constexpr (M == CpmlSweepMode::forward) {
      T* tail = f.out + t.tail;
      return cpml_value(v, p.correction(f.u, f.u + t.tail, at, idx, tail, tail), a);
    } else {
      return cpml_value(v, p.adjoint_correction(f.adj, at, idx), a);
    }
  }
  // Reverse: lam[n+1] completed, u[n+1] the whole field's.
  REVWAVE_HD void reverse_values(index_t i, int j, int k, index_t idx, T m, T eta, T& lam, T& u_next) const {
    const Point<T, R> p{t};
    const index_t at[3] = {i, j, k};
    lam = cpml_value(lam, p.adjoint_correction(f.adj, at, idx), leapfrog_a(t.c, m, eta));
    u_next = f.u_next[idx];
  }
};

// The column sweep (acoustic::ColumnsSweep's launch) with the layer, without the codec or the
// illumination in passing.
template <class T, int R, CpmlSweepMode M>
struct ColumnsSweep : acoustic::SweepKernelBase<T, R, M == CpmlSweepMode::reverse> {
  static constexpr bool reverse = M == CpmlSweepMode::reverse;
  static constexpr const char* name = reverse ? "the reverse sweep with the C-PML" : "the sweep with the C-PML";
  using Policy = tuning::ColumnsPolicy;
  using Shared = launch::NoShared;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = Policy::block_threads;
  static constexpr int min_blocks = Policy::blocks_per_sm;
  SweepLayer<T, R, M> layer;
  ColumnsSweep(const SweepArgs<T>& args, const SweepLayer<T, R, M>& l)
      : acoustic::SweepKernelBase<T, R, reverse>{args}, layer(l) {}
  LaunchShape shape() const { return columns::launch_shape<Policy>(this->a); }
  void accesses(MemoryAccesses& acc) const {
    acoustic::sweep_accesses<T, R>(this->a, acc);
    const CpmlTables<T>& t = layer.t;
    table_accesses(t, acc);
    const std::size_t tail = bytes_of<T>(t.tail_values);
    if constexpr (M == CpmlSweepMode::forward) {
      acc.insert(acc.end(), {reads(layer.f.u + t.tail, tail), reads(layer.f.out + t.tail, tail),
                             writes(layer.f.out + t.tail, tail)});
    } else {
      acc.push_back(reads(layer.f.adj, tail));
      if constexpr (reverse) acc.push_back(reads(layer.f.u_next, bytes_of<T>(t.tail)));
    }
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& th) const {
    columns::layered_sweep_thread<Policy, T, R, reverse, columns::ZFromMemory, false, false>(this->a, layer, th);
  }
};

}  // namespace revwave::cpml
