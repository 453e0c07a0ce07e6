// The reverse sweep of binomial checkpointing, written once for RevolveSchedule and for the
// reverse phase of OnlineSchedule: both walk the same cursor over a stack of checkpoints and
// differ only in where a new checkpoint's slot comes from and where a dropped one's goes.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule.hpp"

namespace revwave::detail {

// A view of a schedule's reversal state: its members stay the schedule's own (private), so the
// view holds references to them and lives for one call.
template <class Checkpoint>
struct RevolveReversal {
  std::vector<Checkpoint>& stack;  // live checkpoints, increasing positions; [0] = initial
  std::int64_t& position;          // current forward position; -1 after a reverse
  std::int64_t& capo;              // steps [0, capo) are still to be reversed
  bool& pending_store;             // an advance to a split point awaits its store
  bool& first;                     // the next reverse is the first one
  bool& done;
  bool& last_use;

  // The next action of the sweep (not yet done): `acquire()` gives a free slot for a store,
  // `release(slot)` takes back that of a checkpoint whose range is reversed, `free_slots()`
  // counts those free.
  template <class Acquire, class Release, class FreeSlots>
  Action next(Acquire acquire, Release release, FreeSlots free_slots) {
    if (pending_store) {
      pending_store = false;
      const std::int64_t slot = acquire();
      stack.push_back({position, slot});
      return Action{ActionKind::store, position, slot};
    }
    if (position < 0) {  // a reverse consumed the state: go back to the newest checkpoint
      const Checkpoint& top = stack.back();
      position = top.position;
      last_use = capo == top.position + 1;
      return Action{ActionKind::restore, top.position, top.slot};
    }
    if (position == capo - 1) {
      const Action action{first ? ActionKind::first_reverse : ActionKind::reverse, position, initial_slot};
      first = false;
      capo = position;
      position = -1;
      if (capo == 0) {
        done = true;
      } else if (stack.back().position == capo) {  // its range is reversed: the slot is free again
        release(stack.back().slot);
        stack.pop_back();
      }
      return action;
    }
    // At the newest checkpoint with >= 2 steps left: advance to the next split point, or with
    // no free slot to the last step of the range.
    const std::int64_t check = stack.back().position;
    const std::int64_t free = free_slots();
    std::int64_t target = capo - 1;
    if (free > 0) target = check + revolve_split(capo - check, free + 1);
    // A checkpoint at capo - 1 would be reversed at once and never restored.
    pending_store = target < capo - 1;
    position = target;
    return Action{ActionKind::advance, target, initial_slot};
  }
};

}  // namespace revwave::detail
