#include "revwave/schedule/two_level.hpp"

#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

void check_shape(const TwoLevelShape& s) {
  if (s.steps < 1 || s.segment < 1 || s.inner_slots < 1) {
    throw InputError("two-level schedule: steps " + std::to_string(s.steps) + ", segment " + std::to_string(s.segment) +
                     " and inner slots " + std::to_string(s.inner_slots) + " must all be >= 1");
  }
}

}  // namespace

std::int64_t two_level_forward_steps(const TwoLevelShape& shape) {
  check_shape(shape);
  const std::int64_t n = shape.segments(), k = shape.segment;
  const std::int64_t last = shape.steps - (n - 1) * k;
  return (n - 1) * k + (n - 1) * optimal_forward_steps(k, shape.inner_slots) +
         optimal_forward_steps(last, shape.inner_slots);
}

TwoLevelShape choose_two_level(std::int64_t steps, std::int64_t inner_slots, std::int64_t max_outer,
                               std::int64_t min_segment) {
  if (steps < 1 || inner_slots < 1 || min_segment < 1 || max_outer < 0) {
    throw InputError("two-level schedule: steps " + std::to_string(steps) + ", inner slots " +
                     std::to_string(inner_slots) + " and minimum segment " + std::to_string(min_segment) +
                     " must be >= 1 and outer slots " + std::to_string(max_outer) + " >= 0");
  }
  TwoLevelShape best{steps, steps, inner_slots};  // one segment: Revolve on the inner slots alone
  std::int64_t best_steps = two_level_forward_steps(best);
  for (std::int64_t k = std::min(min_segment, steps); k < steps; ++k) {
    const TwoLevelShape s{steps, k, inner_slots};
    if (s.outer_slots() > max_outer) continue;
    const std::int64_t f = two_level_forward_steps(s);
    if (f < best_steps || (f == best_steps && k > best.segment)) best = s, best_steps = f;
  }
  return best;
}

TwoLevelSchedule::TwoLevelSchedule(const TwoLevelShape& shape)
    : shape_(shape),
      outer_((check_shape(shape), shape.outer_slots())),
      inner_base_(shape.segments() > 1 ? outer_ + 1 : 0),
      inner_slots_(RevolveSchedule(std::min(shape.segment, shape.steps), shape.inner_slots).slots()) {
  if (shape_.segments() == 1) {  // nothing to sweep: segment 0 starts where the run starts
    phase_ = Phase::segment_start;
    segment_ = 0;
  }
}

Action TwoLevelSchedule::next() {
  last_use_ = false;
  const std::int64_t n = shape_.segments(), k = shape_.segment;
  if (phase_ == Phase::sweep) {
    if (pending_store_) {  // outer slot j - 1 holds segment j's start
      pending_store_ = false;
      return {ActionKind::store, sweep_next_ * k - k, sweep_next_ - 2};
    }
    if (sweep_next_ <= n - 1) {
      const std::int64_t target = sweep_next_ * k;
      pending_store_ = sweep_next_ <= n - 2;  // the last segment is reversed at once: no outer copy
      ++sweep_next_;
      return {ActionKind::advance, target, -1};
    }
    phase_ = Phase::segment_start;
    segment_ = n - 1;
  }
  if (phase_ == Phase::segment_start) return begin_segment();
  if (phase_ == Phase::inner) return inner_action();
  return {ActionKind::end, 0, -1};
}

Action TwoLevelSchedule::begin_segment() {
  const std::int64_t start = segment_ * shape_.segment;
  if (!arrived_) {
    arrived_ = true;
    if (segment_ == 0) return {ActionKind::restore, 0, initial_slot};
    last_use_ = true;  // each outer checkpoint is restored exactly once
    return {ActionKind::restore, start, segment_ - 1};
  }
  if (segment_ > 0 && !stored_base_) {
    stored_base_ = true;
    return {ActionKind::store, start, outer_};
  }
  stored_base_ = false;
  inner_ = std::make_unique<RevolveSchedule>(std::min(shape_.segment, shape_.steps - start), shape_.inner_slots);
  phase_ = Phase::inner;
  return inner_action();
}

// The segment's Revolve actions, shifted to its start and onto the global slot ids.
Action TwoLevelSchedule::inner_action() {
  const std::int64_t start = segment_ * shape_.segment;
  Action a = inner_->next();
  switch (a.kind) {
    case ActionKind::end:
      if (segment_ == 0) {
        phase_ = Phase::done;
        return a;
      }
      --segment_;
      arrived_ = false;
      phase_ = Phase::segment_start;
      return begin_segment();
    case ActionKind::advance:
    case ActionKind::reverse: a.step += start; return a;
    case ActionKind::first_reverse:
      a.step += start;
      if (first_reverse_done_) a.kind = ActionKind::reverse;
      first_reverse_done_ = true;
      return a;
    case ActionKind::store:
      a.step += start;
      a.slot += inner_base_;
      return a;
    case ActionKind::restore:
      last_use_ = inner_->restore_is_last_use();
      a.step += start;
      if (a.slot == initial_slot)
        a.slot = segment_ == 0 ? initial_slot : outer_;
      else
        a.slot += inner_base_;
      return a;
  }
  return a;
}

}  // namespace revwave
