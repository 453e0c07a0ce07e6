// A schedule adapter that lets the checkpoint store look ahead: actions are pulled from the
// wrapped schedule into a queue (with their last-use flags) and handed to the driver unchanged.
// The driver answers stores' prefetch questions (pinned host memory, disk) from the queue.
#pragma once
#include <cstddef>
#include <deque>

#include "revwave/schedule/schedule.hpp"

namespace revwave {

class LookaheadSchedule final : public Schedule {
 public:
  explicit LookaheadSchedule(Schedule& inner) : inner_(inner) {}

  Action next() override;
  std::int64_t slots() const override { return inner_.slots(); }
  int tier_of(std::int64_t slot) const override { return inner_.tier_of(slot); }
  bool restore_is_last_use() const override { return last_use_; }

  // The i-th action after the one most recently returned by next(); pulls from the wrapped
  // schedule as needed. Returns nullptr past `end`.
  const Action* peek(std::size_t i);

  // The slot of the next restore among slots [first, first + count) within the next `window`
  // actions, or -1 when there is none or when that slot is stored again before its restore.
  std::int64_t next_restore(std::int64_t first, std::int64_t count, std::size_t window);

 private:
  struct Entry {
    Action action;
    bool last_use;
  };
  bool pull();

  Schedule& inner_;
  std::deque<Entry> queue_;
  bool ended_ = false;
  bool last_use_ = false;
};

}  // namespace revwave
