// Counting and validating any Schedule with a mock that only tracks positions.
#pragma once
#include <cstdint>
#include <functional>

#include "revwave/schedule/schedule.hpp"

namespace revwave {

struct ScheduleCounts {
  std::int64_t steps = 0;          // steps reversed
  std::int64_t forward_steps = 0;  // advances + reverses: what the forward operator costs
  std::int64_t advances = 0;       // sum of advance distances
  std::int64_t stores = 0;
  std::int64_t restores = 0;     // including restores of the initial state
  std::int64_t reverses = 0;     // first_reverse + reverse
  std::int64_t peak_slots = 0;   // distinct slot ids stored into (stack-allocated
                                 // schedules: the peak number of live checkpoints)
  double recompute_ratio = 0.0;  // forward_steps / steps
};

// Pulls `schedule` to its `end` and counts. Trusts the stream (see validate_schedule)
// except for store slot ids outside [0, slots()), a std::logic_error.
ScheduleCounts count_schedule(Schedule& schedule);

// Asked right after next() returned a restore: is it that slot's last use?
using LastUseQuery = std::function<bool()>;

// Simulates `schedule` for `steps` steps and at most `slots` slots, and throws
// std::logic_error naming the action index and the broken rule on: a slot id out of
// [0, slots) (or schedule.slots() > slots); a store of position 0, of a position other
// than the current one, or with no valid state; a restore of an empty slot or of the
// wrong position; an advance backwards, from no valid state or past the next step to
// reverse; a reverse out of order or at the wrong position; a step not reversed
// exactly once; `end` not repeated after the end; a restore announced as last use
// (by `last_use` if given, else by schedule.restore_is_last_use()) followed by another
// restore of the same slot content.
void validate_schedule(Schedule& schedule, std::int64_t steps, std::int64_t slots, const LastUseQuery& last_use = {});

}  // namespace revwave
