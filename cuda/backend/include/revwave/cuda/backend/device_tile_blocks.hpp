// Tile blocks in device memory: the GPU engine's partial sums. Blocks come in chunks of 256 (1 MiB),
// reserved before a survey's shots or allocated when the free ones run out, and recycled after; a
// block table on the device finds them.
// Every operation is enqueued on the sums' stream; only dense() and read() wait, for the copy back.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/stream_event.hpp"
#include "revwave/driver/tile_sums.hpp"

namespace revwave {

class DeviceTileBlocks final : public TileBlocks {
 public:
  DeviceTileBlocks(const TileGrid& grid, const Stream& stream, UploadRing& ring);
  void add(const std::vector<BlockSum>& sums) override;
  std::vector<double> dense(const std::vector<TileEntry>& entries) override;
  void read(const std::vector<TileEntry>& entries, double* out) override;
  void write(const std::vector<TileEntry>& entries, const double* in) override;

  BlockTable table() const { return {table_.as<double* const>()}; }
  // The entries on the device (for a kernel that fills their blocks), valid until the next call.
  TileList upload_entries(const std::vector<TileEntry>& entries);
  const Stream& stream() const { return stream_; }

 protected:
  void allocate_chunk(std::size_t chunk) override;

 private:
  static constexpr std::size_t max_chunks = 65536;  // 64 GiB of blocks
  const Stream& stream_;
  UploadRing& ring_;
  DeviceBuffer table_;  // max_chunks device pointers
  std::vector<DeviceBuffer> chunks_;
  GrowingBuffer entries_{"the tiles of a part"}, pairs_{"the tree's block pairs"}, flat_{"tile blocks in a row"};
  DeviceBuffer dense_;  // the whole model's values, for the one read-back
  PinnedBuffer dense_host_, flat_host_;
};

}  // namespace revwave
