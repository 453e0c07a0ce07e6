// The pair sweep (SweepKernel::vector), forward: the column sweep with each thread owning two
// consecutive z points of a row (k0 = 2 x its lane's column, and k0 + 1), every load and store
// of the pair one aligned 2-value access (float2 or double2 wide). Rows are 128-byte aligned
// (Grid::row_align) and k0 is even, so a pair never straddles two sectors' worth of alignment.
// Per pair of points it issues: the x queues' fronts, u_prev and m as 1 load each (2 for the
// columns sweep), the z neighbours as R loads (4R: the window u[k0 - R .. k0 + 1 + R] sits in
// registers, its pairs aligned when R is even; an odd R adds 2 scalars), the y neighbours as 2R
// loads (4R), and one store. A warp covers 64 points of a row.
// The values reach laplacian_axes and leapfrog_update exactly as in the columns sweep (the same
// neighbours, the same order), so the bits are the columns sweep's.
// A pair past nz's end (nz odd: its second point lies in the row gap) reads the gap, as a z
// neighbour would, and writes only its first point. The reverse sweep stays the columns one: two
// fields' queues for two points would not fit the 64 registers it is compiled for; so does the
// forward one where this one would spill (PairPolicy::fits: float up to radius 4).
// Host+device: a GPU and cudasim run this body. Constants: tuning/acoustic_sweep_policy.hpp.
#pragma once
#include <stdexcept>

#include "revwave/cuda/kernels/acoustic/sweep_columns.hpp"
#include "revwave/cuda/kernels/launch/launch_shape.hpp"
#include "revwave/cuda/kernels/tuning/acoustic_sweep_policy.hpp"

namespace revwave::pairs {

using Policy = tuning::PairPolicy;

// Two consecutive values of a row, read or written as one aligned access.
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T lo, hi;
};
template <class T>
REVWAVE_HD Pair<T> load(const T* p) {
  return *reinterpret_cast<const Pair<T>*>(p);
}
template <class T>
REVWAVE_HD void store(T* p, T lo, T hi) {
  *reinterpret_cast<Pair<T>*>(p) = Pair<T>{lo, hi};
}

template <class T>
LaunchShape launch_shape(const SweepArgs<T>& a) {
  constexpr index_t chunk = Policy::chunk_x;
  if (a.ny > 65535L * Policy::block_y || a.nx > 65535L * chunk)
    throw std::logic_error("grid too large for the pair sweep launch");
  const index_t pairs = (a.nz + 1) / 2;
  return {{blocks_covering(pairs, Policy::block_z), blocks_covering(a.ny, Policy::block_y),
           blocks_covering(a.nx, unsigned(chunk))},
          {Policy::block_z, Policy::block_y, 1}};
}

// The z window of a pair: z[R + d] is the row's value at k0 + d, d in [-R, R + 1].
template <class T, int R>
struct ZWindow {
  T z[2 * R + 2];
  // u points at k0; lo and hi are the pair's own values.
  REVWAVE_HD void fill(const T* u, T lo, T hi) {
    z[R] = lo;
    z[R + 1] = hi;
    if constexpr (R % 2 == 1) {
      z[0] = u[-R];
      z[2 * R + 1] = u[R + 1];
    }
    constexpr int first = R % 2;  // below: from k0 - R + first, in pairs
#pragma unroll
    for (int d = first; d < R; d += 2) {
      const Pair<T> b = load(u - R + d);
      z[d] = b.lo;
      z[d + 1] = b.hi;
      const Pair<T> t = load(u + 2 + (d - first));
      z[R + 2 + (d - first)] = t.lo;
      z[R + 3 + (d - first)] = t.hi;
    }
  }
};

// The y neighbours of a pair: y0[R + d] and y1[R + d] at row j + d of the two points (d != 0).
template <class T, int R>
struct YWindow {
  T y0[2 * R + 1], y1[2 * R + 1];
  REVWAVE_HD void fill(const T* u, int sy, T lo, T hi) {
    y0[R] = lo;
    y1[R] = hi;
#pragma unroll
    for (int q = 1; q <= R; ++q) {
      const Pair<T> a = load(u + q * sy), b = load(u - q * sy);
      y0[R + q] = a.lo;
      y1[R + q] = a.hi;
      y0[R - q] = b.lo;
      y1[R - q] = b.hi;
    }
  }
};

// One thread's pair of columns walking its chunk of x planes, forward.
template <class T, int R, class Thread>
REVWAVE_HD void forward_thread(const SweepArgs<T>& a, Thread& t) {
  const ThreadPlace p = t.place();
  const int k0 = 2 * static_cast<int>(p.block.x * Policy::block_z + p.thread.x);
  const int j = static_cast<int>(p.block.y * Policy::block_y + p.thread.y);
  if (j >= a.ny || k0 >= a.nz) return;
  const bool second = k0 + 1 < a.nz;  // the pair's second point is a padded point
  const index_t i_begin = static_cast<index_t>(p.block.z) * Policy::chunk_x;
  const index_t i_end = i_begin + Policy::chunk_x < a.nx ? i_begin + Policy::chunk_x : a.nx;
  T w[R + 1];
#pragma unroll
  for (int q = 0; q <= R; ++q) w[q] = a.w[q];
  const int sx = static_cast<int>(a.sx), sy = static_cast<int>(a.sy);
  const index_t at = (i_begin + R) * a.sx + (j + R) * sy + k0;
  const T kyj = a.ky[j], kz0 = a.kz[k0], kz1 = second ? a.kz[k0 + 1] : T(0);
  constexpr bool queue = Policy::queue_fits<T, R>;
  const T* __restrict__ u = a.u + at;
  const T* up = a.u_prev + at;  // may alias out (in place), as in the columns sweep
  const T* __restrict__ m = a.m + at;
  T* out = a.out + at;
  columns::XQueue<T, R> q0, q1;
  if constexpr (queue) {
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) {
      const Pair<T> v = load(u + (d - R) * sx);
      q0.q[d] = v.lo;
      q1.q[d] = v.hi;
    }
  }
  for (index_t i = i_begin; i < i_end; ++i, u += sx, up += sx, m += sx, out += sx) {
    const Pair<T> upv = load(up), mv = load(m);  // issued before the stencils' loads and the divisions
    T u0, u1;
    if constexpr (queue) {
      const Pair<T> front = load(u + R * sx);
      u0 = q0.push(front.lo);
      u1 = q1.push(front.hi);
    } else {
      const Pair<T> c = load(u);
      u0 = c.lo;
      u1 = c.hi;
    }
    ZWindow<T, R> zw;
    zw.fill(u, u0, u1);
    YWindow<T, R> yw;
    yw.fill(u, sy, u0, u1);
    const T* x0 = queue ? q0.x() : u;
    const T* x1 = queue ? q1.x() : u + 1;
    const int xs = queue ? 1 : sx;
    const T lap0 = laplacian_axes<T, R, int>(w, u0, zw.z + R, 1, yw.y0 + R, 1, x0, xs);
    const T v0 = leapfrog_update(a.c, u0, upv.lo, lap0, mv.lo, damping_eta(a.c, a.kx[i], kyj, kz0));
    if (second) {
      const T lap1 = laplacian_axes<T, R, int>(w, u1, zw.z + R + 1, 1, yw.y1 + R, 1, x1, xs);
      const T v1 = leapfrog_update(a.c, u1, upv.hi, lap1, mv.hi, damping_eta(a.c, a.kx[i], kyj, kz1));
      store(out, v0, v1);
    } else {
      *out = v0;
    }
    if constexpr (queue) {
      q0.advance();
      q1.advance();
    }
  }
}

}  // namespace revwave::pairs
