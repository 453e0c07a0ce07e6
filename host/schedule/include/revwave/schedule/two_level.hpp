// Two-level checkpointing for a slow outer tier (pinned host memory behind PCIe, say): the
// first forward sweep leaves an outer checkpoint every K steps; then the segments are reversed
// last to first, each one with a Revolve schedule on the fast inner slots. Every outer
// checkpoint is stored once and restored once, at least K forward steps after the previous
// outer action, so a copy to or from the outer tier has K steps of computation to hide behind
// (and its restore is known a whole segment ahead, for prefetching).
//
// Slot ids: [0, H) the outer checkpoints (segment j >= 1 in slot j - 1; the last segment is
// reversed straight after the sweep and needs none), H the segment base (the segment's start,
// on the inner tier, which the segment's Revolve restores instead of the initial state), and
// [H + 1, H + 1 + s) the Revolve slots. Segment 0 starts at the recreated initial state.
#pragma once
#include <cstdint>
#include <memory>

#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule.hpp"

namespace revwave {

struct TwoLevelShape {
  std::int64_t steps = 0;        // N
  std::int64_t segment = 0;      // K: steps per segment (the last may be shorter)
  std::int64_t inner_slots = 0;  // s: Revolve slots inside a segment
  std::int64_t segments() const { return (steps + segment - 1) / segment; }
  std::int64_t outer_slots() const { return segments() > 2 ? segments() - 2 : 0; }
};

// Forward steps (advances plus the recomputation inside each reverse) of the schedule:
// the sweep to the last segment's start, then an optimal Revolve over each segment.
std::int64_t two_level_forward_steps(const TwoLevelShape& shape);

// The segment length K >= min_segment with at most max_outer outer checkpoints that needs the
// fewest forward steps (the longest such K on ties); K = N when one segment is best or forced.
// InputError unless steps >= 1, inner_slots >= 1, min_segment >= 1, max_outer >= 0.
TwoLevelShape choose_two_level(std::int64_t steps, std::int64_t inner_slots, std::int64_t max_outer,
                               std::int64_t min_segment);

class TwoLevelSchedule final : public Schedule {
 public:
  // InputError unless steps >= 1, 1 <= segment, inner_slots >= 1.
  explicit TwoLevelSchedule(const TwoLevelShape& shape);

  Action next() override;
  std::int64_t slots() const override { return inner_base_ + inner_slots_; }
  // Outer slots are tier 1 (slow), the base and Revolve slots tier 0.
  int tier_of(std::int64_t slot) const override { return slot >= 0 && slot < outer_ ? 1 : 0; }
  bool restore_is_last_use() const override { return last_use_; }
  const TwoLevelShape& shape() const { return shape_; }

 private:
  Action begin_segment();
  Action inner_action();

  TwoLevelShape shape_;
  std::int64_t outer_;        // H
  std::int64_t inner_base_;   // id of Revolve's slot 0: H + 1 (after the segment base), 0 with one segment
  std::int64_t inner_slots_;  // Revolve slots a full segment uses
  enum class Phase { sweep, segment_start, inner, done } phase_ = Phase::sweep;
  std::int64_t sweep_next_ = 1;  // the next segment start the sweep reaches
  bool pending_store_ = false;   // the sweep reached a segment start and owes its store
  std::int64_t segment_ = 0;     // the segment being reversed
  bool arrived_ = true;          // the state is at the segment's start
  bool stored_base_ = false;
  bool first_reverse_done_ = false;
  bool last_use_ = false;
  std::unique_ptr<RevolveSchedule> inner_;
};

}  // namespace revwave
