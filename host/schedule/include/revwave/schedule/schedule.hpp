// The checkpoint action vocabulary and the schedule interface (pure logic, no wavefields).
//
// Steps are numbered 0..N-1; step n takes the forward state at position n,
// (u[n], u[n-1]), to position n+1. Position 0 is the zero initial state: it is
// recreated, never stored, and restored through `initial_slot`.
#pragma once
#include <cstdint>
#include <string>

namespace revwave {

enum class ActionKind { advance, store, restore, first_reverse, reverse, end };

struct Action {
  ActionKind kind = ActionKind::end;
  std::int64_t step = 0;   // advance: target position; store/restore: the position
                           // stored or restored; (first_)reverse: the step reversed
  std::int64_t slot = -1;  // store/restore: the slot (initial_slot for position 0)
};

inline constexpr std::int64_t initial_slot = -1;

std::string to_string(const Action& a);

// A stream of actions. next() returns `end` forever once the stream is done.
// Reversal order: first_reverse(N-1), reverse(N-2), ..., reverse(0); each
// (first_)reverse(n) is issued when the current forward position is n, and
// costs one forward step (the recomputation of u[n+1]) plus one adjoint step.
class Schedule {
 public:
  virtual ~Schedule() = default;
  virtual Action next() = 0;
  // Slot ids used by store/restore lie in [0, slots()).
  virtual std::int64_t slots() const = 0;
  // Tier of a slot for multi-level stores; single-level schedules use tier 0.
  virtual int tier_of(std::int64_t /*slot*/) const { return 0; }
  // Whether the restore just returned by next() is the last use of that slot's
  // content, so that the store may move it instead of copying.
  virtual bool restore_is_last_use() const { return false; }
};

}  // namespace revwave
