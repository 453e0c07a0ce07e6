// The tiled sweep (2.5D tiling with a register queue): a block owns a (y, z) tile and marches
// along x through a chunk of planes. Each thread keeps each stencil field at its own (j, k) for
// the 2R+1 planes around the current one in registers (the x neighbours); the current plane's
// tile and its y/z halos sit in shared memory (the y and z neighbours). So a stencil field comes
// from DRAM about once per point, where the column sweep counts on L1/L2 to catch its neighbour
// re-reads. The reverse sweep carries two stencil fields (u and lam) this way.
//
// The body is split into phases at the kernel's barriers; run_block is the one schedule, which
// every thread runs with its block's barrier between phases (sweep_launch.hpp). On cudasim the
// threads run as fibers resumed in a shuffled order at every barrier, on poisoned shared memory,
// so that a missing barrier shows as wrong or NaN results. Constants: tuning/acoustic_sweep_policy.hpp.
#pragma once
#include <stdexcept>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/launch/launch_shape.hpp"
#include "revwave/cuda/kernels/tuning/acoustic_sweep_policy.hpp"

namespace revwave::tiled {

using Policy = tuning::TiledPolicy;
inline constexpr unsigned tile_z = Policy::tile_z;
inline constexpr unsigned tile_y = Policy::tile_y;
inline constexpr index_t chunk_x = Policy::chunk_x;

template <class T>
LaunchShape launch_shape(const SweepArgs<T>& a) {
  if (a.ny > 65535L * tile_y || a.nx > 65535L * chunk_x) throw std::logic_error("grid too large for the sweep launch");
  return {{blocks_covering(a.nz, tile_z), blocks_covering(a.ny, tile_y), blocks_covering(a.nx, unsigned(chunk_x))},
          {tile_z, tile_y, 1}};
}

// The padded x planes [begin, end) a block computes.
struct Planes {
  index_t begin, end;
};

template <class T>
REVWAVE_HD Planes planes(const SweepArgs<T>& a, const Dim& block) {
  const index_t begin = static_cast<index_t>(block.z) * chunk_x;
  return {begin, begin + chunk_x < a.nx ? begin + chunk_x : a.nx};
}

template <class T, int R, bool Reverse>
struct Sweep {
  static constexpr int pitch = tile_z + 2 * R;
  static constexpr int fields = Reverse ? 2 : 1;  // stencil fields: u, and lam when reversing

  // The current plane's tile of each stencil field with its halos, row-major with `pitch`;
  // corners unused (the stencil is a star).
  struct Shared {
    T f[fields][(tile_y + 2 * R) * pitch];
  };

  struct Thread {
    T q[fields][2 * R + 1];  // a field at planes i-R .. i+R of this (j, k); q[f][R] is plane i
    T up, m, lp, grad;       // plane i's non-stencil values, loaded before the barrier
    int j, k, column;        // column: the offset of (j, k) within an allocated plane
    T ky, kz;
    // Loads: its (j, k) is a padded point or in the halo a padded neighbour reads. Writes: a padded point.
    bool loads, writes;
  };

  REVWAVE_HD static const T* field(const SweepArgs<T>& a, int f) { return f == 0 ? a.u : a.lam; }

  REVWAVE_HD static void start(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, const Planes& x) {
    t.j = static_cast<int>(p.block.y * tile_y + p.thread.y);
    t.k = static_cast<int>(p.block.x * tile_z + p.thread.x);
    t.loads = t.j < a.ny + R && t.k < a.nz + R;
    t.writes = t.j < a.ny && t.k < a.nz;
    t.column = (t.j + R) * static_cast<int>(a.sy) + t.k;  // Grid::index without the plane
    t.ky = t.writes ? a.ky[t.j] : T(0);
    t.kz = t.writes ? a.kz[t.k] : T(0);
#pragma unroll
    for (int f = 0; f < fields; ++f)
#pragma unroll
      for (int m = 0; m <= 2 * R; ++m) t.q[f][m] = T(0);
    if (!t.loads) return;
      // Plane x.begin - R + m sits at allocated x index x.begin + m.
#pragma unroll
    for (int f = 0; f < fields; ++f) {
      const T* __restrict__ u = field(a, f) + x.begin * a.sx + t.column;
#pragma unroll
      for (int m = 0; m < 2 * R; ++m) t.q[f][m] = u[m * a.sx];
    }
  }

  // Before the barrier: each queue takes plane i+R, plane i's tile goes to shared memory, and
  // plane i's non-stencil values to registers (their loads overlap the barrier's wait).
  REVWAVE_HD static void load(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, Shared& s, index_t i) {
    const int ty = static_cast<int>(p.thread.y), tz = static_cast<int>(p.thread.x);
    const int sy = static_cast<int>(a.sy);
    const index_t plane = (i + R) * a.sx;
#pragma unroll
    for (int f = 0; f < fields; ++f) {
      T* centre = s.f[f] + (ty + R) * pitch + (tz + R);
      const T* __restrict__ u = field(a, f) + plane;
      if (t.loads) {
        t.q[f][2 * R] = u[R * a.sx + t.column];
        *centre = t.q[f][R];
      }
      // The first R rows (columns) of threads fetch the halos on both sides, within the allocation;
      // a halo cell beyond ny + R (nz + R) has no padded point that reads it.
      if (ty < R && t.k < a.nz + R) {
        centre[-R * pitch] = u[t.column - R * sy];
        if (t.j + static_cast<int>(tile_y) < a.ny + R)
          centre[tile_y * pitch] = u[t.column + static_cast<int>(tile_y) * sy];
      }
      if (tz < R && t.j < a.ny + R) {
        centre[-R] = u[t.column - R];
        if (t.k + static_cast<int>(tile_z) < a.nz + R) centre[tile_z] = u[t.column + static_cast<int>(tile_z)];
      }
    }
    if (t.writes) {
      t.up = a.u_prev[plane + t.column];
      t.m = a.m[plane + t.column];
      if constexpr (Reverse) {
        t.lp = a.lam_prev[plane + t.column];
        t.grad = a.grad[plane + t.column];
      }
    }
  }

  // After the barrier: the update at plane i, then the queues move one plane on.
  REVWAVE_HD static void compute(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, const Shared& s, index_t i) {
    if (t.writes) {
      T w[R + 1];
#pragma unroll
      for (int q = 0; q <= R; ++q) w[q] = a.w[q];
      const int offset = (static_cast<int>(p.thread.y) + R) * pitch + (static_cast<int>(p.thread.x) + R);
      const index_t idx = (i + R) * a.sx + t.column;
      const T eta = damping_eta(a.c, a.kx[i], t.ky, t.kz);
      const T* cu = s.f[0] + offset;
      const T u_next = leapfrog_update(
          a.c, t.q[0][R], t.up, laplacian_axes<T, R, int>(w, t.q[0][R], cu, 1, cu, pitch, t.q[0] + R, 1), t.m, eta);
      if constexpr (Reverse) {
        const T* cl = s.f[1] + offset;
        const T l = leapfrog_update(a.c, t.q[1][R], t.lp,
                                    laplacian_axes<T, R, int>(w, t.q[1][R], cl, 1, cl, pitch, t.q[1] + R, 1), t.m, eta);
        a.grad[idx] = t.grad + imaging_term(a.c, l, u_next, t.q[0][R], t.up);
        a.out[idx] = l;
      } else {
        a.out[idx] = u_next;
      }
    }
#pragma unroll
    for (int f = 0; f < fields; ++f)
#pragma unroll
      for (int m = 0; m < 2 * R; ++m) t.q[f][m] = t.q[f][m + 1];
  }

  // The block's schedule, run by each thread: each(phase) runs phase(Thread&, const ThreadPlace&)
  // for the calling thread; barrier() is the block's __syncthreads.
  template <class Each, class Barrier>
  REVWAVE_HD static void run_block(const SweepArgs<T>& a, const Dim& block, Shared& s, Each&& each, Barrier&& barrier) {
    const Planes x = planes(a, block);
    each([&a, x](Thread& t, const ThreadPlace& p) { start(a, p, t, x); });
    for (index_t i = x.begin; i < x.end; ++i) {
      each([&a, &s, i](Thread& t, const ThreadPlace& p) { load(a, p, t, s, i); });
      barrier();
      each([&a, &s, i](Thread& t, const ThreadPlace& p) { compute(a, p, t, s, i); });
      barrier();
    }
  }
};

}  // namespace revwave::tiled
