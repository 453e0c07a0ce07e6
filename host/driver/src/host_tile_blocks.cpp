#include "revwave/driver/host_tile_blocks.hpp"

#include <cstring>
#include <stdexcept>

namespace revwave {

std::int32_t HostTileBlocks::acquire() {
  if (free_.empty()) {
    const std::size_t first = allocated();
    if (first + chunk_blocks > static_cast<std::size_t>(INT32_MAX)) throw std::logic_error("HostTileBlocks: too many blocks");
    chunks_.emplace_back(chunk_blocks * TileGrid::points * sizeof(double));
    for (std::size_t b = first + chunk_blocks; b-- > first;) free_.push_back(static_cast<std::int32_t>(b));
  }
  const std::int32_t b = free_.back();
  free_.pop_back();
  return b;
}

void HostTileBlocks::add(const std::vector<BlockSum>& sums) {
  const auto n = static_cast<std::int64_t>(sums.size());
#pragma omp parallel for schedule(static) if (n > 16)
  for (std::int64_t s = 0; s < n; ++s) {
    const BlockSum& p = sums[static_cast<std::size_t>(s)];
    double* dst = block(p.dst);
    const double* src = block(p.src);
    // The flags are per block, so that the common case (none owed) is a plain vector add.
    if (!p.dst_plus_zero && !p.src_plus_zero) {
      for (index_t i = 0; i < TileGrid::points; ++i) dst[i] = dst[i] + src[i];
    } else {
      const double zd = p.dst_plus_zero ? 0.0 : -0.0, zs = p.src_plus_zero ? 0.0 : -0.0;  // x + -0.0 == x always
      for (index_t i = 0; i < TileGrid::points; ++i) dst[i] = (dst[i] + zd) + (src[i] + zs);
    }
  }
  for (const BlockSum& p : sums) release(p.src);
}

namespace {
// Calls f(whole-model offset of the tile's row (x, y) start, local offset in the block, length)
// for every z-run of tile `id` inside the model.
template <class F>
void for_each_run(const TileGrid& g, index_t id, F&& f) {
  const auto t = g.coordinates(id);
  const index_t e = TileGrid::edge;
  const index_t x0 = t[0] * e, y0 = t[1] * e, z0 = t[2] * e;
  const index_t nx = std::min(e, g.shape[0] - x0), ny = std::min(e, g.shape[1] - y0), nz = std::min(e, g.shape[2] - z0);
  for (index_t x = 0; x < nx; ++x)
    for (index_t y = 0; y < ny; ++y) f(((x0 + x) * g.shape[1] + (y0 + y)) * g.shape[2] + z0, (x * e + y) * e, nz);
}
}  // namespace

std::vector<double> HostTileBlocks::dense(const std::vector<TileEntry>& entries) {
  const TileGrid& g = grid();
  std::vector<double> out(static_cast<std::size_t>(g.shape[0] * g.shape[1] * g.shape[2]), 0.0);
  const auto n = static_cast<std::int64_t>(entries.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const TileEntry& e = entries[static_cast<std::size_t>(k)];
    const double* b = block(e.block);
    const double z = e.plus_zero ? 0.0 : -0.0;
    for_each_run(g, e.tile, [&](index_t whole, index_t local, index_t len) {
      for (index_t i = 0; i < len; ++i) out[static_cast<std::size_t>(whole + i)] = b[local + i] + z;
    });
  }
  return out;
}

void HostTileBlocks::read(const std::vector<TileEntry>& entries, double* out) {
  for (std::size_t k = 0; k < entries.size(); ++k)
    std::memcpy(out + k * TileGrid::points, block(entries[k].block), TileGrid::points * sizeof(double));
}

void HostTileBlocks::write(const std::vector<TileEntry>& entries, const double* in) {
  for (std::size_t k = 0; k < entries.size(); ++k)
    std::memcpy(block(entries[k].block), in + k * TileGrid::points, TileGrid::points * sizeof(double));
}

namespace {

// The blocks of the tiles a window touches, each filled by fill(block, tile's first interior point
// relative to the window) with the window's values, zero beyond it.
template <class Fill>
TiledPart fill_window_tiles(HostTileBlocks& blocks, const std::array<index_t, 3>& first, const std::array<index_t, 3>& shape,
                            bool plus_zero, Fill&& fill) {
  std::vector<TileEntry> entries;
  for (index_t t : blocks.grid().touched(first, shape)) entries.push_back({t, 0, plus_zero ? 1 : 0});
  for (TileEntry& e : entries) e.block = blocks.acquire();  // the part below owns them from here
  TiledPart part(blocks, std::move(entries));
  const auto& es = part.entries();
  const auto n = static_cast<std::int64_t>(es.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto t = blocks.grid().coordinates(es[static_cast<std::size_t>(k)].tile);
    std::array<index_t, 3> rel{};
    for (int a = 0; a < 3; ++a) rel[a] = t[a] * TileGrid::edge - first[a];
    fill(blocks.block(es[static_cast<std::size_t>(k)].block), rel);
  }
  return part;
}

// Calls f(x, y of the window, the window's z of the block's first z, local z0, z1, the block's row)
// for every row of a tile inside the window; zeroes the block first.
template <class F>
void each_window_row(double* b, const std::array<index_t, 3>& rel, const std::array<index_t, 3>& shape, F&& f) {
  std::memset(b, 0, TileGrid::points * sizeof(double));
  const index_t e = TileGrid::edge;
  const index_t z0 = std::max<index_t>(0, -rel[2]), z1 = std::min<index_t>(e, shape[2] - rel[2]);
  for (index_t x = std::max<index_t>(0, -rel[0]); x < e && rel[0] + x < shape[0]; ++x)
    for (index_t y = std::max<index_t>(0, -rel[1]); y < e && rel[1] + y < shape[1]; ++y)
      f(rel[0] + x, rel[1] + y, rel[2], z0, z1, b + (x * e + y) * e);
}

}  // namespace

TiledPart window_to_tiles(HostTileBlocks& blocks, const std::array<index_t, 3>& first, const std::array<index_t, 3>& shape,
                          const double* values, bool plus_zero) {
  return fill_window_tiles(blocks, first, shape, plus_zero, [&](double* b, const std::array<index_t, 3>& rel) {
    each_window_row(b, rel, shape, [&](index_t x, index_t y, index_t zr, index_t z0, index_t z1, double* row) {
      const double* in = values + (x * shape[1] + y) * shape[2] + zr;
      for (index_t z = z0; z < z1; ++z) row[z] = in[z];
    });
  });
}

template <class T>
TiledPart fold_to_tiles(HostTileBlocks& blocks, const Grid& g, const std::array<index_t, 3>& first, const T* padded,
                        bool plus_zero) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2], nbl = g.nbl;
  // fold_to_interior's extension: the padded indices that copy interior index i (the layer at the edges).
  auto lo = [nbl](index_t i) { return i == 0 ? index_t(0) : i + nbl; };
  auto hi = [nbl](index_t i, index_t n) { return i == n - 1 ? n + 2 * nbl - 1 : i + nbl; };
  auto folded = [&](index_t ix, index_t iy, index_t iz) {
    double s = 0;
    for (index_t i = lo(ix); i <= hi(ix, nx); ++i)
      for (index_t j = lo(iy); j <= hi(iy, ny); ++j)
        for (index_t k = lo(iz); k <= hi(iz, nz); ++k) s += static_cast<double>(padded[g.index(i, j, k)]);
    return s;
  };
  return fill_window_tiles(blocks, first, g.shape, plus_zero, [&](double* b, const std::array<index_t, 3>& rel) {
    each_window_row(b, rel, g.shape, [&](index_t x, index_t y, index_t zr, index_t z0, index_t z1, double* row) {
      const bool edge_xy = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
      const T* in = padded + g.index(x + nbl, y + nbl, nbl + zr);
      for (index_t z = z0; z < z1; ++z) {
        // Away from the window's faces a point extends to itself alone: s = 0 + u, as folded() sums it.
        const index_t iz = zr + z;
        row[z] = (edge_xy || iz == 0 || iz == nz - 1) ? folded(x, y, iz) : 0.0 + static_cast<double>(in[z]);
      }
    });
  });
}

template TiledPart fold_to_tiles<float>(HostTileBlocks&, const Grid&, const std::array<index_t, 3>&, const float*, bool);
template TiledPart fold_to_tiles<double>(HostTileBlocks&, const Grid&, const std::array<index_t, 3>&, const double*, bool);

}  // namespace revwave
