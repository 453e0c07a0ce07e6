// Action text, stream counting and the validating mock.
#include "revwave/schedule/schedule_counts.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace revwave {

std::string to_string(const Action& a) {
  const std::string step = std::to_string(a.step);
  const std::string slot = a.slot == initial_slot ? "initial" : std::to_string(a.slot);
  switch (a.kind) {
    case ActionKind::advance: return "advance " + step;
    case ActionKind::store: return "store " + slot + " @ " + step;
    case ActionKind::restore: return "restore " + slot + " @ " + step;
    case ActionKind::first_reverse: return "first_reverse " + step;
    case ActionKind::reverse: return "reverse " + step;
    case ActionKind::end: return "end";
  }
  return "unknown action";
}

ScheduleCounts count_schedule(Schedule& schedule) {
  ScheduleCounts c;
  std::int64_t position = 0;
  std::vector<char> used;  // by slot id, grown on demand
  for (Action a = schedule.next(); a.kind != ActionKind::end; a = schedule.next()) {
    switch (a.kind) {
      case ActionKind::advance:
        c.advances += a.step - position;
        position = a.step;
        break;
      case ActionKind::store:
        ++c.stores;
        if (a.slot < 0 || a.slot >= schedule.slots())
          throw std::logic_error(to_string(a) + ": slot outside [0, " + std::to_string(schedule.slots()) + ")");
        if (a.slot >= static_cast<std::int64_t>(used.size())) used.resize(a.slot + 1, 0);
        c.peak_slots += used[a.slot] == 0;
        used[a.slot] = 1;
        break;
      case ActionKind::restore:
        ++c.restores;
        position = a.step;
        break;
      case ActionKind::first_reverse:
      case ActionKind::reverse: ++c.reverses; break;
      case ActionKind::end: break;
    }
  }
  c.steps = c.reverses;
  c.forward_steps = c.advances + c.reverses;
  c.recompute_ratio = c.steps > 0 ? static_cast<double>(c.forward_steps) / c.steps : 0.0;
  return c;
}

namespace {

class Validator {
 public:
  Validator(std::int64_t steps, std::int64_t slots, const LastUseQuery& last_use)
      : steps_(steps), slots_(slots), last_use_(last_use), next_reverse_(steps - 1) {}

  void run(Schedule& schedule) {
    schedule_ = &schedule;
    if (steps_ < 1) fail("steps " + std::to_string(steps_) + " must be >= 1");
    if (schedule.slots() > slots_)
      fail("schedule declares " + std::to_string(schedule.slots()) + " slots, budget is " + std::to_string(slots_));
    // A sane stream needs at most a restore, N advances and N stores between reverses.
    const std::int64_t max_gap = 4 * (steps_ + 2);
    std::int64_t gap = 0;
    for (;;) {
      action_ = schedule.next();
      if (action_.kind == ActionKind::end) break;
      if (++gap > max_gap) fail("over " + std::to_string(max_gap) + " actions without a reverse");
      if (action_.kind == ActionKind::first_reverse || action_.kind == ActionKind::reverse) gap = 0;
      apply();
      ++index_;
    }
    if (next_reverse_ >= 0) fail("end before step " + std::to_string(next_reverse_) + " was reversed");
    for (int i = 0; i < 3; ++i)
      if (schedule.next().kind != ActionKind::end) fail("an action after end");
  }

 private:
  struct Content {
    std::int64_t position = -1;
    bool consumed = false;  // its restore was announced as the last use
  };

  [[noreturn]] void fail(const std::string& why) const {
    throw std::logic_error("invalid schedule at action " + std::to_string(index_) + " (" + to_string(action_) +
                           "): " + why);
  }

  void require_state() const {
    if (position_ < 0) fail("no valid forward state (a reverse consumed it; restore first)");
  }

  void apply() {
    const std::int64_t step = action_.step;
    switch (action_.kind) {
      case ActionKind::advance:
        require_state();
        if (step <= position_) fail("advance must move forward from position " + std::to_string(position_));
        if (step > next_reverse_) fail("advance past step " + std::to_string(next_reverse_) + ", the next to reverse");
        position_ = step;
        break;
      case ActionKind::store: {
        require_state();
        check_slot_id();
        if (step == 0) fail("position 0 is recreated, never stored");
        if (step != position_) fail("current position is " + std::to_string(position_));
        slot_[action_.slot] = Content{step, false};
        break;
      }
      case ActionKind::restore: {
        Content* content = &initial_;
        if (action_.slot == initial_slot) {
          if (step != 0) fail("the initial slot holds position 0");
        } else {
          check_slot_id();
          auto it = slot_.find(action_.slot);
          if (it == slot_.end()) fail("slot " + std::to_string(action_.slot) + " is empty");
          content = &it->second;
          if (content->position != step) fail("slot holds position " + std::to_string(content->position));
        }
        if (content->consumed) fail("restore after the slot's announced last use");
        if (last_use_ ? last_use_() : schedule_->restore_is_last_use()) content->consumed = true;
        position_ = step;
        break;
      }
      case ActionKind::first_reverse:
      case ActionKind::reverse: {
        if (next_reverse_ < 0) fail("every step is reversed already");
        const bool first = action_.kind == ActionKind::first_reverse;
        if (first != (next_reverse_ == steps_ - 1))
          fail(first ? "first_reverse after the first reverse" : "the first reverse must be first_reverse");
        if (step != next_reverse_) fail("step " + std::to_string(next_reverse_) + " is next to reverse");
        if (position_ != step) fail("current position is " + std::to_string(position_));
        --next_reverse_;
        position_ = -1;
        break;
      }
      case ActionKind::end: break;
    }
  }

  void check_slot_id() const {
    if (action_.slot < 0 || action_.slot >= slots_) fail("slot id out of [0, " + std::to_string(slots_) + ")");
  }

  std::int64_t steps_;
  std::int64_t slots_;
  const LastUseQuery& last_use_;  // empty: ask schedule_->restore_is_last_use()
  Schedule* schedule_ = nullptr;
  std::int64_t next_reverse_;  // every step above it was reversed once, in order
  std::int64_t position_ = 0;  // -1: no valid state
  std::int64_t index_ = 0;
  Action action_;
  Content initial_{0, false};
  std::unordered_map<std::int64_t, Content> slot_;
};

}  // namespace

void validate_schedule(Schedule& schedule, std::int64_t steps, std::int64_t slots, const LastUseQuery& last_use) {
  Validator(steps, slots, last_use).run(schedule);
}

}  // namespace revwave
