// Checkpoint slots in device memory holding encoded fields (--compress fp16|bf16): each slot its
// own compact buffer, written by the encode kernel on the compute stream (ordered before the next
// step, so no handle and no fence is needed) and decoded on restore into free fields of the pool.
// With the context's fused codec (of this store's codec) the encode is the next forward sweep's and
// the decode the next forward step's (fused_codec.hpp), the bytes the same. Lossy; it holds no pool fields.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_codec.hpp"

namespace revwave {

class EncodedDeviceSlots final : public DeviceCheckpointStore {
 public:
  // slots >= 1; the codec must outlive the store. Allocation failure is a CudaOutOfMemoryError.
  EncodedDeviceSlots(std::int64_t slots, const DeviceStoreContext& context, DeviceCodec& codec);

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  std::size_t slot_bytes() const override { return codec_.slot_bytes(); }
  std::int64_t held_fields() const override { return 0; }
  std::uint64_t copy_bytes() const override { return 0; }
  CompressionStats compression() const override { return stats_; }

  // Slot ids outside [0, slots) are std::out_of_range; a restore of a slot never stored a std::logic_error.
  void store(std::int64_t slot, const DeviceState& state) override;
  void restore(std::int64_t slot, DeviceState& state, bool last_use) override;

 private:
  DeviceBuffer& checked(std::int64_t slot);
  FusedCodec* fused() const;  // the context's fused codec when it is of this store's codec

  DeviceStoreContext c_;
  DeviceCodec& codec_;
  std::vector<DeviceBuffer> slots_;
  std::vector<bool> filled_;
  CompressionStats stats_;
};

// Decodes a slot's two encoded fields (u at `in`, u_prev a stride later) on the compute stream into
// two free fields of the pool, which become the state; each waits first for the copies that may
// still read it (a raw tier's spill, fenced). What EncodedDeviceSlots and EncodedPinnedSlots restore with.
void decode_into_state(const DeviceStoreContext& c, DeviceCodec& codec, const unsigned char* in, DeviceState& state);
// The state's two new fields, free ones of the pool, each once no copy still reads it.
void take_fresh_fields(const DeviceStoreContext& c, DeviceState& state);

}  // namespace revwave
