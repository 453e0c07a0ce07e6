// Online checkpointing: a schedule for a run whose step count is unknown until it stops.
//
// Driver protocol (positions as in schedule.hpp; the driver starts at position 0):
//   - Forward phase: next() returns advance(n + 1) actions of exactly one step,
//     each possibly preceded by store(slot)@n actions for the current position n.
//   - When the driver knows that step n is the last one (N = n + 1), it calls
//     finish(n + 1) while at position n: best right after executing advance(n) (or
//     at the start for n = 0), before pulling the next action; it may also call it
//     after next() has already returned store(slot)@n (done, just wasted) or the
//     advance(n + 1) (that advance is cancelled and must not be executed).
//   - From then on next() continues like an offline schedule: first_reverse(N - 1)
//     at once (the current position, no recomputation), then restores, advances,
//     stores and reverses down to reverse(0), then `end` forever.
//   - finish() is the only way out of the forward phase: the stream never ends on
//     its own, and a driver without a stop criterion must impose a hard maximum.
//
// Placement (forward phase): the first S steps 1..S are stored; afterwards, at each
// position n the schedule either keeps its checkpoints or replaces one by n, the
// choice that minimises the predicted reversal cost if the run were to stop at a
// few horizons h = n + 2, n + 3, n + 5, n + 9, n + 17, 2n, compared
// lexicographically (the nearest horizon decides, farther ones break ties). The
// reversal cost of checkpoints 0 = p_0 < ... < p_k for N steps is
//   2N - 1 + sum_i t(l_i, S + 1 - i),   l_i = p_{i+1} - p_i,  l_k = N - 1 - p_k,
// because the intervals are reversed last first, each with the slots that the
// later ones freed (an Arevolve-like greedy in the spirit of Stumm & Walther,
// "New algorithms for optimal online checkpointing", SIAM J. Sci. Comput. 32(2),
// 2010, with a multi-horizon tie-break). A decision costs O(1) closed-form
// evaluations of t, plus O(S) after each replacement: O(N + stores * S) in all.
// Reversal: Revolve (binomial splits, revolve_split) on each interval with the
// free slots, newest interval first; a slot is reused once its interval is done.
//
// Measured (profiling/online_ratios.sh, dense N = 1..10^5): forward steps equal the
// offline optimum optimal_forward_steps(N, S) whenever its repetition number r <= 2,
// and stay within a few percent of it beyond (see that script's output).
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/schedule/schedule.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {

class OnlineSchedule final : public Schedule {
 public:
  // InputError unless slots >= 1.
  explicit OnlineSchedule(std::int64_t slots);

  Action next() override;
  std::int64_t slots() const override { return slots_; }
  // True when the restore just returned is the slot content's last use (see
  // RevolveSchedule::restore_is_last_use: the restored position is the only step
  // left in its interval).
  bool restore_is_last_use() const override { return last_use_; }

  // The run ends after step steps - 1 (see the protocol above). logic_error unless
  // steps - 1 is the driver's current position and finish was not called before.
  void finish(std::int64_t steps);
  bool finished() const { return finished_; }
  // N once finished, else the steps started so far (the current position).
  std::int64_t steps() const { return finished_ ? steps_ : position_; }
  std::int64_t position() const { return position_; }

  // Predicted forward steps if the run stopped with N = steps, from the current
  // checkpoints (steps >= the current position + 1); what finish(steps) would cost.
  std::int64_t predicted_forward_steps(std::int64_t steps) const;

 private:
  struct Checkpoint {
    std::int64_t position;
    std::int64_t slot;
  };

  void place();  // the forward-phase decision at position_
  std::int64_t reversal_advances(std::int64_t steps) const;

  std::int64_t slots_;
  std::int64_t steps_ = 0;
  std::vector<Checkpoint> stack_;   // live checkpoints, increasing positions; [0] = initial
  std::vector<std::int64_t> free_;  // free slot ids
  std::int64_t position_ = 0;       // driver's position after all returned actions; -1 after a reverse
  std::int64_t decided_ = 0;        // the forward decision for positions < decided_ is made
  bool pending_store_ = false;      // reverse phase: an advance to a split awaits its store
  bool last_was_advance_ = false;
  bool finished_ = false;
  bool first_ = true;
  bool done_ = false;
  bool last_use_ = false;
  std::int64_t capo_ = 0;  // reverse phase: steps [0, capo_) are still to be reversed
  // place()'s sums over the checkpoint intervals, valid until the checkpoints change.
  bool sums_valid_ = false;
  std::vector<std::int64_t> pre_;
  std::int64_t best_inner_ = -1;  // cheapest checkpoint to drop among 1..k-1
  std::int64_t best_inner_cost_ = 0;
};

// Drives the protocol for a run that turns out to have N steps (finish called as soon
// as position N - 1 is reached) and counts the stream. Requires N >= 1, S >= 1.
ScheduleCounts count_online(std::int64_t N, std::int64_t S);

// validate_schedule's checks on the protocol-driven stream; std::logic_error if broken.
// late_finish: call finish only when the advance to N has been returned (cancelling it).
void validate_online(std::int64_t N, std::int64_t S, bool late_finish = false);

// Forward steps of the online schedule for every N = 1..n_max in one forward pass:
// result[N - 1]. O(n_max S) time.
std::vector<std::int64_t> online_forward_steps_sweep(std::int64_t n_max, std::int64_t S);

}  // namespace revwave
