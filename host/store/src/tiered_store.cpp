#include "revwave/store/tiered_store.hpp"

#include <stdexcept>
#include <string>

namespace revwave {

TieredStore::TieredStore(std::vector<std::unique_ptr<CheckpointStore>> tiers) : tiers_(std::move(tiers)) {
  for (const auto& t : tiers_) {
    first_.push_back(total_);
    if (!t) continue;
    storage_bytes_ += static_cast<std::size_t>(t->slots()) * t->slot_bytes();
    total_ += t->slots();
  }
}

std::pair<CheckpointStore*, std::int64_t> TieredStore::locate(std::int64_t slot) const {
  for (std::size_t t = tiers_.size(); t-- > 0;) {
    if (tiers_[t] && slot >= first_[t]) {
      if (slot - first_[t] >= tiers_[t]->slots()) break;
      return {tiers_[t].get(), slot - first_[t]};
    }
  }
  throw std::out_of_range("checkpoint slot " + std::to_string(slot) + " is outside the tiered store");
}

CompressionStats TieredStore::compression() const {
  CompressionStats s;
  for (const auto& t : tiers_)
    if (t) s += t->compression();
  return s;
}

std::int64_t TieredStore::held_fields() const {
  std::int64_t n = 0;
  for (const auto& t : tiers_)
    if (t) n += t->held_fields();
  return n;
}

std::uint64_t TieredStore::copy_bytes() const {
  std::uint64_t n = 0;
  for (const auto& t : tiers_)
    if (t) n += t->copy_bytes();
  return n;
}

void TieredStore::store(std::int64_t slot, const HostState& state) {
  auto [tier, local] = locate(slot);
  tier->store(local, state);
}

void TieredStore::restore(std::int64_t slot, HostState& state, bool last_use) {
  auto [tier, local] = locate(slot);
  tier->restore(local, state, last_use);
}

}  // namespace revwave
