// Checkpoint slots for the CUDA backend on two tiers: pinned host memory for slot ids
// [0, host_slots) and device memory for the rest. The two-level schedule numbers its outer
// checkpoints (each stored once and restored once, K steps apart) from 0; the online schedule's
// low ids are the earliest, most widely spaced of its checkpoints.
//
// Device slots are handles to the state's fields (the propagator's pool): storing shares them,
// restoring shares them back; nothing is copied and nothing waits. Pinned slots copy over PCIe,
// on the transfer stream: a spill reads the state's fields directly, holding them (and fencing
// them: whoever writes one next waits for the copy) until the next spill, so the steps meanwhile
// write other fields; a restore reads into free fields of the pool. Restores are prefetched: the
// store asks its prefetch hint (the driver's lookahead into the schedule) and starts the next
// pinned restore as soon as that slot's content is final; the restore itself then only hands the
// fields over.
//
// With a codec (--compress fp16|bf16) every slot holds encoded bytes instead: a device slot its own
// compact buffer, written by the encode kernel on the compute stream (so no fence and no handle is
// needed: the next step is ordered after it) and decoded into free fields of the pool on restore;
// a pinned slot the same bytes, encoded into a device staging buffer and copied over PCIe (half
// the bytes or less), a prefetch copying them back into a second staging buffer that the restore
// decodes. Such a store holds no pool fields.
//
// With a host codec (--compress zfp-rate|zfp-accuracy, which has no device codec) device slots are
// handles as without compression (exact), and only the pinned slots are encoded: a spill copies the
// fields raw into pinned staging as above, and a host worker encodes them into the slot
// (host_encoded_slots.hpp); a prefetch has the worker decode the slot into pinned staging and, once
// it has, copies it into free fields of the pool, which the restore then hands over.
#pragma once
#include <memory>
#include <vector>

#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/store/device_codec.hpp"
#include "revwave/cuda/store/host_encoded_slots.hpp"
#include "revwave/store/prefetch_hint.hpp"
#include "revwave/schedule/tier_split.hpp"
#include "revwave/cuda/runtime/write_fences.hpp"

namespace revwave {

class DeviceCheckpointStore {
 public:
  // hint may be null (no prefetch). Pinned allocation failures throw OutOfMemoryError; the pool
  // is sized by the caller (held_fields).
  DeviceCheckpointStore(const TierSplit& split, DeviceFieldPool& pool, CudaStreams& streams, WriteFences& fences,
                        SpillClock& clock, PrefetchHint* hint, DeviceCodec* codec = nullptr,
                        const FieldCodec* host_codec = nullptr);

  std::int64_t slots() const { return split_.device_slots + split_.host_slots; }
  // With a host codec: a device slot's (raw); the pinned ones take host_slot_bytes().
  std::size_t slot_bytes() const { return codec_ ? codec_->slot_bytes() : 2 * pool_.field_bytes(); }
  const TierSplit& split() const { return split_; }
  bool is_host(std::int64_t slot) const { return slot < split_.host_slots; }
  index_t prefetch_hits() const { return prefetch_hits_; }
  // Device slots, the spilled state and the state read ahead.
  std::int64_t held_fields() const {
    return codec_ ? 0 : 2 * split_.device_slots + (split_.host_slots > 0 ? 4 : 0);
  }
  std::uint64_t copy_bytes() const { return copy_bytes_; }  // over PCIe, both ways
  // Fields encoded and decoded (the kernels' time is the compute stream's: not measured apart).
  // With a host codec: the worker's fields and seconds.
  CompressionStats compression() const { return host_ ? host_->stats() : stats_; }

  void store(std::int64_t slot, const DeviceState& state);
  void restore(std::int64_t slot, DeviceState& state, bool last_use);

 private:
  struct HostSlot {
    PinnedBuffer u, u_prev;
  };
  void check(std::int64_t slot) const;
  void copy_async(void* dst, const void* src, cudaMemcpyKind kind, cudaStream_t stream);
  void maybe_prefetch();
  void store_encoded(std::int64_t slot, const DeviceState& state);
  void restore_encoded(std::int64_t slot, DeviceState& state);
  void count_encoded(int fields, bool encode);
  void spill_for_host_codec(std::int64_t slot, const DeviceState& state);
  void restore_from_host_codec(std::int64_t slot, DeviceState& state);
  void upload_decoded();

  TierSplit split_;
  DeviceFieldPool& pool_;
  CudaStreams& s_;
  WriteFences& fences_;
  SpillClock& clock_;
  PrefetchHint* hint_;
  std::vector<DeviceState> device_;  // handles
  std::vector<HostSlot> host_slots_;
  DeviceState spilling_;  // the fields the last spill reads
  DeviceState staged_;    // a pinned slot's content, read ahead
  Event prefetched_, restored_;
  std::int64_t staged_slot_ = -1;  // host slot whose content is in staged_ (or on its way)
  index_t prefetch_hits_ = 0;
  std::uint64_t copy_bytes_ = 0;
  // With a codec: the encoded slots, the staging for spills and prefetches, and what was done.
  DeviceCodec* codec_ = nullptr;
  std::vector<DeviceBuffer> device_encoded_;
  std::vector<PinnedBuffer> host_encoded_;
  DeviceBuffer spill_staging_, fetch_staging_;
  Event spilled_;
  bool spill_pending_ = false;
  CompressionStats stats_;
  // With a host codec: the encoded pinned tier, the tickets of its last spill and of the decode
  // for staged_slot_, and whether that decode has been copied into staged_ yet.
  std::unique_ptr<HostEncodedSlots> host_;
  std::uint64_t spill_ticket_ = 0, fetch_ticket_ = 0;
  bool staged_uploaded_ = false;
};

}  // namespace revwave
