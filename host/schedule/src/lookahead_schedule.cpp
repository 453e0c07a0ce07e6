#include "revwave/schedule/lookahead_schedule.hpp"

#include <algorithm>
#include <vector>

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

std::int64_t LookaheadSchedule::next_restore(std::int64_t first, std::int64_t count, std::size_t window) {
  std::vector<bool> stored_first(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)), false);
  for (std::size_t i = 0; i < window; ++i) {
    const Action* a = peek(i);
    if (a == nullptr || a->kind == ActionKind::end) return -1;
    if (a->kind != ActionKind::store && a->kind != ActionKind::restore) continue;
    const std::int64_t local = a->slot - first;
    if (a->slot == initial_slot || local < 0 || local >= count) continue;  // another tier's
    if (a->kind == ActionKind::store) {
      stored_first[static_cast<std::size_t>(local)] = true;
    } else {
      return stored_first[static_cast<std::size_t>(local)] ? -1 : a->slot;
    }
  }
  return -1;
}

}  // namespace revwave
