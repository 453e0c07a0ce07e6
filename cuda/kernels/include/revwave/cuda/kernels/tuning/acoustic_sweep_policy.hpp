// Tuning constants of the acoustic sweep kernels (acoustic/sweep_*.hpp), one policy per variant,
// as CUB's tuning/ policies: block shapes, x chunk lengths, blocks per SM for __launch_bounds__,
// and which register queues fit. The kernels read them from here only. Measured figures and the
// variants tried: profiling/figures/gpu_h200/column_sweep_variants.md.
#pragma once
#include "revwave/core/config.hpp"

namespace revwave::tuning {

// The column sweep: a thread per (y, z) column walks a chunk of x planes.
struct ColumnsPolicy {
  static constexpr unsigned block_z = 32;  // a warp along one 128-byte aligned row
  static constexpr unsigned block_y = 8;
  static constexpr unsigned block_threads = block_z * block_y;
  // x planes per thread: with the x queues, a chunk costs 2R loads to fill; the reverse sweep (two
  // queues) gains from longer chunks, the forward one loses to fewer blocks (measured on an H200).
  template <bool Reverse>
  static constexpr index_t chunk_x = Reverse ? 32 : 16;
  // Blocks of 256 threads per SM the kernel is compiled for: at most 64 registers a thread (left
  // alone, ptxas took up to 128 for the reverse sweep at odd radii: a quarter of the SM's threads).
  static constexpr int blocks_per_sm = 4;
  // Whether the x register queues (2R + 1 values per stencil field: one field forward, two in
  // reverse) fit in the 64 registers a thread has beside its other state: 18 32-bit registers at
  // most, so float up to radius 4 in reverse and 8 forward, double up to radius 1 in reverse and 4
  // forward. The reverse sweep's loads one point ahead take registers this count leaves out: one
  // queue case spills (8 bytes, double radius 1 in reverse; profiling/figures/gpu_h200/ptxas_sm90.txt).
  template <class T, int R, bool Reverse>
  static constexpr bool queue_fits = (2 * R + 1) * (Reverse ? 2 : 1) * int(sizeof(T) / 4) <= 18;
};

// The shuffle column sweep: the column sweep's shape and queues, its z neighbours from the warp's
// other lanes (shuffles) and 2R halo values a row instead of 2R misaligned loads a point. Its own
// policy so that a GPU session can tune it apart (not measured yet).
struct ShufflePolicy : ColumnsPolicy {};

// The pair sweep (SweepKernel::vector), forward: the column sweep's shape with two z points a
// thread (a warp spans 64 points of a row) and an x queue per point. Not measured yet on a GPU.
struct PairPolicy {
  static constexpr unsigned block_z = 32;  // threads; 64 points of a row
  static constexpr unsigned block_y = 8;
  static constexpr unsigned block_threads = block_z * block_y;
  static constexpr index_t chunk_x = 16;
  static constexpr int blocks_per_sm = 4;
  // Two queues (one a point) within the 18 registers the columns sweep's count allows: float up to
  // radius 4, double radius 1; beyond, the x neighbours come from the caches.
  template <class T, int R>
  static constexpr bool queue_fits = (2 * R + 1) * 2 * int(sizeof(T) / 4) <= 18;
  // Where the sweep is compiled at all: ptxas (sm_90, CUDA 12) gives float radius 1-4 48-64
  // registers and no spill, float radius 5-8 and every double 24-500 bytes of spills at the
  // 64-register cap; there the columns sweep runs instead.
  template <class T, int R>
  static constexpr bool fits = sizeof(T) == 4 && R <= 4;
};

// The tiled sweep: a block owns a (y, z) tile and marches along x through a chunk of planes.
struct TiledPolicy {
  static constexpr unsigned tile_z = 32;  // a warp along the contiguous axis: one aligned row segment
  static constexpr unsigned tile_y = 16;  // 16 rather than 8: y halos cost 2R/16 extra rows, not 2R/8
  static constexpr unsigned block_threads = tile_z * tile_y;
  // Each chunk reads 2R planes of u beyond its own to fill and drain its queue: 64 keeps that at
  // most 1/8 of u's traffic for R <= 4, and still gives a 256^3 grid 8 x 16 x 4 = 512 blocks,
  // ~4 per SM of an H100/H200.
  static constexpr index_t chunk_x = 64;
  // Blocks of 512 threads per SM the kernels are compiled for (__launch_bounds__; 64K registers
  // an SM): in float the forward sweep 3 (at most 40 registers a thread; sm_90 needs 37-40 and
  // spills nothing for R <= 8), the reverse sweep, with two queues, 2 (at most 64: 54-64, no
  // spills). Double values take two registers each: one block less.
  template <class T, bool Reverse>
  static constexpr int blocks_per_sm = (Reverse ? 2 : 3) - (sizeof(T) > 4 ? 1 : 0);
};

// The first forward step after a restore from encoded slots (acoustic/sweep_restore.hpp): a
// thread per point, as rare as restores are.
struct RestorePolicy {
  static constexpr unsigned block_z = 32;
  static constexpr unsigned block_y = 8;
  static constexpr unsigned block_threads = block_z * block_y;
  static constexpr int blocks_per_sm = 4;
};

}  // namespace revwave::tuning
