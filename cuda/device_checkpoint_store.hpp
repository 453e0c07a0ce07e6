// Checkpoint slots for the CUDA backend on two tiers, allocated once: pinned host memory for
// slot ids [0, host_slots) and device memory for the rest. The two-level schedule numbers its
// outer checkpoints (each stored once and restored once, K steps apart) from 0; the online
// schedule's low ids are the earliest, most widely spaced of its checkpoints.
//
// Device slots: copies on the copy stream; the copy out of u[n] overlaps the next step
// (a write fence holds back only the step that overwrites it). A last-use restore swaps.
// Pinned slots: a spill is a device-to-device copy into a staging slot followed by a
// device-to-host copy on the transfer stream, which overlaps the following steps. Restores
// are prefetched: the store asks its prefetch hint (the driver's lookahead into the schedule)
// and starts the next pinned restore into a device staging slot as soon as that slot's content
// is final; the restore itself then only swaps.
#pragma once
#include <vector>

#include "cuda_streams.hpp"
#include "device_buffer.hpp"
#include "revwave/store/prefetch_hint.hpp"
#include "tier_split.hpp"
#include "write_fences.hpp"

namespace revwave {

class DeviceCheckpointStore {
 public:
  // hint may be null (no prefetch). Allocation failures throw CudaOutOfMemoryError /
  // OutOfMemoryError before any step runs.
  DeviceCheckpointStore(const TierSplit& split, std::size_t field_bytes, CudaStreams& streams, WriteFences& fences,
                        SpillClock& clock, PrefetchHint* hint);

  std::int64_t slots() const { return split_.device_slots + split_.host_slots; }
  std::size_t slot_bytes() const { return 2 * field_bytes_; }
  const TierSplit& split() const { return split_; }
  bool is_host(std::int64_t slot) const { return slot < split_.host_slots; }
  index_t prefetch_hits() const { return prefetch_hits_; }
  std::int64_t held_fields() const { return 0; }  // its slots are its own
  std::uint64_t copy_bytes() const { return copy_bytes_; }

  void store(std::int64_t slot, DeviceState& state);
  void restore(std::int64_t slot, DeviceState& state, bool last_use);

 private:
  struct DeviceSlot {
    DeviceState fields;
    Event written;
  };
  struct HostSlot {
    PinnedBuffer u, u_prev;
  };
  void check(std::int64_t slot) const;
  void copy_async(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream);
  void maybe_prefetch();

  TierSplit split_;
  std::size_t field_bytes_;
  CudaStreams& s_;
  WriteFences& fences_;
  SpillClock& clock_;
  PrefetchHint* hint_;
  std::vector<DeviceSlot> device_;
  std::vector<HostSlot> host_;
  DeviceState spill_staging_, prefetch_staging_;
  Event spill_free_, staged_, prefetched_, staging_free_, restored_;
  std::int64_t staged_slot_ = -1;  // host slot whose content is in prefetch_staging_ (or on its way)
  index_t prefetch_hits_ = 0;
  std::uint64_t copy_bytes_ = 0;
};

}  // namespace revwave
