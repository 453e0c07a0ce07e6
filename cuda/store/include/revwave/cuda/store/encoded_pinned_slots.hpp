// Checkpoint slots in pinned host memory holding encoded fields (--compress fp16|bf16): a spill
// encodes the state into a device staging buffer on the compute stream and copies those bytes
// (half the raw ones or less) over PCIe; a read ahead copies a slot's bytes back into a second
// staging buffer, which the restore decodes into free fields of the pool. The same bytes as a
// device slot's, so the same gradient wherever a slot lives. Holds no pool fields.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_codec.hpp"

namespace revwave {

class EncodedPinnedSlots final : public DeviceCheckpointStore {
 public:
  // slots >= 1; the codec must outlive the store. Allocation failures are OutOfMemoryErrors.
  EncodedPinnedSlots(std::int64_t slots, const DeviceStoreContext& context, DeviceCodec& codec,
                     TierLookahead ahead = {});

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  std::size_t slot_bytes() const override { return codec_.slot_bytes(); }
  std::int64_t held_fields() const override { return 0; }
  std::uint64_t copy_bytes() const override { return copy_bytes_; }  // over PCIe, both ways
  CompressionStats compression() const override { return stats_; }
  std::int64_t prefetch_hits() const override { return prefetch_hits_; }

  // Slot ids outside [0, slots) are std::out_of_range.
  void store(std::int64_t slot, const DeviceState& state) override;
  void restore(std::int64_t slot, DeviceState& state, bool last_use) override;
  void look_ahead() override { maybe_prefetch(); }

 private:
  PinnedBuffer& checked(std::int64_t slot);
  void fetch(std::int64_t slot, const Event& done);
  void maybe_prefetch();

  DeviceStoreContext c_;
  DeviceCodec& codec_;
  TierLookahead ahead_;
  std::vector<PinnedBuffer> slots_;
  DeviceBuffer spill_staging_, fetch_staging_;
  Event spilled_, prefetched_, restored_;
  bool spill_pending_ = false;
  std::int64_t staged_slot_ = -1;  // the slot whose bytes are in fetch_staging_ (or on their way)
  std::int64_t prefetch_hits_ = 0;
  std::uint64_t copy_bytes_ = 0;
  CompressionStats stats_;
};

}  // namespace revwave
