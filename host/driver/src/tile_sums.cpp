#include "revwave/driver/tile_sums.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace revwave {

namespace {
// The tiles [lo, hi] a box of interior points covers along each axis.
std::array<std::array<index_t, 2>, 3> touched_range(const TileGrid& g, const std::array<index_t, 3>& first,
                                                    const std::array<index_t, 3>& size) {
  std::array<std::array<index_t, 2>, 3> r{};
  for (int a = 0; a < 3; ++a) {
    if (size[a] < 1 || first[a] < 0 || first[a] + size[a] > g.shape[a])
      throw std::logic_error("TileGrid::touched: the box leaves the grid");
    r[a] = {first[a] / g.edge(a), (first[a] + size[a] - 1) / g.edge(a)};
  }
  return r;
}
}  // namespace

std::vector<index_t> TileGrid::touched(const std::array<index_t, 3>& first, const std::array<index_t, 3>& size) const {
  const auto r = touched_range(*this, first, size);
  std::vector<index_t> out;
  out.reserve(static_cast<std::size_t>(touched_count(first, size)));
  for (index_t x = r[0][0]; x <= r[0][1]; ++x)
    for (index_t y = r[1][0]; y <= r[1][1]; ++y)
      for (index_t z = r[2][0]; z <= r[2][1]; ++z) out.push_back(id(x, y, z));
  return out;
}

index_t TileGrid::touched_count(const std::array<index_t, 3>& first, const std::array<index_t, 3>& size) const {
  const auto r = touched_range(*this, first, size);
  return (r[0][1] - r[0][0] + 1) * (r[1][1] - r[1][0] + 1) * (r[2][1] - r[2][0] + 1);
}

std::int32_t TileBlocks::acquire() {
  if (free_.empty()) grow(1);
  const std::int32_t b = free_.back();
  free_.pop_back();
  peak_held_ = std::max(peak_held_, allocated() - free_.size());
  return b;
}

void TileBlocks::reserve(std::size_t blocks) {
  if (free_.size() < blocks) grow((blocks - free_.size() + chunk_blocks - 1) / chunk_blocks);
}

void TileBlocks::grow(std::size_t chunks) {
  if (chunks_ + chunks > static_cast<std::size_t>(INT32_MAX) / chunk_blocks)
    throw std::logic_error("TileBlocks: too many blocks");
  const std::size_t first = chunks_;
  // The new chunks' blocks free, popped lowest first (in address order); those allocated before a
  // failure too, so that none is lost.
  const auto free_new = [&] {
    free_.reserve(free_.size() + (chunks_ - first) * chunk_blocks);
    for (std::size_t b = chunks_ * chunk_blocks; b-- > first * chunk_blocks;)
      free_.push_back(static_cast<std::int32_t>(b));
  };
  try {
    for (; chunks_ < first + chunks; ++chunks_) allocate_chunk(chunks_);
  } catch (...) {
    free_new();
    throw;
  }
  free_new();
}

void TiledPart::reset() noexcept {
  if (blocks_ != nullptr)
    for (const TileEntry& e : entries_) blocks_->release(e.block);
  blocks_ = nullptr;
  entries_.clear();
}

void TiledPart::add(TiledPart&& other) {
  if (other.empty()) return;
  if (empty()) {
    *this = std::move(other);
    return;
  }
  if (other.blocks_ != blocks_) throw std::logic_error("TiledPart::add: the parts live in different places");
  std::vector<TileEntry> merged;
  merged.reserve(entries_.size() + other.entries_.size());
  std::vector<BlockSum> sums;
  const std::vector<TileEntry>& a = entries_;
  const std::vector<TileEntry>& b = other.entries_;
  std::size_t i = 0, j = 0;
  // One side only: the block moves over, owing + 0.0 (the other side's +0.0 there).
  auto alone = [&merged](TileEntry e) {
    e.plus_zero = 1;
    merged.push_back(e);
  };
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].tile < b[j].tile)) {
      alone(a[i++]);
    } else if (i == a.size() || b[j].tile < a[i].tile) {
      alone(b[j++]);
    } else {
      sums.push_back({a[i].block, b[j].block, a[i].plus_zero, b[j].plus_zero});
      merged.push_back({a[i].tile, a[i].block, 0});
      ++i;
      ++j;
    }
  }
  blocks_->add(sums);  // releases the source blocks
  other.blocks_ = nullptr;
  other.entries_.clear();
  entries_ = std::move(merged);
}

std::vector<double> TiledPart::dense() const {
  if (empty()) throw std::logic_error("TiledPart::dense: an empty part");
  return blocks_->dense(entries_);
}

TiledPart part_from_values(TileBlocks& blocks, std::vector<TileEntry> entries, const double* values) {
  std::size_t got = 0;
  try {
    for (; got < entries.size(); ++got) entries[got].block = blocks.acquire();
  } catch (...) {
    for (std::size_t k = 0; k < got; ++k) blocks.release(entries[k].block);
    throw;
  }
  TiledPart part(blocks, std::move(entries));
  blocks.write(part.entries(), values);
  return part;
}

}  // namespace revwave
