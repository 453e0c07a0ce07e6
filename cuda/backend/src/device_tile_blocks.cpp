#include "revwave/cuda/backend/device_tile_blocks.hpp"

#include <cstring>
#include <stdexcept>

namespace revwave {

DeviceTileBlocks::DeviceTileBlocks(const TileGrid& grid, const Stream& stream, UploadRing& ring)
    : TileBlocks(grid), stream_(stream), ring_(ring), table_(max_chunks * sizeof(double*), "the tile block table") {}

void DeviceTileBlocks::allocate_chunk(std::size_t chunk) {
  static_assert(std::size_t(blocks_per_chunk) == chunk_blocks, "the kernels' block table and the chunks agree");
  if (chunk != chunks_.size()) throw std::logic_error("DeviceTileBlocks: chunks out of order");
  if (chunk == max_chunks) throw std::logic_error("DeviceTileBlocks: too many blocks");
  chunks_.emplace_back(chunk_blocks * TileGrid::points * sizeof(double), "tile blocks");
  double* base = chunks_.back().as<double>();
  try {
    ring_.upload(table_.as<double*>() + chunk, &base, sizeof base, stream_);
  } catch (...) {
    chunks_.pop_back();  // the chunk count stays the base's
    throw;
  }
}

TileList DeviceTileBlocks::upload_entries(const std::vector<TileEntry>& entries) {
  entries_.reserve(entries.size() * sizeof(TileEntry));
  ring_.upload(entries_.data(), entries.data(), entries.size() * sizeof(TileEntry), stream_);
  return {entries_.as<const TileEntry>(),
          static_cast<index_t>(entries.size()),
          grid().tiles(1),
          grid().tiles(2),
          {grid().edge(0), grid().edge(1), grid().edge(2)}};
}

void DeviceTileBlocks::add(const std::vector<BlockSum>& sums) {
  if (!sums.empty()) {
    pairs_.reserve(sums.size() * sizeof(BlockSum));
    ring_.upload(pairs_.data(), sums.data(), sums.size() * sizeof(BlockSum), stream_);
    launch_block_adds({table(), pairs_.as<const BlockSum>(), static_cast<index_t>(sums.size())}, stream_);
  }
  // Stream order keeps a source block's next owner behind this sum.
  for (const BlockSum& p : sums) release(p.src);
}

std::vector<double> DeviceTileBlocks::dense(const std::vector<TileEntry>& entries) {
  const TileGrid& g = grid();
  const std::size_t n = static_cast<std::size_t>(g.shape[0] * g.shape[1] * g.shape[2]);
  if (dense_.bytes() < n * sizeof(double)) {
    dense_ = DeviceBuffer(n * sizeof(double), "the survey gradient");
    dense_host_ = PinnedBuffer(n * sizeof(double), "the survey gradient's read-back");
  }
  REVWAVE_CUDA_CHECK(cudaMemsetAsync(dense_.data(), 0, n * sizeof(double), stream_));
  TileDense a;
  a.tiles = upload_entries(entries);
  a.blocks = table();
  for (int k = 0; k < 3; ++k) a.whole[k] = g.shape[k];
  a.out = dense_.as<double>();
  launch_tile_dense(a, stream_);
  REVWAVE_CUDA_CHECK(
      cudaMemcpyAsync(dense_host_.data(), dense_.data(), n * sizeof(double), cudaMemcpyDeviceToHost, stream_));
  stream_.synchronize();  // the survey gradient's one read-back
  const double* h = dense_host_.as<double>();
  return std::vector<double>(h, h + n);
}

void DeviceTileBlocks::read(const std::vector<TileEntry>& entries, double* out) {
  const std::size_t bytes = entries.size() * TileGrid::points * sizeof(double);
  if (bytes == 0) return;
  flat_.reserve(bytes);
  if (flat_host_.bytes() < bytes) flat_host_ = PinnedBuffer(flat_.bytes(), "tile blocks' read-back");
  BlockCopy a{upload_entries(entries), table(), flat_.as<double>(), true};
  launch_block_copy(a, stream_);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(flat_host_.data(), flat_.data(), bytes, cudaMemcpyDeviceToHost, stream_));
  stream_.synchronize();
  std::memcpy(out, flat_host_.data(), bytes);
}

void DeviceTileBlocks::write(const std::vector<TileEntry>& entries, const double* in) {
  const std::size_t bytes = entries.size() * TileGrid::points * sizeof(double);
  if (bytes == 0) return;
  flat_.reserve(bytes);
  const TileList tiles = upload_entries(entries);
  ring_.upload(flat_.data(), in, bytes, stream_);
  launch_block_copy({tiles, table(), flat_.as<double>(), false}, stream_);
}

}  // namespace revwave
