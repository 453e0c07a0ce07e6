// A checkpoint store made of tiers (memory, pinned host memory, disk, ...): global slot ids are
// contiguous per tier, in the order given (fastest first, as multi-level schedules number them).
// Each tier is itself a store of the same state, so the composition is the same on every backend.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

template <class State>
class BasicTieredStore final : public BasicCheckpointStore<State> {
 public:
  using Tier = BasicCheckpointStore<State>;
  // Tiers in slot-id order; a tier may be null when it has no slots.
  explicit BasicTieredStore(std::vector<std::unique_ptr<Tier>> tiers) : tiers_(std::move(tiers)) {
    for (const auto& t : tiers_) {
      first_.push_back(total_);
      if (!t) continue;
      storage_bytes_ += static_cast<std::size_t>(t->slots()) * t->slot_bytes();
      total_ += t->slots();
    }
  }
  std::int64_t slots() const override { return total_; }
  // The mean slot size (a compressed memory tier's slots are smaller than a disk tier's), so that
  // slots() x slot_bytes() is what the tiers reserve, up to rounding.
  std::size_t slot_bytes() const override { return total_ > 0 ? storage_bytes_ / static_cast<std::size_t>(total_) : 0; }
  std::int64_t held_fields() const override {
    return sum([](const Tier& t) { return t.held_fields(); }, std::int64_t(0));
  }
  std::uint64_t copy_bytes() const override {
    return sum([](const Tier& t) { return t.copy_bytes(); }, std::uint64_t(0));
  }
  CompressionStats compression() const override {
    return sum([](const Tier& t) { return t.compression(); }, CompressionStats{});
  }
  std::int64_t prefetch_hits() const override {
    return sum([](const Tier& t) { return t.prefetch_hits(); }, std::int64_t(0));
  }
  void store(std::int64_t slot, const State& state) override {
    auto [tier, local] = locate(slot);
    tier->store(local, state);
    others_look_ahead(tier);
  }
  void restore(std::int64_t slot, State& state, bool last_use) override {
    auto [tier, local] = locate(slot);
    tier->restore(local, state, last_use);
    others_look_ahead(tier);
  }
  void look_ahead() override { others_look_ahead(nullptr); }
  std::size_t tier_count() const { return tiers_.size(); }
  // Null for a tier without slots.
  Tier* tier(std::size_t t) const { return tiers_.at(t).get(); }
  // The global id of tier t's slot 0.
  std::int64_t first_slot(std::size_t t) const { return first_.at(t); }

 private:
  template <class F, class V>
  V sum(F&& of, V total) const {
    for (const auto& t : tiers_)
      if (t) total += of(*t);
    return total;
  }
  std::pair<Tier*, std::int64_t> locate(std::int64_t slot) const {
    for (std::size_t t = tiers_.size(); t-- > 0;) {
      if (tiers_[t] && slot >= first_[t]) {
        if (slot - first_[t] >= tiers_[t]->slots()) break;
        return {tiers_[t].get(), slot - first_[t]};
      }
    }
    throw std::out_of_range("checkpoint slot " + std::to_string(slot) + " is outside the tiered store");
  }
  // The tier just used has looked ahead itself, at the end of its own call.
  void others_look_ahead(const Tier* used) {
    for (const auto& t : tiers_)
      if (t && t.get() != used) t->look_ahead();
  }

  std::vector<std::unique_ptr<Tier>> tiers_;
  std::vector<std::int64_t> first_;  // first global id of each tier
  std::int64_t total_ = 0;
  std::size_t storage_bytes_ = 0;
};

using TieredStore = BasicTieredStore<HostState>;
extern template class BasicTieredStore<HostState>;

}  // namespace revwave
