// The shot engine's kernels: a window's m cut from the resident model, the gradient folded into
// tile blocks, the tree's block sums, the whole model's values from the root's tiles, blocks to
// and from a flat buffer (messages), and the illumination's sum of u^2. Arguments travel as one
// struct each; the bodies (engine_threads.hpp) run on the GPU and on cudasim alike.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

#include "revwave/core/config.hpp"
#include "revwave/driver/tile_sums.hpp"

namespace revwave {

// Block b of a run's tile blocks: chunks of 256 blocks of 512 doubles (device pointers).
struct BlockTable {
  double* const* chunks = nullptr;
};
inline constexpr std::int32_t blocks_per_chunk = 256;

// Where a window sits: its interior and padded extents, the layer, strides of its allocated grid,
// and its first interior point in the whole model (whose interior is shape_whole). nbl_top: the
// layer above z = 0 (nbl, or 0 where the window keeps a free surface: Grid::layer_lo(2)); nbl_y:
// the layer on both y faces (nbl, or 0 on a plane: Grid::layer_lo(1)).
struct WindowPlace {
  index_t first[3] = {0, 0, 0};
  index_t shape[3] = {0, 0, 0};
  index_t whole[3] = {0, 0, 0};
  index_t nbl = 0, radius = 0, sx = 0, sy = 0;
  index_t nbl_top = 0, nbl_y = 0;
};

// m on the window's padded points from the resident interior m (the layer copying the edges).
template <class T>
struct WindowCut {
  WindowPlace w;
  const T* whole_m = nullptr;
  T* m = nullptr;
};
template <class T>
void launch_window_cut(const WindowCut<T>& a, cudaStream_t stream);

// The tiles of a part: tile ids and blocks, entry after entry (TileEntry's layout).
struct TileList {
  const TileEntry* entries = nullptr;
  index_t count = 0;
  index_t tiles_y = 0, tiles_z = 0;  // of the whole model's tile grid
  index_t edge[3] = {8, 8, 8};       // a tile's points per axis (TileGrid::edge: 8 x 1 x 64 on a plane)
};

// Blocks of the window's tiles from its gradient on the allocated grid, folded to the interior
// (fold_to_interior's sums), or from a window's interior values (`interior`, when not null).
template <class T>
struct TileFill {
  WindowPlace w;
  TileList tiles;
  BlockTable blocks;
  const T* padded = nullptr;         // the gradient field
  const double* interior = nullptr;  // or the window's interior values
};
template <class T>
void launch_tile_fill(const TileFill<T>& a, cudaStream_t stream);

struct BlockAdds {
  BlockTable blocks;
  const BlockSum* sums = nullptr;
  index_t count = 0;
};
void launch_block_adds(const BlockAdds& a, cudaStream_t stream);

// The whole model's interior values from a part's tiles (out zeroed before).
struct TileDense {
  TileList tiles;
  BlockTable blocks;
  index_t whole[3] = {0, 0, 0};
  double* out = nullptr;
};
void launch_tile_dense(const TileDense& a, cudaStream_t stream);

// Blocks to a flat buffer (entry after entry) or back.
struct BlockCopy {
  TileList tiles;
  BlockTable blocks;
  double* flat = nullptr;
  bool to_flat = true;
};
void launch_block_copy(const BlockCopy& a, cudaStream_t stream);

// illumination[i] += u[i]^2 at the window's interior points (CpuPropagator::add_squared_interior).
template <class T>
struct SquareAdd {
  WindowPlace w;
  const T* u = nullptr;
  double* illumination = nullptr;
};
template <class T>
void launch_square_add(const SquareAdd<T>& a, cudaStream_t stream);

}  // namespace revwave
