// The tiled sweep (2.5D tiling with a register queue): a block owns a (y, z) tile and marches
// along x through a chunk of planes. Each thread keeps u at its own (j, k) for the 2R+1 planes
// around the current one in registers (the x neighbours); the current plane's tile and its y/z
// halos sit in shared memory (the y and z neighbours). So u comes from DRAM about once per
// point, where the column sweep counts on L1/L2 to catch its neighbour re-reads.
//
// The body is split into phases at the kernel's barriers. run_block is the one schedule: the
// CUDA kernel runs it per thread with __syncthreads between phases, the CPU emulation in
// tests/cudasim runs each phase over all the block's threads before the next.
#pragma once
#include "launch_shape.hpp"
#include "sweep_kernels.hpp"

namespace revwave::tiled {

inline constexpr unsigned tile_z = 32;  // a warp along the contiguous axis: coalesced rows
inline constexpr unsigned tile_y = 16;  // 16 rather than 8: y halos cost 2R/16 extra rows, not 2R/8
inline constexpr unsigned block_threads = tile_z * tile_y;
// Each chunk reads 2R planes of u beyond its own to fill and drain its queue: 64 keeps that at
// most 1/8 of u's traffic for R <= 4, and still gives a 256^3 grid 8 x 16 x 4 = 512 blocks,
// ~4 per SM of an H100/H200 (where 2 blocks of 512 threads fit at a time for float).
inline constexpr index_t chunk_x = 64;

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

template <class T, int R, bool Imaging>
struct Sweep {
  static constexpr int pitch = tile_z + 2 * R;

  // The current plane's tile with its halos, row-major with `pitch`; corners unused (the stencil is a star).
  struct Shared {
    T u[(tile_y + 2 * R) * pitch];
  };

  struct Thread {
    T q[2 * R + 1];  // u at planes i-R .. i+R of this (j, k); q[R] is plane i
    index_t j, k, column;  // column: the offset of (j, k) within an allocated plane
    T ky, kz;
    // Loads: its (j, k) is a padded point or in the halo a padded neighbour reads. Writes: a padded point.
    bool loads, writes;
  };

  REVWAVE_HD static void start(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, const Planes& x) {
    t.j = static_cast<index_t>(p.block.y) * tile_y + p.thread.y;
    t.k = static_cast<index_t>(p.block.x) * tile_z + p.thread.x;
    t.loads = t.j < a.ny + R && t.k < a.nz + R;
    t.writes = t.j < a.ny && t.k < a.nz;
    t.column = (t.j + R) * a.sy + t.k;  // Grid::index without the plane
    t.ky = t.writes ? a.ky[t.j] : T(0);
    t.kz = t.writes ? a.kz[t.k] : T(0);
#pragma unroll
    for (int m = 0; m <= 2 * R; ++m) t.q[m] = T(0);
    if (!t.loads) return;
    // Plane x.begin - R + m sits at allocated x index x.begin + m.
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) t.q[m] = a.u[(x.begin + m) * a.sx + t.column];
  }

  // Before the barrier: the queue takes plane i+R; the tile of plane i goes to shared memory.
  REVWAVE_HD static void load(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, Shared& s, index_t i) {
    const unsigned ty = p.thread.y, tz = p.thread.x;
    T* centre = s.u + (ty + R) * pitch + (tz + R);
    const T* u = a.u + (i + R) * a.sx;
    if (t.loads) {
      t.q[2 * R] = u[R * a.sx + t.column];
      *centre = t.q[R];
    }
    // The first R rows (columns) of threads fetch the halos on both sides, within the allocation;
    // a halo cell beyond ny + R (nz + R) has no padded point that reads it.
    if (ty < R && t.k < a.nz + R) {
      centre[-R * pitch] = u[t.column - R * a.sy];
      if (t.j + tile_y < a.ny + R) centre[tile_y * pitch] = u[t.column + tile_y * a.sy];
    }
    if (tz < R && t.j < a.ny + R) {
      centre[-R] = u[t.column - R];
      if (t.k + tile_z < a.nz + R) centre[tile_z] = u[t.column + tile_z];
    }
  }

  // After the barrier: the update at plane i, then the queue moves one plane on.
  REVWAVE_HD static void compute(const SweepArgs<T>& a, const ThreadPlace& p, Thread& t, const Shared& s, index_t i) {
    if (t.writes) {
      T w[R + 1];
#pragma unroll
      for (int q = 0; q <= R; ++q) w[q] = a.w[q];
      const T* c = s.u + (p.thread.y + R) * pitch + (p.thread.x + R);
      const T lap = laplacian_axes<T, R>(w, t.q[R], c, 1, c, pitch, t.q + R, 1);
      const index_t idx = (i + R) * a.sx + t.column;
      const T v = leapfrog_update(a.c, t.q[R], a.u_prev[idx], lap, a.m[idx], damping_eta(a.c, a.kx[i], t.ky, t.kz));
      if constexpr (Imaging) a.grad[idx] += imaging_term(a.c, v, a.fwd_next[idx], a.fwd[idx], a.fwd_prev[idx]);
      a.out[idx] = v;
    }
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) t.q[m] = t.q[m + 1];
  }

  // The block's schedule. each(phase) calls phase(Thread&, const ThreadPlace&) for the block's
  // threads (on a GPU: the calling thread); barrier() is __syncthreads (a no-op in the emulation,
  // where each phase has already run to completion for every thread).
  template <class Each, class Barrier>
  REVWAVE_HD static void run_block(const SweepArgs<T>& a, const Dim& block, Shared& s, Each&& each, Barrier&& barrier) {
    const Planes x = planes(a, block);
    each([&](Thread& t, const ThreadPlace& p) { start(a, p, t, x); });
    for (index_t i = x.begin; i < x.end; ++i) {
      each([&](Thread& t, const ThreadPlace& p) { load(a, p, t, s, i); });
      barrier();
      each([&](Thread& t, const ThreadPlace& p) { compute(a, p, t, s, i); });
      barrier();
    }
  }
};

}  // namespace revwave::tiled
