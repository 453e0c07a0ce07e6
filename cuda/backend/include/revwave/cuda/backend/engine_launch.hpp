// The shot engine's launch structs (launch/kernel_launch.hpp): a thread per padded point, tile
// value or interior point, the bodies of engine_threads.hpp. The accesses name the chunks of tile
// blocks a launch touches, read through the part's entries as the kernel reads them (cudasim's
// stream-order checker calls accesses(), where device memory is host memory; a GPU never does).
#pragma once
#include <set>
#include <vector>

#include "revwave/cuda/backend/engine_threads.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/tuning/engine_policy.hpp"

namespace revwave::engine {

using LinearKernel = launch::LinearKernel<tuning::EnginePolicy>;

inline index_t padded_points(const WindowPlace& w) {
  return padded_extent(w, 0) * padded_extent(w, 1) * padded_extent(w, 2);
}

// The block table and the chunks holding `blocks`, read or written.
inline void chunk_accesses(const BlockTable& table, const std::vector<std::int32_t>& blocks, bool write,
                           launch::MemoryAccesses& acc) {
  std::set<const double*> chunks;
  for (std::int32_t b : blocks) chunks.insert(table.chunks[b / blocks_per_chunk]);
  acc.push_back(launch::reads(table.chunks));
  for (const double* c : chunks) acc.push_back(write ? launch::writes(c) : launch::reads(c));
}

inline std::vector<std::int32_t> blocks_of(const TileList& l) {
  std::vector<std::int32_t> out;
  for (index_t k = 0; k < l.count; ++k) out.push_back(l.entries[k].block);
  return out;
}

inline launch::MemoryAccess entries_read(const TileList& l) {
  return launch::reads(l.entries, launch::bytes_of<TileEntry>(l.count));
}

template <class T>
struct WindowCutKernel : LinearKernel {
  static constexpr const char* name = "a window's m";
  WindowCut<T> a;
  explicit WindowCutKernel(const WindowCut<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(padded_points(a.w)); }
  void accesses(launch::MemoryAccesses& acc) const { acc = {launch::reads(a.whole_m), launch::writes(a.m)}; }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    window_cut_thread(a, item(t.place()));
  }
};

template <class T>
struct TileFillKernel : LinearKernel {
  static constexpr const char* name = "a window into its tiles";
  TileFill<T> a;
  explicit TileFillKernel(const TileFill<T>& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.tiles.count * tile_points); }
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {entries_read(a.tiles), a.interior != nullptr ? launch::reads(a.interior) : launch::reads(a.padded)};
    chunk_accesses(a.blocks, blocks_of(a.tiles), true, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    tile_fill_thread(a, item(t.place()));
  }
};

struct BlockAddKernel : LinearKernel {
  static constexpr const char* name = "the tree's block sums";
  BlockAdds a;
  explicit BlockAddKernel(const BlockAdds& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.count * tile_points); }
  void accesses(launch::MemoryAccesses& acc) const {
    std::vector<std::int32_t> dst, src;
    for (index_t k = 0; k < a.count; ++k) dst.push_back(a.sums[k].dst), src.push_back(a.sums[k].src);
    acc = {launch::reads(a.sums, launch::bytes_of<BlockSum>(a.count))};
    chunk_accesses(a.blocks, src, false, acc);
    chunk_accesses(a.blocks, dst, true, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    block_add_thread(a, item(t.place()));
  }
};

struct TileDenseKernel : LinearKernel {
  static constexpr const char* name = "the sum's tiles into the model";
  TileDense a;
  explicit TileDenseKernel(const TileDense& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.tiles.count * tile_points); }
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {entries_read(a.tiles), launch::writes(a.out)};
    chunk_accesses(a.blocks, blocks_of(a.tiles), false, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    tile_dense_thread(a, item(t.place()));
  }
};

struct BlockCopyKernel : LinearKernel {
  static constexpr const char* name = "tile blocks copied";
  BlockCopy a;
  explicit BlockCopyKernel(const BlockCopy& args) : a(args) {}
  LaunchShape shape() const { return shape_for(a.tiles.count * tile_points); }
  void accesses(launch::MemoryAccesses& acc) const {
    const std::size_t flat = launch::bytes_of<double>(a.tiles.count * tile_points);
    acc = {entries_read(a.tiles), a.to_flat ? launch::writes(a.flat, flat) : launch::reads(a.flat, flat)};
    chunk_accesses(a.blocks, blocks_of(a.tiles), !a.to_flat, acc);
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    block_copy_thread(a, item(t.place()));
  }
};

template <class T>
struct SquareAddKernel : LinearKernel {
  static constexpr const char* name = "the illumination";
  SquareAdd<T> a;
  explicit SquareAddKernel(const SquareAdd<T>& args) : a(args) {}
  index_t points() const { return a.w.shape[0] * a.w.shape[1] * a.w.shape[2]; }
  LaunchShape shape() const { return shape_for(points()); }
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {launch::reads(a.u), launch::writes(a.illumination, launch::bytes_of<double>(points()))};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    square_add_thread(a, item(t.place()));
  }
};

}  // namespace revwave::engine
