// One thread's work in each of the engine's kernels (engine_kernels.hpp), host+device: their launch
// structs (engine_launch.hpp) run these bodies on a GPU and on cudasim. 1D launches; t is the
// global thread index.
#pragma once
#include "revwave/core/config.hpp"
#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave::engine {

inline constexpr index_t tile_points = 512;  // TileGrid::points

REVWAVE_HD double* block_at(const BlockTable& t, std::int32_t b) {
  return t.chunks[b / blocks_per_chunk] + static_cast<index_t>(b % blocks_per_chunk) * tile_points;
}
REVWAVE_HD index_t clamp_index(index_t v, index_t lo, index_t hi) { return v < lo ? lo : (v > hi ? hi : v); }
// Layer points before and after the interior along an axis (Grid::layer_lo, layer_hi), and the
// padded extent.
REVWAVE_HD index_t layer_lo(const WindowPlace& w, int a) { return a == 2 ? w.nbl_top : (a == 1 ? w.nbl_y : w.nbl); }
REVWAVE_HD index_t layer_hi(const WindowPlace& w, int a) { return a == 1 ? w.nbl_y : w.nbl; }
REVWAVE_HD index_t padded_extent(const WindowPlace& w, int a) { return w.shape[a] + layer_lo(w, a) + layer_hi(w, a); }
// Grid::index of padded coordinates.
REVWAVE_HD index_t padded_index(const WindowPlace& w, index_t i, index_t j, index_t k) {
  return (i + w.radius) * w.sx + (j + w.radius) * w.sy + k;
}

// t over the window's padded points: padded_squared_slowness's copy of the nearest interior point.
template <class T>
REVWAVE_HD void window_cut_thread(const WindowCut<T>& a, index_t t) {
  const WindowPlace& w = a.w;
  const index_t pz = padded_extent(w, 2), py = padded_extent(w, 1);
  if (t >= padded_extent(w, 0) * py * pz) return;
  const index_t k = t % pz, j = (t / pz) % py, i = t / (pz * py);
  const index_t ix = w.first[0] + clamp_index(i - layer_lo(w, 0), 0, w.shape[0] - 1);
  const index_t iy = w.first[1] + clamp_index(j - layer_lo(w, 1), 0, w.shape[1] - 1);
  const index_t iz = w.first[2] + clamp_index(k - layer_lo(w, 2), 0, w.shape[2] - 1);
  a.m[padded_index(w, i, j, k)] = a.whole_m[(ix * w.whole[1] + iy) * w.whole[2] + iz];
}

// fold_to_interior at the window's interior point (x, y, z): the padded points that copy it.
template <class T>
REVWAVE_HD double folded(const WindowPlace& w, const T* padded, index_t x, index_t y, index_t z) {
  const index_t c[3] = {x, y, z};
  index_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = c[a] == 0 ? 0 : c[a] + layer_lo(w, a);
    hi[a] = c[a] == w.shape[a] - 1 ? padded_extent(w, a) - 1 : c[a] + layer_lo(w, a);
  }
  double s = 0;
  for (index_t i = lo[0]; i <= hi[0]; ++i)
    for (index_t j = lo[1]; j <= hi[1]; ++j)
      for (index_t k = lo[2]; k <= hi[2]; ++k) s += static_cast<double>(padded[padded_index(w, i, j, k)]);
  return s;
}

// The whole model's interior point of value l of tile entry e, and whether it is in the model.
REVWAVE_HD void tile_point(const TileList& l, const TileEntry& e, index_t v, index_t p[3]) {
  const index_t tz = e.tile % l.tiles_z, ty = (e.tile / l.tiles_z) % l.tiles_y, tx = e.tile / (l.tiles_z * l.tiles_y);
  p[0] = tx * l.edge[0] + v / (l.edge[1] * l.edge[2]);
  p[1] = ty * l.edge[1] + (v / l.edge[2]) % l.edge[1];
  p[2] = tz * l.edge[2] + v % l.edge[2];
}

// t over entries x 512 values: the value of the window (folded, or given) or zero beyond it.
template <class T>
REVWAVE_HD void tile_fill_thread(const TileFill<T>& a, index_t t) {
  if (t >= a.tiles.count * tile_points) return;
  const TileEntry e = a.tiles.entries[t / tile_points];
  const index_t v = t % tile_points;
  index_t p[3];
  tile_point(a.tiles, e, v, p);
  const WindowPlace& w = a.w;
  const index_t x = p[0] - w.first[0], y = p[1] - w.first[1], z = p[2] - w.first[2];
  double value = 0;
  if (x >= 0 && x < w.shape[0] && y >= 0 && y < w.shape[1] && z >= 0 && z < w.shape[2]) {
    value = a.interior != nullptr ? a.interior[(x * w.shape[1] + y) * w.shape[2] + z] : folded(w, a.padded, x, y, z);
  }
  block_at(a.blocks, e.block)[v] = value;
}

// t over pairs x 512: dst = f(dst) + f(src), f(v) = v + 0.0 where owed (else v + -0.0, which is v).
REVWAVE_HD void block_add_thread(const BlockAdds& a, index_t t) {
  if (t >= a.count * tile_points) return;
  const BlockSum s = a.sums[t / tile_points];
  const index_t v = t % tile_points;
  double* dst = block_at(a.blocks, s.dst);
  const double* src = block_at(a.blocks, s.src);
  dst[v] = (dst[v] + (s.dst_plus_zero ? 0.0 : -0.0)) + (src[v] + (s.src_plus_zero ? 0.0 : -0.0));
}

REVWAVE_HD void tile_dense_thread(const TileDense& a, index_t t) {
  if (t >= a.tiles.count * tile_points) return;
  const TileEntry e = a.tiles.entries[t / tile_points];
  const index_t v = t % tile_points;
  index_t p[3];
  tile_point(a.tiles, e, v, p);
  if (p[0] >= a.whole[0] || p[1] >= a.whole[1] || p[2] >= a.whole[2]) return;
  a.out[(p[0] * a.whole[1] + p[1]) * a.whole[2] + p[2]] = block_at(a.blocks, e.block)[v] + (e.plus_zero ? 0.0 : -0.0);
}

REVWAVE_HD void block_copy_thread(const BlockCopy& a, index_t t) {
  if (t >= a.tiles.count * tile_points) return;
  double* b = block_at(a.blocks, a.tiles.entries[t / tile_points].block) + t % tile_points;
  if (a.to_flat)
    a.flat[t] = *b;
  else
    *b = a.flat[t];
}

// t over the window's interior points, x, y, z: add_squared_interior's sum, with the rounding of the
// sweep that adds it in passing (add_square).
template <class T>
REVWAVE_HD void square_add_thread(const SquareAdd<T>& a, index_t t) {
  const WindowPlace& w = a.w;
  if (t >= w.shape[0] * w.shape[1] * w.shape[2]) return;
  const index_t z = t % w.shape[2], y = (t / w.shape[2]) % w.shape[1], x = t / (w.shape[2] * w.shape[1]);
  const double u =
      static_cast<double>(a.u[padded_index(w, x + layer_lo(w, 0), y + layer_lo(w, 1), z + layer_lo(w, 2))]);
  a.illumination[t] = add_square(a.illumination[t], u);
}

}  // namespace revwave::engine
