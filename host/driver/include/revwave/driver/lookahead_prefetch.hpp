// The driver's side of a store's prefetch hint: answered from the lookahead into the schedule
// the driver runs, so that stores (disk, pinned host memory) read slots ahead of their turn
// without knowing any schedule.
#pragma once
#include "revwave/schedule/lookahead_schedule.hpp"
#include "revwave/store/prefetch_hint.hpp"

namespace revwave {

class LookaheadPrefetch final : public PrefetchHint {
 public:
  // The lookahead must outlive this hint and every store it is given to.
  explicit LookaheadPrefetch(LookaheadSchedule& lookahead) : lookahead_(&lookahead) {}
  // Attached later: a backend may lay out the schedule (and so the lookahead) only as it makes
  // the store that asks. Until then there is nothing to read ahead.
  LookaheadPrefetch() = default;
  void attach(LookaheadSchedule& lookahead) { lookahead_ = &lookahead; }

  std::int64_t next_restore(std::int64_t first, std::int64_t count, std::size_t window) override {
    return lookahead_ != nullptr ? lookahead_->next_restore(first, count, window) : -1;
  }

 private:
  LookaheadSchedule* lookahead_ = nullptr;
};

}  // namespace revwave
