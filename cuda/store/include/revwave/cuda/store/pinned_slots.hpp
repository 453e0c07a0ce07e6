// Checkpoint slots in pinned host memory, raw: each slot two page-locked fields, copied over PCIe
// on the transfer stream. A spill reads the state's fields directly and holds and fences them
// until the next spill; a restore hands over fields read ahead (the prefetch hint's next restore
// of this tier, started once its slot is final), or copies into free fields of the pool and makes
// the compute stream wait for the copy.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/cuda/store/device_checkpoint_store.hpp"

namespace revwave {

class PinnedSlots final : public DeviceCheckpointStore {
 public:
  // slots >= 1. Pinned allocation failure is an OutOfMemoryError; the pool is sized by the caller
  // (held_fields).
  PinnedSlots(std::int64_t slots, const DeviceStoreContext& context, TierLookahead ahead = {});

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  std::size_t slot_bytes() const override { return 2 * c_.pool.field_bytes(); }
  // The state the last spill reads and the one read ahead.
  std::int64_t held_fields() const override { return 4; }
  std::uint64_t copy_bytes() const override { return copy_bytes_; }  // over PCIe, both ways
  std::int64_t prefetch_hits() const override { return prefetch_hits_; }

  // Slot ids outside [0, slots) are std::out_of_range.
  void store(std::int64_t slot, const DeviceState& state) override;
  void restore(std::int64_t slot, DeviceState& state, bool last_use) override;
  void look_ahead() override { maybe_prefetch(); }

 private:
  struct HostSlot {
    PinnedBuffer u, u_prev;
  };
  HostSlot& checked(std::int64_t slot);
  void copy_async(void* dst, const void* src, cudaMemcpyKind kind);
  void maybe_prefetch();

  DeviceStoreContext c_;
  TierLookahead ahead_;
  std::vector<HostSlot> slots_;
  DeviceState spilling_;  // the fields the last spill reads
  DeviceState staged_;    // a slot's content, read ahead
  Event prefetched_, restored_;
  std::int64_t staged_slot_ = -1;  // the slot whose content is in staged_ (or on its way)
  std::int64_t prefetch_hits_ = 0;
  std::uint64_t copy_bytes_ = 0;
};

}  // namespace revwave
