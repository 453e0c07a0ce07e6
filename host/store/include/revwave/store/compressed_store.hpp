// Checkpoint slots in host memory holding compressed bytes (--compress fp16|bf16|zfp-...): a store
// encodes the state's two fields into the slot's buffer, a restore decodes into two free fields
// of the pool. Unlike MemoryStore this copies (and loses what the codec loses); it holds no pool
// fields. Each slot's buffer is allocated up front at the codec's max_bytes() per field.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

// One checkpoint's two fields (u, then u_prev) encoded by a codec into a buffer allocated up front
// at their largest: what CompressedStore and the CUDA backend's ZFP-encoded pinned-spill tier keep
// per slot. encode and decode return what they did, for the owner's statistics.
class EncodedSlot {
 public:
  explicit EncodedSlot(const FieldCodec& codec) : data_(2 * stride(codec)) {}
  // Bytes reserved per encoded field: the codec's largest, rounded up to 128 bytes.
  static std::size_t stride(const FieldCodec& codec) { return (codec.max_bytes() + 127) / 128 * 128; }

  CompressionStats encode(const FieldCodec& codec, const std::byte* u, const std::byte* u_prev);
  // Only after an encode (the caller checks empty()).
  CompressionStats decode(const FieldCodec& codec, std::byte* u, std::byte* u_prev) const;
  bool empty() const { return bytes_[0] == 0; }
  std::size_t bytes() const { return bytes_[0] + bytes_[1]; }

 private:
  HostBuffer data_;
  std::size_t bytes_[2] = {0, 0};
};

class CompressedStore final : public CheckpointStore {
 public:
  // slots >= 1, else InputError; the codec's field size must be the pool's (std::invalid_argument).
  // Allocation failure is an OutOfMemoryError.
  CompressedStore(std::int64_t slots, HostFieldPool& pool, const FieldCodec& codec);

  // Bytes a slot of this codec reserves: two encoded fields at their largest, each rounded up to
  // 128 bytes (what plan_strategy charges a memory budget).
  static std::size_t slot_bytes_of(const FieldCodec& codec) { return 2 * EncodedSlot::stride(codec); }

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  std::size_t slot_bytes() const override { return slot_bytes_of(codec_); }
  std::int64_t held_fields() const override { return 0; }
  void store(std::int64_t slot, const HostState& state) override;
  // Lets go of the state's fields and decodes into two free fields; last_use makes no difference.
  void restore(std::int64_t slot, HostState& state, bool last_use) override;
  // Encoded bytes written and read.
  std::uint64_t copy_bytes() const override { return copy_bytes_; }
  CompressionStats compression() const override { return stats_; }

 private:
  EncodedSlot& checked(std::int64_t slot, const HostState& state);

  HostFieldPool& pool_;
  FieldCodec codec_;
  std::vector<EncodedSlot> slots_;
  std::uint64_t copy_bytes_ = 0;
  CompressionStats stats_;
};

}  // namespace revwave
