// The column sweep: each thread owns one (y, z) column and walks a chunk of x planes; a warp
// spans 32 consecutive z of a 128-byte aligned row, so every access to a plane is coalesced into
// whole sectors, and the y and z neighbours (and the x ones where no queue fits) are re-read
// from L1/L2 rather than DRAM. Host+device: the CUDA kernel and the CPU emulation in tests/cudasim run this body.
// Offsets within a plane are 32-bit; the plane advances by pointer. Where the registers allow
// (queue_fits), each stencil field's x neighbours ride in a register queue along the walk, so a
// point loads one new plane value instead of 2R + 1 (the y and z neighbours still come from the
// caches); the values and the summation order are the same, so the bits are too.
#pragma once
#include "revwave/cuda/kernels/launch_shape.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave::columns {

inline constexpr unsigned block_z = 32;
inline constexpr unsigned block_y = 8;
// x planes per thread: with the x queues, a chunk costs 2R loads to fill; the reverse sweep (two
// queues) gains from longer chunks, the forward one loses to fewer blocks (measured on an H200:
// profiling/figures/gpu_h200/column_sweep_variants.md).
template <bool Reverse>
inline constexpr index_t chunk_x = Reverse ? 32 : 16;
// Blocks of 256 threads per SM the kernel is compiled for: at most 64 registers a thread (left
// alone, ptxas took up to 128 for the reverse sweep at odd radii: a quarter of the SM's threads).
inline constexpr int blocks_per_sm = 4;

// Whether the x register queues (2R + 1 values per stencil field: one field forward, two in
// reverse) fit in the 64 registers a thread has beside its other state: 18 32-bit registers at
// most, so float up to radius 4 in reverse and 8 forward, double up to radius 1 in reverse and 4
// forward. The reverse sweep's loads one point ahead take registers this count leaves out: one
// queue case spills (8 bytes, double radius 1 in reverse; profiling/figures/gpu_h200/ptxas_sm90.txt).
template <class T, int R, bool Reverse>
inline constexpr bool queue_fits = (2 * R + 1) * (Reverse ? 2 : 1) * int(sizeof(T) / 4) <= 18;

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

template <class T>
LaunchShape launch_shape(const SweepArgs<T>& a) {
  const index_t chunk = a.reverse() ? chunk_x<true> : chunk_x<false>;
  if (a.ny > 65535L * block_y || a.nx > 65535L * chunk) throw std::logic_error("grid too large for the sweep launch");
  return {{blocks_covering(a.nz, block_z), blocks_covering(a.ny, block_y), blocks_covering(a.nx, unsigned(chunk))},
          {block_z, block_y, 1}};
}

template <class T, int R, bool Reverse>
REVWAVE_HD void sweep_thread(const SweepArgs<T>& a, const ThreadPlace& t) {
  const int k = static_cast<int>(t.block.x * block_z + t.thread.x);
  const int j = static_cast<int>(t.block.y * block_y + t.thread.y);
  if (k >= a.nz || j >= a.ny) return;
  constexpr index_t chunk = chunk_x<Reverse>;
  const index_t i_begin = static_cast<index_t>(t.block.z) * chunk;
  const index_t i_end = i_begin + chunk < a.nx ? i_begin + chunk : a.nx;
  T w[R + 1];
#pragma unroll
  for (int q = 0; q <= R; ++q) w[q] = a.w[q];
  const int sx = static_cast<int>(a.sx), sy = static_cast<int>(a.sy);
  const int col = (j + R) * sy + k;  // Grid::index within a plane
  const T kyj = a.ky[j], kzk = a.kz[k];
  const index_t plane = (i_begin + R) * a.sx;
  // __restrict__ on every pointer but the pair an in-place update aliases (u_prev or lam_prev with
  // out): restrict there would be undefined behaviour, and each is read once per point anyway.
  const T* __restrict__ u = a.u + plane + col;
  const T* up = a.u_prev + plane + col;
  const T* __restrict__ m = a.m + plane + col;
  const T* __restrict__ kx = a.kx;
  if constexpr (!Reverse && queue_fits<T, R, Reverse>) {
    T* out = a.out + plane + col;
    XQueue<T, R> uq;
    uq.fill(u, sx);
    for (index_t i = i_begin; i < i_end; ++i, u += sx, up += sx, m += sx, out += sx, uq.advance()) {
      const T up0 = *up, m0 = *m;  // issued before the stencil's loads and the division
      const T u0 = uq.push(u[R * sx]);
      const T lap = laplacian_axes<T, R, int>(w, u0, u, 1, u, sy, uq.x(), 1);
      *out = leapfrog_update(a.c, u0, up0, lap, m0, damping_eta(a.c, kx[i], kyj, kzk));
    }
  } else if constexpr (!Reverse) {
    T* out = a.out + plane + col;
    for (index_t i = i_begin; i < i_end; ++i, u += sx, up += sx, m += sx, out += sx) {
      const T up0 = *up, m0 = *m;  // issued before the stencil's loads and the division
      *out = leapfrog_update(a.c, *u, up0, laplacian<T, R, int>(w, u, sy, sx), m0, damping_eta(a.c, kx[i], kyj, kzk));
    }
  } else if constexpr (queue_fits<T, R, Reverse>) {
    const T* __restrict__ lam = a.lam + plane + col;
    const T* lp = a.lam_prev + plane + col;
    T* out = a.out + plane + col;
    T* __restrict__ grad = a.grad + plane + col;
    XQueue<T, R> uq, lq;
    uq.fill(u, sx);
    lq.fill(lam, sx);
    // The values streamed from memory (grad, u_prev, lam_prev, m, the queues' fronts) are loaded
    // one point ahead, so that a thread has two points' DRAM loads in flight behind the two
    // stencils and divisions: on an H200 this took the sweep from 52-54% to 57-64% of copy
    // bandwidth (unrolling by 2 or 4 instead lost, to spills). Forward, the same lost 3 points at 4
    // blocks per SM and gained nothing at 5 or 6, so it stays plain. lam_prev and grad are written
    // in place: plane i + 1 is read before plane i is written, and they are different points.
    T g1 = *grad, up1 = *up, lp1 = *lp, m1 = *m, fu1 = u[R * sx], fl1 = lam[R * sx];
    for (index_t i = i_begin; i < i_end;
         ++i, u += sx, up += sx, m += sx, lam += sx, lp += sx, out += sx, grad += sx, uq.advance(), lq.advance()) {
      const T g0 = g1, up0 = up1, lp0 = lp1, m0 = m1, u0 = uq.push(fu1), l0 = lq.push(fl1);
      if (i + 1 < i_end) {
        g1 = grad[sx];
        up1 = up[sx];
        lp1 = lp[sx];
        m1 = m[sx];
        fu1 = u[(R + 1) * sx];
        fl1 = lam[(R + 1) * sx];
      }
      const T eta = damping_eta(a.c, kx[i], kyj, kzk);
      const T u_next = leapfrog_update(a.c, u0, up0, laplacian_axes<T, R, int>(w, u0, u, 1, u, sy, uq.x(), 1), m0, eta);
      const T l = leapfrog_update(a.c, l0, lp0, laplacian_axes<T, R, int>(w, l0, lam, 1, lam, sy, lq.x(), 1), m0, eta);
      *grad = g0 + imaging_term(a.c, l, u_next, u0, up0);
      *out = l;
    }
  } else {
    const T* __restrict__ lam = a.lam + plane + col;
    const T* lp = a.lam_prev + plane + col;
    T* out = a.out + plane + col;
    T* __restrict__ grad = a.grad + plane + col;
    for (index_t i = i_begin; i < i_end; ++i, u += sx, up += sx, m += sx, lam += sx, lp += sx, out += sx, grad += sx) {
      // The imaging's loads first: their latency hides behind the stencils and the divisions.
      const T g0 = *grad, up0 = *up, lp0 = *lp, m0 = *m, u0 = *u;
      const T eta = damping_eta(a.c, kx[i], kyj, kzk);
      const T u_next = leapfrog_update(a.c, u0, up0, laplacian<T, R, int>(w, u, sy, sx), m0, eta);
      const T l = leapfrog_update(a.c, *lam, lp0, laplacian<T, R, int>(w, lam, sy, sx), m0, eta);
      *grad = g0 + imaging_term(a.c, l, u_next, u0, up0);
      *out = l;
    }
  }
}

}  // namespace revwave::columns
