// Binomial (Revolve) checkpointing: the closed forms of Griewank & Walther and the
// lazily generated optimal schedule.
//
// Counting convention of the closed forms (Griewank & Walther 2000, ACM TOMS
// Algorithm 799): `s` checkpoints include the one holding the start of the range,
// so a schedule with S slots plus the recreated initial state has s = S + 1.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/schedule/schedule.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {

// Least r >= 0 with C(s + r, s) >= l: every step is advanced at most r times.
// Requires l >= 0 and s >= 1 (InputError otherwise).
std::int64_t revolve_repetitions(std::int64_t l, std::int64_t s);

// t(l, s) = r l - C(s + r, s + 1), r = revolve_repetitions(l, s): the minimal number
// of advances (forward steps not counting the one inside each reverse) needed to
// reverse l steps with s checkpoints. InputError when the count exceeds int64.
std::int64_t revolve_advances(std::int64_t l, std::int64_t s);

// An optimal position of the next checkpoint, as an offset m in [1, l - 1] from the
// start of a range of l >= 2 steps with s >= 2 checkpoints: advancing m steps,
// storing, reversing the tail with s - 1 and the head with s checkpoints attains
// t(l, s). O(1) for the usual sizes, O(log^2) at worst.
std::int64_t revolve_split(std::int64_t l, std::int64_t s);

// Forward steps of an optimal schedule of N steps with S slots: N + t(N, S + 1)
// (each reverse recomputes one step). Requires N >= 0, S >= 0.
std::int64_t optimal_forward_steps(std::int64_t N, std::int64_t S);

// What count_schedule(RevolveSchedule(N, S)) returns, from closed forms in O(r log S) binomial
// evaluations instead of O(N + t(N, S + 1)) actions: answers at once for any 64-bit N. InputError
// unless N >= 1 and S >= 1, or when the forward-step count exceeds 2^63 - 1.
ScheduleCounts revolve_counts(std::int64_t N, std::int64_t S);

// The binomial schedule, generated one action at a time in O(S) memory.
// Forward steps executed == optimal_forward_steps(steps, slots) for every input.
// Slots are used like a stack (slot k holds the (k+1)-th live checkpoint), so a
// slot is reused as soon as its checkpoint is no longer needed.
class RevolveSchedule final : public Schedule {
 public:
  // InputError unless steps >= 1 and slots >= 1.
  RevolveSchedule(std::int64_t steps, std::int64_t slots);

  Action next() override;

  // Slot ids lie in [0, slots()): min(requested slots, steps - 2), since positions
  // 0 (recreated) and N - 1 (reversed at once) are never stored.
  std::int64_t slots() const override { return slots_; }
  std::int64_t steps() const { return steps_; }

  // Whether the restore most recently returned by next() is the last restore of
  // that slot's current content: after it the slot is only overwritten or never read
  // again, so the driver may move (swap buffers) instead of copying. True exactly
  // when the restored position c is the only step left to reverse in its range,
  // i.e. the next action is reverse(c), after which the checkpoint at c is dropped.
  // Any restore of c with more steps left above it is followed by a later restore
  // of c, because reverse(c) itself needs position c after reverse(c + 1).
  bool restore_is_last_use() const override { return last_use_; }

 private:
  struct Checkpoint {
    std::int64_t position;
    std::int64_t slot;
  };

  std::int64_t steps_;
  std::int64_t slots_;
  std::vector<Checkpoint> stack_;  // live checkpoints, increasing positions; [0] = initial
  std::int64_t capo_;              // steps [0, capo_) are still to be reversed
  std::int64_t position_ = 0;      // current forward position; -1 after a reverse
  bool pending_store_ = false;     // an advance to a split point awaits its store
  bool first_ = true;              // the next reverse is the first one
  bool done_ = false;
  bool last_use_ = false;
};

}  // namespace revwave
