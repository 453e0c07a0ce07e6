// A checkpoint tier on a host medium the device cannot reach (ZFP-encoded host memory, files),
// behind pinned staging and a host worker (host_staging_worker.hpp).
//
// A spill copies the state's two fields raw into the spill staging over PCIe, reading them
// directly (held and fenced until the next spill, as a pinned spill does), and the worker puts the
// staging into the slot once the copy is done. A read ahead has the worker get the slot into the
// fetch staging and, at the first store, restore or look_ahead after it has, copies it into free
// fields of the pool, which the restore then hands over. A restore that was not read ahead waits
// for the worker, then for the copy.
#pragma once
#include <cstdint>
#include <memory>

#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/host_staging_worker.hpp"

namespace revwave {

class StagedHostTier final : public DeviceCheckpointStore {
 public:
  // The medium's field size must be the pool's (std::invalid_argument). Allocation failures are
  // OutOfMemoryErrors; the pool is sized by the caller (held_fields).
  StagedHostTier(std::unique_ptr<HostSlotMedium> medium, const DeviceStoreContext& context, TierLookahead ahead = {});
  // Waits for the device and the worker (the worker's destructor), then lets go of the fields.
  ~StagedHostTier() override = default;

  std::int64_t slots() const override { return medium_->slots(); }
  std::size_t slot_bytes() const override { return medium_->slot_bytes(); }
  // The state the last spill reads and the one read ahead.
  std::int64_t held_fields() const override { return 4; }
  std::uint64_t copy_bytes() const override { return copy_bytes_; }  // over PCIe, both ways
  // What the medium encoded and decoded (ZFP), and the worker's seconds.
  CompressionStats compression() const override { return worker_.stats(); }
  std::int64_t prefetch_hits() const override { return prefetch_hits_; }

  // Slot ids outside [0, slots) are std::out_of_range. A failure of the worker (a full disk, an
  // I/O error, naming the directory) is rethrown by the next store or restore that waits for it.
  void store(std::int64_t slot, const DeviceState& state) override;
  void restore(std::int64_t slot, DeviceState& state, bool last_use) override;
  void look_ahead() override;

 private:
  void check(std::int64_t slot) const;
  void copy_async(void* dst, const void* src, cudaMemcpyKind kind);
  void copy_fetched_into(DeviceState& fields);
  void upload_fetched();
  void maybe_prefetch();

  DeviceStoreContext c_;
  TierLookahead ahead_;
  std::unique_ptr<HostSlotMedium> medium_;  // before the worker, which calls into it until it is joined
  HostStagingWorker worker_;
  DeviceState spilling_;  // the fields the last spill reads
  DeviceState staged_;    // a slot's content, read ahead, once copied to the device
  Event prefetched_, restored_;
  std::int64_t staged_slot_ = -1;                      // the slot being read ahead (in the fetch staging or in staged_)
  bool staged_uploaded_ = false;                       // whether it has been copied into staged_ yet
  std::uint64_t spill_ticket_ = 0, fetch_ticket_ = 0;  // the worker's jobs for the last spill and the read ahead
  std::int64_t prefetch_hits_ = 0;
  std::uint64_t copy_bytes_ = 0;
};

}  // namespace revwave
