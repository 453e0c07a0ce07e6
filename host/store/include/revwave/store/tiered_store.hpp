// A checkpoint store made of tiers (memory, disk, ...): global slot ids are contiguous per
// tier, fastest first, as multi-level schedules number them. Each tier is itself a store.
#pragma once
#include <memory>
#include <vector>

#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

class TieredStore final : public CheckpointStore {
 public:
  // Tiers in slot-id order; a tier may be null when it has no slots.
  explicit TieredStore(std::vector<std::unique_ptr<CheckpointStore>> tiers);
  std::int64_t slots() const override { return total_; }
  // The mean slot size (a compressed memory tier's slots are smaller than a disk tier's), so that
  // slots() x slot_bytes() is what the tiers reserve, up to rounding.
  std::size_t slot_bytes() const override { return total_ > 0 ? storage_bytes_ / static_cast<std::size_t>(total_) : 0; }
  std::int64_t held_fields() const override;
  std::uint64_t copy_bytes() const override;
  CompressionStats compression() const override;
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;
  CheckpointStore& tier(std::size_t t) { return *tiers_.at(t); }

 private:
  std::pair<CheckpointStore*, std::int64_t> locate(std::int64_t slot) const;
  std::vector<std::unique_ptr<CheckpointStore>> tiers_;
  std::vector<std::int64_t> first_;  // first global id of each tier
  std::int64_t total_ = 0;
  std::size_t storage_bytes_ = 0;
};

}  // namespace revwave
