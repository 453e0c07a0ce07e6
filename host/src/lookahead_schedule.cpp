#include "revwave/lookahead_schedule.hpp"

namespace revwave {

bool LookaheadSchedule::pull() {
  if (ended_) return false;
  const Action a = inner_.next();
  queue_.push_back({a, a.kind == ActionKind::restore && inner_.restore_is_last_use()});
  if (a.kind == ActionKind::end) ended_ = true;
  return true;
}

Action LookaheadSchedule::next() {
  if (queue_.empty() && !pull()) {
    last_use_ = false;
    return Action{};  // end, forever
  }
  const Entry e = queue_.front();
  queue_.pop_front();
  last_use_ = e.last_use;
  return e.action;
}

const Action* LookaheadSchedule::peek(std::size_t i) {
  while (queue_.size() <= i) {
    if (!pull()) return nullptr;
  }
  return &queue_[i].action;
}

}  // namespace revwave
