// Online checkpointing: greedy multi-horizon placement, Revolve reversal of the intervals.
#include "revwave/schedule/online.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "revolve_reversal.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/schedule/revolve.hpp"

namespace revwave {
namespace {

// t(l, s) for any l (0 for l <= 1) and s >= 1; t(l, s) = l - 1 once s >= l - 1.
std::int64_t advances(std::int64_t l, std::int64_t s) {
  if (l <= 1) return 0;
  return revolve_advances(l, std::min(s, l));
}

}  // namespace

OnlineSchedule::OnlineSchedule(std::int64_t slots) : slots_(slots) {
  if (slots < 1) throw InputError("online slots S = " + std::to_string(slots) + " must be >= 1");
  stack_.reserve(static_cast<std::size_t>(slots) + 1);
  stack_.push_back({0, initial_slot});
  for (std::int64_t s = slots - 1; s >= 0; --s) free_.push_back(s);
}

std::int64_t OnlineSchedule::reversal_advances(std::int64_t steps) const {
  const std::int64_t s1 = slots_ + 1;
  std::int64_t total = 0;
  const std::size_t k = stack_.size() - 1;
  for (std::size_t i = 0; i < k; ++i)
    total += advances(stack_[i + 1].position - stack_[i].position, s1 - static_cast<std::int64_t>(i));
  return total + advances(steps - 1 - stack_[k].position, s1 - static_cast<std::int64_t>(k));
}

std::int64_t OnlineSchedule::predicted_forward_steps(std::int64_t steps) const {
  if (finished_ || steps < position_ + 1)
    throw std::logic_error("predicted_forward_steps(" + std::to_string(steps) +
                           ") needs an unfinished run at position <= steps - 1");
  // N - 1 forward advances, N reverses, t(l_i, s_i) recomputation per interval.
  return 2 * steps - 1 + reversal_advances(steps);
}

// The decision at position n = position_ >= 1: store n into a free slot, or replace
// the checkpoint whose removal costs least, or keep all (see the header).
void OnlineSchedule::place() {
  const std::int64_t n = position_;
  const std::int64_t k = static_cast<std::int64_t>(stack_.size()) - 1;
  if (k < slots_) {
    stack_.push_back({n, free_.back()});
    free_.pop_back();
    return;
  }
  const std::int64_t s1 = slots_ + 1;
  const auto p = [&](std::int64_t i) { return stack_[static_cast<std::size_t>(i)].position; };
  if (!sums_valid_) {
    // pre[j] = sum_{m<j} t(l_m, S+1-m); suf[j] = sum_{m=j}^{k-1} t(l_m, S+2-m) (one
    // index down); base[j] = the cost without checkpoint j except the tail [p_k, n).
    // They depend on the checkpoints only: recomputed after a replacement.
    pre_.assign(static_cast<std::size_t>(k) + 1, 0);
    std::vector<std::int64_t> suf(static_cast<std::size_t>(k) + 1, 0);
    for (std::int64_t m = 0; m < k; ++m) pre_[m + 1] = pre_[m] + advances(p(m + 1) - p(m), s1 - m);
    for (std::int64_t m = k - 1; m >= 0; --m) suf[m] = suf[m + 1] + advances(p(m + 1) - p(m), s1 + 1 - m);
    best_inner_ = -1;
    for (std::int64_t j = k - 1; j >= 1; --j) {
      const std::int64_t e = pre_[j - 1] + advances(p(j + 1) - p(j - 1), s1 + 1 - j) + suf[j + 1];
      if (best_inner_ < 0 || e <= best_inner_cost_) {
        best_inner_cost_ = e;
        best_inner_ = j;
      }  // ties: oldest
    }
    sums_valid_ = true;
  }
  std::int64_t best_j = k;
  std::int64_t best = pre_[k - 1] + advances(n - p(k - 1), s1 + 1 - k);
  if (best_inner_ >= 1) {
    const std::int64_t e = best_inner_cost_ + advances(n - p(k), s1 + 1 - k);
    if (e <= best) {
      best = e;
      best_j = best_inner_;
    }
  }
  const std::vector<std::int64_t>& pre = pre_;
  const std::int64_t horizons[] = {n + 2, n + 3, n + 5, n + 9, n + 17, 2 * n};
  for (const std::int64_t h : horizons) {
    if (h < n + 2) continue;
    const std::int64_t replace = best + advances(h - 1 - n, s1 - k);
    const std::int64_t keep = pre[k] + advances(h - 1 - p(k), s1 - k);
    if (keep < replace) return;
    if (replace < keep) {
      const std::int64_t slot = stack_[static_cast<std::size_t>(best_j)].slot;
      stack_.erase(stack_.begin() + best_j);
      stack_.push_back({n, slot});
      sums_valid_ = false;
      return;
    }
  }
}

Action OnlineSchedule::next() {
  if (done_) return Action{ActionKind::end, 0, initial_slot};
  if (!finished_) {
    if (decided_ <= position_) {
      decided_ = position_ + 1;
      if (position_ >= 1) {
        const std::size_t before = stack_.size();
        const Checkpoint top_before = stack_.back();
        place();
        const Checkpoint& top = stack_.back();
        if (stack_.size() != before || top.position != top_before.position) {
          last_was_advance_ = false;
          return Action{ActionKind::store, top.position, top.slot};
        }
      }
    }
    ++position_;
    last_was_advance_ = true;
    return Action{ActionKind::advance, position_, initial_slot};
  }
  // Reverse phase: Revolve on the newest unreversed interval with the free slots.
  const auto acquire = [this] {
    const std::int64_t slot = free_.back();
    free_.pop_back();
    return slot;
  };
  const auto release = [this](std::int64_t slot) { free_.push_back(slot); };
  detail::RevolveReversal<Checkpoint> sweep{stack_, position_, capo_, pending_store_, first_, done_, last_use_};
  return sweep.next(acquire, release, [this] { return static_cast<std::int64_t>(free_.size()); });
}

void OnlineSchedule::finish(std::int64_t steps) {
  if (finished_) throw std::logic_error("online schedule: finish called twice");
  if (last_was_advance_ && steps == position_) {
    --position_;  // the advance just returned is cancelled
  } else if (steps != position_ + 1) {
    throw std::logic_error("online schedule: finish(" + std::to_string(steps) + ") at position " +
                           std::to_string(position_) + "; expected the current position + 1");
  }
  finished_ = true;
  steps_ = steps;
  capo_ = steps;
}

namespace {

// Calls finish(N) as soon as the position N - 1 is reached (late: when the
// advance to N has been returned, cancelling it).
class OnlineDriver final : public Schedule {
 public:
  OnlineDriver(std::int64_t N, std::int64_t S, bool late) : online_(S), steps_(N), late_(late) {}
  Action next() override {
    if (!late_ && !online_.finished() && online_.position() == steps_ - 1) online_.finish(steps_);
    Action a = online_.next();
    if (late_ && !online_.finished() && a.kind == ActionKind::advance && a.step == steps_) {
      online_.finish(steps_);
      a = online_.next();
    }
    return a;
  }
  std::int64_t slots() const override { return online_.slots(); }
  bool restore_is_last_use() const override { return online_.restore_is_last_use(); }

 private:
  OnlineSchedule online_;
  std::int64_t steps_;
  bool late_;
};

void require_run(std::int64_t N, std::int64_t S) {
  if (N < 1) throw InputError("online steps N = " + std::to_string(N) + " must be >= 1");
  if (S < 1) throw InputError("online slots S = " + std::to_string(S) + " must be >= 1");
}

}  // namespace

ScheduleCounts count_online(std::int64_t N, std::int64_t S) {
  require_run(N, S);
  OnlineDriver driver(N, S, false);
  return count_schedule(driver);
}

void validate_online(std::int64_t N, std::int64_t S, bool late_finish) {
  require_run(N, S);
  OnlineDriver driver(N, S, late_finish);
  validate_schedule(driver, N, S);
}

std::vector<std::int64_t> online_forward_steps_sweep(std::int64_t n_max, std::int64_t S) {
  require_run(n_max, S);
  std::vector<std::int64_t> result;
  result.reserve(static_cast<std::size_t>(n_max));
  OnlineSchedule online(S);
  for (std::int64_t N = 1; N <= n_max; ++N) {
    result.push_back(online.predicted_forward_steps(N));  // at position N - 1
    Action a = online.next();
    while (a.kind != ActionKind::advance) a = online.next();
  }
  return result;
}

}  // namespace revwave
