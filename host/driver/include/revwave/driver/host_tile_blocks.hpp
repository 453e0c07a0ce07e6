// Tile blocks in host memory (the CPU backend's sums and the messages' landing place), and the
// CPU's leaves: a shot's window gradient folded straight into the tiles it touches.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/driver/tile_sums.hpp"
#include "revwave/numerics/grid.hpp"

namespace revwave {

class HostTileBlocks final : public TileBlocks {
 public:
  explicit HostTileBlocks(const TileGrid& grid) : TileBlocks(grid) {}
  void add(const std::vector<BlockSum>& sums) override;
  std::vector<double> dense(const std::vector<TileEntry>& entries) override;
  void read(const std::vector<TileEntry>& entries, double* out) override;
  void write(const std::vector<TileEntry>& entries, const double* in) override;

  double* block(std::int32_t b) { return chunks_[static_cast<std::size_t>(b) / chunk_blocks].as<double>() + offset(b); }

 protected:
  void allocate_chunk(std::size_t chunk) override;

 private:
  static std::size_t offset(std::int32_t b) { return (static_cast<std::size_t>(b) % chunk_blocks) * TileGrid::points; }
  std::vector<HostBuffer> chunks_;
};

// The part of a window's values (interior points of the window, x, y, z, z fastest) at window
// origin `first` of the whole grid: the tiles the window touches, zero where it does not cover.
// `plus_zero`: every value owes + 0.0 (a window's gradient added into the zeros of the whole model).
TiledPart window_to_tiles(HostTileBlocks& blocks, const std::array<index_t, 3>& first,
                          const std::array<index_t, 3>& shape, const double* values, bool plus_zero);
// The same from a gradient on the window's allocated grid, folded to its interior on the way
// (fold_to_interior's sums, point by point, in its order).
template <class T>
TiledPart fold_to_tiles(HostTileBlocks& blocks, const Grid& window, const std::array<index_t, 3>& first,
                        const T* padded, bool plus_zero);

}  // namespace revwave
