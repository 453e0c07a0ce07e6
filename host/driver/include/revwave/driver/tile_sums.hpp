// The survey gradient's partial sums, kept on the tiles the shots' windows touch: a sum over a
// block of shots is O(its windows), never O(model), and lives where the engine computes (host
// memory on the CPU backend, device memory on the GPU). The fixed summation tree (revwave/survey)
// adds these parts; the sums are the dense tree's bits (see TiledPart).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

// The whole model's interior points (x, y, z; z fastest) cut into tiles of 8 x 8 x 8 points, or on
// a plane (ny = 1) of 8 x 1 x 64, so that a block holds 512 of the model's values either way; a
// tile's values are stored x, y, z (z fastest) inside it, the points beyond the model's edge kept
// zero.
struct TileGrid {
  static constexpr index_t points = 512;  // values per block
  std::array<index_t, 3> shape{0, 0, 0};

  // Points of a tile along `axis`.
  index_t edge(int axis) const {
    if (shape[1] == 1) return axis == 0 ? 8 : (axis == 1 ? 1 : 64);
    return 8;
  }
  index_t tiles(int axis) const { return (shape[axis] + edge(axis) - 1) / edge(axis); }
  index_t count() const { return tiles(0) * tiles(1) * tiles(2); }
  index_t id(index_t tx, index_t ty, index_t tz) const { return (tx * tiles(1) + ty) * tiles(2) + tz; }
  std::array<index_t, 3> coordinates(index_t id) const {
    return {id / (tiles(1) * tiles(2)), (id / tiles(2)) % tiles(1), id % tiles(2)};
  }
  // The tiles a box of interior points [first, first + size) touches, ascending.
  std::vector<index_t> touched(const std::array<index_t, 3>& first, const std::array<index_t, 3>& size) const;
  // How many: touched(first, size).size() without the list.
  index_t touched_count(const std::array<index_t, 3>& first, const std::array<index_t, 3>& size) const;
};

// One tile of a part: which tile, the block holding its values, and whether `value + 0.0` is still
// owed (see TiledPart).
struct TileEntry {
  index_t tile = 0;
  std::int32_t block = 0;
  std::int32_t plus_zero = 0;  // 1: the value is block + 0.0 (only -0.0 changes: it becomes +0.0)
};

// dst = f(dst) + f(src), f(v) = v + 0.0 where the entry owes it; src's block is released after.
struct BlockSum {
  std::int32_t dst = 0, src = 0;
  std::int32_t dst_plus_zero = 0, src_plus_zero = 0;
};

// Where a run's blocks live (host memory, device memory), and the few operations the tree needs on
// them. Blocks are allocated in chunks of 256 (1 MiB) and recycled: a survey gradient reserves what
// its tree will hold before its first shot (reserve), and after the first one a run allocates
// nothing more for its sums.
class TileBlocks {
 public:
  static constexpr std::size_t chunk_blocks = 256;

  explicit TileBlocks(const TileGrid& grid) : grid_(grid) {}
  virtual ~TileBlocks() = default;
  TileBlocks(const TileBlocks&) = delete;
  TileBlocks& operator=(const TileBlocks&) = delete;

  const TileGrid& grid() const { return grid_; }
  std::int32_t acquire();  // a block, contents undefined; a new chunk when none is free
  void release(std::int32_t block) { free_.push_back(block); }
  // Makes at least `blocks` blocks free, allocating the chunks missing now rather than in the
  // middle of a shot (mapping host memory costs this VM 0.2-2.5 ms a MiB, a 128^3 window's part
  // 19 MiB; cudaMalloc synchronises the device).
  void reserve(std::size_t blocks);
  std::size_t allocated() const { return chunks_ * chunk_blocks; }  // blocks, held or free
  std::size_t peak_held() const { return peak_held_; }              // the most held at once so far
  // Each pair, in the order given (independent pairs: no block appears twice).
  virtual void add(const std::vector<BlockSum>& sums) = 0;
  // The whole model's interior values (f applied), +0.0 on the tiles no entry holds.
  virtual std::vector<double> dense(const std::vector<TileEntry>& entries) = 0;
  // Blocks to and from host memory, entry after entry (messages between processes).
  virtual void read(const std::vector<TileEntry>& entries, double* out) = 0;
  virtual void write(const std::vector<TileEntry>& entries, const double* in) = 0;

 protected:
  // Allocates chunk `chunk` (blocks chunk * chunk_blocks onwards), the chunks before it already there.
  virtual void allocate_chunk(std::size_t chunk) = 0;

 private:
  void grow(std::size_t chunks);
  TileGrid grid_;
  std::size_t chunks_ = 0;
  std::size_t peak_held_ = 0;
  std::vector<std::int32_t> free_;
};

// A partial sum's gradient: an ascending list of tiles, each with its block. Its value at a point
// of a tile it holds is the block's (plus 0.0 where owed); at every other point it is +0.0. That
// is exactly what the dense sum of whole-model vectors holds there: a point outside every window
// of the block of shots sums +0.0s. Adding two parts adds the blocks of the tiles both hold and
// moves the others over untouched, marking them as owing + 0.0 (the dense sum adds the other
// side's +0.0 there: x + 0.0 is x except that -0.0 becomes +0.0, and (x + 0.0) + 0.0 = x + 0.0),
// so every point is the dense tree's bits while the work is the blocks both sides hold.
class TiledPart {
 public:
  TiledPart() = default;
  TiledPart(TileBlocks& blocks, std::vector<TileEntry> entries) : blocks_(&blocks), entries_(std::move(entries)) {}
  TiledPart(TiledPart&& o) noexcept : blocks_(std::exchange(o.blocks_, nullptr)), entries_(std::move(o.entries_)) {}
  TiledPart& operator=(TiledPart&& o) noexcept {
    if (this != &o) {
      reset();
      blocks_ = std::exchange(o.blocks_, nullptr);
      entries_ = std::move(o.entries_);
    }
    return *this;
  }
  TiledPart(const TiledPart&) = delete;
  TiledPart& operator=(const TiledPart&) = delete;
  ~TiledPart() { reset(); }

  void reset() noexcept;
  bool empty() const { return blocks_ == nullptr; }
  TileBlocks* blocks() const { return blocks_; }
  const std::vector<TileEntry>& entries() const { return entries_; }
  std::size_t values() const { return entries_.size() * static_cast<std::size_t>(TileGrid::points); }
  // this = this + other (the tree's sum; floating-point addition commutes, so the sides' order
  // does not matter). Both in the same TileBlocks.
  void add(TiledPart&& other);
  // The whole model's values (one read-back where the blocks live on a device).
  std::vector<double> dense() const;

 private:
  TileBlocks* blocks_ = nullptr;
  std::vector<TileEntry> entries_;
};

// A part in `blocks` holding the given tiles' values (read from a message), none owing + 0.0.
TiledPart part_from_values(TileBlocks& blocks, std::vector<TileEntry> entries, const double* values);

}  // namespace revwave
