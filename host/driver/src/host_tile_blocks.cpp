#include "revwave/driver/host_tile_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace revwave {

void HostTileBlocks::allocate_chunk(std::size_t chunk) {
  if (chunk != chunks_.size()) throw std::logic_error("HostTileBlocks: chunks out of order");
  chunks_.emplace_back(chunk_blocks * TileGrid::points * sizeof(double));
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
  const index_t ex = g.edge(0), ey = g.edge(1), ez = g.edge(2);
  const index_t x0 = t[0] * ex, y0 = t[1] * ey, z0 = t[2] * ez;
  const index_t nx = std::min(ex, g.shape[0] - x0), ny = std::min(ey, g.shape[1] - y0),
                nz = std::min(ez, g.shape[2] - z0);
  for (index_t x = 0; x < nx; ++x)
    for (index_t y = 0; y < ny; ++y) f(((x0 + x) * g.shape[1] + (y0 + y)) * g.shape[2] + z0, (x * ey + y) * ez, nz);
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

// The blocks of the tiles a window touches, filled row by row in the window's memory order:
// row(x, y, out) writes the window's values along z at (x, y) into out[0..shape[2]), and each row
// is cut into the tiles' runs of up to edge(2) (8, one cache line of a block; 64 on a plane).
// Blocks the window covers only in part are zeroed first; the others are written whole.
template <class Row>
TiledPart fill_window_tiles(HostTileBlocks& blocks, const std::array<index_t, 3>& first,
                            const std::array<index_t, 3>& shape, bool plus_zero, Row&& row) {
  const TileGrid& g = blocks.grid();
  const std::array<index_t, 3> e{g.edge(0), g.edge(1), g.edge(2)};
  std::array<index_t, 3> t0{}, nt{};
  for (int a = 0; a < 3; ++a) {
    t0[a] = first[a] / e[a];
    nt[a] = (first[a] + shape[a] - 1) / e[a] - t0[a] + 1;
  }
  std::vector<TileEntry> entries;
  for (index_t t : blocks.grid().touched(first, shape)) entries.push_back({t, 0, plus_zero ? 1 : 0});
  for (TileEntry& en : entries) en.block = blocks.acquire();  // the part below owns them from here
  TiledPart part(blocks, std::move(entries));
  // touched() lists the tiles x, y, z nested: entry k is tile (ix, iy, iz) of the box, k = (ix ny + iy) nz + iz.
  std::vector<double*> tile(part.entries().size());
  for (std::size_t k = 0; k < tile.size(); ++k) tile[k] = blocks.block(part.entries()[k].block);
  auto whole_tile = [&](int a, index_t i) {
    return (t0[a] + i) * e[a] >= first[a] && (t0[a] + i + 1) * e[a] <= first[a] + shape[a];
  };
  for (index_t ix = 0; ix < nt[0]; ++ix)
    for (index_t iy = 0; iy < nt[1]; ++iy)
      for (index_t iz = 0; iz < nt[2]; ++iz)
        if (!(whole_tile(0, ix) && whole_tile(1, iy) && whole_tile(2, iz)))
          std::memset(tile[static_cast<std::size_t>((ix * nt[1] + iy) * nt[2] + iz)], 0,
                      TileGrid::points * sizeof(double));
#pragma omp parallel
  {
    std::vector<double> values(static_cast<std::size_t>(shape[2]));
#pragma omp for schedule(static)
    for (index_t x = 0; x < shape[0]; ++x)
      for (index_t y = 0; y < shape[1]; ++y) {
        row(x, y, values.data());
        const index_t gx = first[0] + x, gy = first[1] + y;
        double* const* line = tile.data() + ((gx / e[0] - t0[0]) * nt[1] + (gy / e[1] - t0[1])) * nt[2];
        const index_t offset = ((gx % e[0]) * e[1] + gy % e[1]) * e[2];
        for (index_t z = 0; z < shape[2];) {
          const index_t gz = first[2] + z, run = std::min(e[2] - gz % e[2], shape[2] - z);
          double* out = line[gz / e[2] - t0[2]] + offset + gz % e[2];
          for (index_t k = 0; k < run; ++k) out[k] = values[static_cast<std::size_t>(z + k)];
          z += run;
        }
      }
  }
  return part;
}

}  // namespace

TiledPart window_to_tiles(HostTileBlocks& blocks, const std::array<index_t, 3>& first,
                          const std::array<index_t, 3>& shape, const double* values, bool plus_zero) {
  return fill_window_tiles(blocks, first, shape, plus_zero, [&](index_t x, index_t y, double* out) {
    const double* in = values + (x * shape[1] + y) * shape[2];
    std::copy(in, in + shape[2], out);
  });
}

template <class T>
TiledPart fold_to_tiles(HostTileBlocks& blocks, const Grid& g, const std::array<index_t, 3>& first, const T* padded,
                        bool plus_zero) {
  const index_t nz = g.shape[2];
  // fold_to_interior's extension: the padded indices that copy interior index i (the layer at the edges).
  auto lo = [&g](int a, index_t i) { return i == 0 ? index_t(0) : i + g.layer_lo(a); };
  auto hi = [&g](int a, index_t i) { return i == g.shape[a] - 1 ? g.padded(a) - 1 : i + g.layer_lo(a); };
  auto folded = [&](index_t ix, index_t iy, index_t iz) {
    double s = 0;
    for (index_t i = lo(0, ix); i <= hi(0, ix); ++i)
      for (index_t j = lo(1, iy); j <= hi(1, iy); ++j)
        for (index_t k = lo(2, iz); k <= hi(2, iz); ++k) s += static_cast<double>(padded[g.index(i, j, k)]);
    return s;
  };
  return fill_window_tiles(blocks, first, g.shape, plus_zero, [&](index_t x, index_t y, double* out) {
    // Between the row's two ends a point extends in x and y alone (through the layers at the
    // window's x and y faces, to itself elsewhere): folded()'s sum, (i, j) ascending from 0, taken
    // a row of z at a time. The ends extend in z too.
    std::fill(out + 1, out + std::max<index_t>(nz - 1, 1), 0.0);
    for (index_t i = lo(0, x); i <= hi(0, x); ++i)
      for (index_t j = lo(1, y); j <= hi(1, y); ++j) {
        const T* in = padded + g.index(i, j, g.layer_lo(2));
        for (index_t z = 1; z < nz - 1; ++z) out[z] += static_cast<double>(in[z]);
      }
    out[0] = folded(x, y, 0);
    out[nz - 1] = folded(x, y, nz - 1);
  });
}

template TiledPart fold_to_tiles<float>(HostTileBlocks&, const Grid&, const std::array<index_t, 3>&, const float*,
                                        bool);
template TiledPart fold_to_tiles<double>(HostTileBlocks&, const Grid&, const std::array<index_t, 3>&, const double*,
                                         bool);

}  // namespace revwave
