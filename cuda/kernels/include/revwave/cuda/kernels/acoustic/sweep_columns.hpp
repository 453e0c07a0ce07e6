// The column sweep: each thread owns one (y, z) column and walks a chunk of x planes; a warp
// spans 32 consecutive z of a 128-byte aligned row, so every access to a plane is coalesced into
// whole sectors, and the y and z neighbours (and the x ones where no queue fits) are re-read
// from L1/L2 rather than DRAM. Host+device: a GPU and cudasim run this body.
// Offsets within a plane are 32-bit; the plane advances by pointer. Where the registers allow
// (queue_fits), each stencil field's x neighbours ride in a register queue along the walk, so a
// point loads one new plane value instead of 2R + 1 (the y and z neighbours still come from the
// caches); the values and the summation order are the same, so the bits are too.
// The z neighbours come from a policy (sweep_z_window.hpp): the field (the caches: the column
// sweep) or the warp's other lanes (the shuffle sweep), the rest of the body being the same.
// Forward, the sweep can also write the fp16 / bf16 encoding of the state it reads (the fused
// codec: sweep_encode.hpp), or add its square into the illumination (sweep_illuminate.hpp). Constants: tuning/acoustic_sweep_policy.hpp; launch structs: sweep_launch.hpp.
#pragma once
#include <stdexcept>

#include "revwave/cuda/kernels/acoustic/sweep_encode.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_illuminate.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_z_window.hpp"
#include "revwave/cuda/kernels/launch/launch_shape.hpp"
#include "revwave/cuda/kernels/tuning/acoustic_sweep_policy.hpp"

namespace revwave::columns {

using Policy = tuning::ColumnsPolicy;
template <class T, int R, bool Reverse>
inline constexpr bool queue_fits = Policy::queue_fits<T, R, Reverse>;

// The x neighbours of one column: q[R + d] is the field at plane i + d, d in [-R, R].
template <class T, int R>
struct XQueue {
  T q[2 * R + 1];
  // Planes i - R .. i + R - 1 of the first point; `f` points at plane i.
  REVWAVE_HD void fill(const T* f, int sx) {
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[d] = f[(d - R) * sx];
  }
  // Plane i + R (loaded by the caller, maybe ahead), then the centre: once per point, before the stencil.
  REVWAVE_HD T push(T front) {
    q[2 * R] = front;
    return q[R];
  }
  REVWAVE_HD const T* x() const { return q + R; }
  REVWAVE_HD void advance() {
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[d] = q[d + 1];
  }
};

// A boundary's share inside the sweep (boundary/cpml_sweep.hpp): NoLayer for none. A layer is
// asked per point, after the interior's values, for the point's completed values; a column knows
// once whether its (y, z) lies in the layer's region.
struct NoLayer {
  static constexpr bool active = false;
};

// The grid of a column sweep with policy P (the shuffle sweep's too).
template <class P, class T>
LaunchShape launch_shape(const SweepArgs<T>& a) {
  const index_t chunk = a.reverse() ? P::template chunk_x<true> : P::template chunk_x<false>;
  if (a.ny > 65535L * P::block_y || a.nx > 65535L * chunk)
    throw std::logic_error("grid too large for the sweep launch");
  return {
      {blocks_covering(a.nz, P::block_z), blocks_covering(a.ny, P::block_y), blocks_covering(a.nx, unsigned(chunk))},
      {P::block_z, P::block_y, 1}};
}

// One thread's column: where it is, what it writes, and the values it keeps for its walk.
template <class T, int R>
struct Column {
  int k, j, sx, sy, col;  // col: Grid::index within a plane
  index_t i_begin, i_end, plane;
  bool writes;  // a padded point (a lane past nz only takes part in its warp's shuffles)
  T w[R + 1];
  T kyj, kzk;

  template <class P, bool Reverse>
  REVWAVE_HD static Column make(const SweepArgs<T>& a, const ThreadPlace& t) {
    Column c;
    c.k = static_cast<int>(t.block.x * P::block_z + t.thread.x);
    c.j = static_cast<int>(t.block.y * P::block_y + t.thread.y);
    constexpr index_t chunk = P::template chunk_x<Reverse>;
    c.i_begin = static_cast<index_t>(t.block.z) * chunk;
    c.i_end = c.i_begin + chunk < a.nx ? c.i_begin + chunk : a.nx;
    c.writes = c.k < a.nz && c.j < a.ny;
#pragma unroll
    for (int q = 0; q <= R; ++q) c.w[q] = a.w[q];
    c.sx = static_cast<int>(a.sx);
    c.sy = static_cast<int>(a.sy);
    c.col = (c.j + R) * c.sy + c.k;
    c.kyj = c.j < a.ny ? a.ky[c.j] : T(0);
    c.kzk = c.writes ? a.kz[c.k] : T(0);
    c.plane = (c.i_begin + R) * a.sx;
    return c;
  }
  // Grid::index of the column's point on plane i (padded coordinates i, j, k).
  REVWAVE_HD index_t plane_index(index_t i) const { return (i + R) * static_cast<index_t>(sx) + col; }
};

// Forward, x neighbours from the queue (queue_fits) or the caches.
template <class T, int R, class Z, bool Encode, bool Illuminate, class Layer, class Thread>
REVWAVE_HD void forward(const SweepArgs<T>& a, const Column<T, R>& c, const Layer& layer, Thread& t) {
  constexpr bool queue = queue_fits<T, R, false>;
  // __restrict__ on every pointer but the pair an in-place update aliases (u_prev with out):
  // restrict there would be undefined behaviour, and each is read once per point anyway.
  const T* __restrict__ u = a.u + c.plane + c.col;
  const T* up = a.u_prev + c.plane + c.col;
  const T* __restrict__ m = a.m + c.plane + c.col;
  T* out = a.out + c.plane + c.col;
  typename Z::template Window<T, R> zw(t, c.k);
  EncodeWalk<T, Encode> enc(a, c.i_begin, c.j, c.k, c.writes);
  IlluminateWalk<T, Illuminate> ill(a, c.i_begin, c.j, c.k);
  XQueue<T, R> uq;
  if constexpr (queue) uq.fill(u, c.sx);
  [[maybe_unused]] bool layer_column = false;
  if constexpr (Layer::active) layer_column = layer.column_in_region(c.j, c.k);
  for (index_t i = c.i_begin; i < c.i_end;
       ++i, u += c.sx, up += c.sx, m += c.sx, out += c.sx, enc.advance(), ill.advance()) {
    const T up0 = *up, m0 = *m;  // issued before the stencil's loads and the division
    T u0;
    if constexpr (queue)
      u0 = uq.push(u[R * c.sx]);
    else
      u0 = *u;
    const T* z = zw.gather(t, u, u0);
    const T lap = queue ? laplacian_axes<T, R, int>(c.w, u0, z, 1, u, c.sy, uq.x(), 1)
                        : laplacian_axes<T, R, int>(c.w, u0, z, 1, u, c.sy, u, c.sx);
    if (c.writes) {
      enc.put(u0, up0);
      ill.put(u0);
      const T eta = damping_eta(a.c, a.kx[i], c.kyj, c.kzk);
      T v = leapfrog_update(a.c, u0, up0, lap, m0, eta);
      if constexpr (Layer::active)
        if (layer_column || layer.x_in_region(i)) v = layer.forward_value(v, i, c.j, c.k, c.plane_index(i), m0, eta);
      *out = v;
    }
    if constexpr (queue) uq.advance();
  }
}

// The fused reverse step with both x queues. The values streamed from memory (grad, u_prev,
// lam_prev, m, the queues' fronts) are loaded one point ahead, so that a thread has two points'
// DRAM loads in flight behind the two stencils and divisions: on an H200 this took the sweep from
// 52-54% to 57-64% of copy bandwidth (unrolling by 2 or 4 instead lost, to spills). Forward, the
// same lost 3 points at 4 blocks per SM and gained nothing at 5 or 6, so it stays plain. lam_prev
// and grad are written in place: plane i + 1 is read before plane i is written, and they are
// different points.
template <class T, int R, class Z, class Layer, class Thread>
REVWAVE_HD void reverse_queued(const SweepArgs<T>& a, const Column<T, R>& c, const Layer& layer, Thread& t) {
  const int sx = c.sx;
  const T* __restrict__ u = a.u + c.plane + c.col;
  const T* up = a.u_prev + c.plane + c.col;
  const T* __restrict__ m = a.m + c.plane + c.col;
  const T* __restrict__ lam = a.lam + c.plane + c.col;
  const T* lp = a.lam_prev + c.plane + c.col;
  T* out = a.out + c.plane + c.col;
  T* __restrict__ grad = a.grad + c.plane + c.col;
  typename Z::template Window<T, R> zu(t, c.k), zl(t, c.k);
  [[maybe_unused]] bool layer_column = false;
  if constexpr (Layer::active) layer_column = layer.column_in_region(c.j, c.k);
  XQueue<T, R> uq, lq;
  uq.fill(u, sx);
  lq.fill(lam, sx);
  T g1 = *grad, up1 = *up, lp1 = *lp, m1 = *m, fu1 = u[R * sx], fl1 = lam[R * sx];
  for (index_t i = c.i_begin; i < c.i_end;
       ++i, u += sx, up += sx, m += sx, lam += sx, lp += sx, out += sx, grad += sx, uq.advance(), lq.advance()) {
    const T g0 = g1, up0 = up1, lp0 = lp1, m0 = m1, u0 = uq.push(fu1), l0 = lq.push(fl1);
    if (i + 1 < c.i_end) {
      g1 = grad[sx];
      up1 = up[sx];
      lp1 = lp[sx];
      m1 = m[sx];
      fu1 = u[(R + 1) * sx];
      fl1 = lam[(R + 1) * sx];
    }
    const T* zu0 = zu.gather(t, u, u0);
    const T* zl0 = zl.gather(t, lam, l0);
    const T eta = damping_eta(a.c, a.kx[i], c.kyj, c.kzk);
    T u_next = leapfrog_update(a.c, u0, up0, laplacian_axes<T, R, int>(c.w, u0, zu0, 1, u, c.sy, uq.x(), 1), m0, eta);
    T l = leapfrog_update(a.c, l0, lp0, laplacian_axes<T, R, int>(c.w, l0, zl0, 1, lam, c.sy, lq.x(), 1), m0, eta);
    if constexpr (Layer::active)
      if (c.writes && (layer_column || layer.x_in_region(i)))
        layer.reverse_values(i, c.j, c.k, c.plane_index(i), m0, eta, l, u_next);
    if (c.writes) {
      *grad = g0 + imaging_term(a.c, l, u_next, u0, up0);
      *out = l;
    }
  }
}

// The fused reverse step where the queues do not fit: x neighbours from the caches.
template <class T, int R, class Z, class Layer, class Thread>
REVWAVE_HD void reverse_plain(const SweepArgs<T>& a, const Column<T, R>& c, const Layer& layer, Thread& t) {
  const int sx = c.sx;
  const T* __restrict__ u = a.u + c.plane + c.col;
  const T* up = a.u_prev + c.plane + c.col;
  const T* __restrict__ m = a.m + c.plane + c.col;
  const T* __restrict__ lam = a.lam + c.plane + c.col;
  const T* lp = a.lam_prev + c.plane + c.col;
  T* out = a.out + c.plane + c.col;
  T* __restrict__ grad = a.grad + c.plane + c.col;
  typename Z::template Window<T, R> zu(t, c.k), zl(t, c.k);
  [[maybe_unused]] bool layer_column = false;
  if constexpr (Layer::active) layer_column = layer.column_in_region(c.j, c.k);
  for (index_t i = c.i_begin; i < c.i_end;
       ++i, u += sx, up += sx, m += sx, lam += sx, lp += sx, out += sx, grad += sx) {
    // The imaging's loads first: their latency hides behind the stencils and the divisions.
    const T g0 = *grad, up0 = *up, lp0 = *lp, m0 = *m, u0 = *u, l0 = *lam;
    const T* zu0 = zu.gather(t, u, u0);
    const T* zl0 = zl.gather(t, lam, l0);
    const T eta = damping_eta(a.c, a.kx[i], c.kyj, c.kzk);
    T u_next = leapfrog_update(a.c, u0, up0, laplacian_axes<T, R, int>(c.w, u0, zu0, 1, u, c.sy, u, sx), m0, eta);
    T l = leapfrog_update(a.c, l0, lp0, laplacian_axes<T, R, int>(c.w, l0, zl0, 1, lam, c.sy, lam, sx), m0, eta);
    if constexpr (Layer::active)
      if (c.writes && (layer_column || layer.x_in_region(i)))
        layer.reverse_values(i, c.j, c.k, c.plane_index(i), m0, eta, l, u_next);
    if (c.writes) {
      *grad = g0 + imaging_term(a.c, l, u_next, u0, up0);
      *out = l;
    }
  }
}

// One thread's sweep: the column sweep with Z = ZFromMemory, the shuffle sweep with ZFromShuffles
// (whose lanes past nz stay for the shuffles; a warp is one row, so a row past ny leaves whole).
// With a Layer (boundary/cpml_sweep.hpp), its share completes the values at its region's points.
// A block none of whose points is in the region runs the body without the layer (the same
// choice for all its threads), so the interior's blocks run the sweep's own code and registers.
template <class P, class T, int R, bool Reverse, class Z, bool Encode, bool Illuminate, class Layer, class Thread>
REVWAVE_HD void layered_sweep_thread(const SweepArgs<T>& a, const Layer& layer, Thread& t) {
  const Column<T, R> c = Column<T, R>::template make<P, Reverse>(a, t.place());
  if (c.j >= a.ny || (!Z::all_lanes && !c.writes)) return;
  if constexpr (Layer::active) {
    const ThreadPlace p = t.place();
    const index_t j0 = static_cast<index_t>(p.block.y) * P::block_y, k0 = static_cast<index_t>(p.block.x) * P::block_z;
    if (!layer.box_in_region(c.i_begin, c.i_end, j0, j0 + P::block_y, k0, k0 + P::block_z)) {
      layered_sweep_thread<P, T, R, Reverse, Z, Encode, Illuminate>(a, NoLayer{}, t);
      return;
    }
  }
  if constexpr (!Reverse)
    forward<T, R, Z, Encode, Illuminate>(a, c, layer, t);
  else if constexpr (queue_fits<T, R, true>)
    reverse_queued<T, R, Z>(a, c, layer, t);
  else
    reverse_plain<T, R, Z>(a, c, layer, t);
}

template <class P, class T, int R, bool Reverse, class Z, bool Encode = false, bool Illuminate = false, class Thread>
REVWAVE_HD void sweep_thread(const SweepArgs<T>& a, Thread& t) {
  layered_sweep_thread<P, T, R, Reverse, Z, Encode, Illuminate>(a, NoLayer{}, t);
}

}  // namespace revwave::columns
