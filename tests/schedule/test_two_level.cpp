// The two-level schedule, as pure logic (a counting mock that executes it) and on wavefields
// (bitwise equal to full storage): every step reversed once, in order; forward steps as the
// formula says; each outer checkpoint stored once and restored once, at least K steps from
// the previous outer action.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

#include "precisions.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/schedule/two_level.hpp"
#include "revwave/store/memory_store.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

struct Executed {
  std::int64_t forward_steps = 0;
  std::int64_t outer_stores = 0, outer_restores = 0;
  std::int64_t min_outer_spacing = -1;  // forward steps between consecutive outer actions
};

// Executes the schedule on positions alone, checking every action against the state it
// would meet. ADD_FAILURE on the first inconsistency.
Executed execute(TwoLevelSchedule& s, const std::string& what) {
  const TwoLevelShape& shape = s.shape();
  Executed e;
  std::map<std::int64_t, std::int64_t> held;  // slot -> position
  std::int64_t position = 0, next_reverse = shape.steps - 1, last_outer = -1;
  bool first = true;
  auto outer_action = [&] {
    if (last_outer >= 0) {
      const std::int64_t gap = e.forward_steps - last_outer;
      e.min_outer_spacing = e.min_outer_spacing < 0 ? gap : std::min(e.min_outer_spacing, gap);
    }
    last_outer = e.forward_steps;
  };
  for (int guard = 0; guard < 10'000'000; ++guard) {
    const Action a = s.next();
    const std::string at = what + ", action " + to_string(a);
    if (a.kind != ActionKind::end && a.kind != ActionKind::advance && a.kind != ActionKind::first_reverse &&
        a.kind != ActionKind::reverse && !(a.slot == initial_slot || (a.slot >= 0 && a.slot < s.slots()))) {
      ADD_FAILURE() << at << ": slot out of [0, " << s.slots() << ")";
      return e;
    }
    switch (a.kind) {
      case ActionKind::advance:
        if (position < 0 || a.step < position || a.step > shape.steps) {
          ADD_FAILURE() << at << " from position " << position;
          return e;
        }
        e.forward_steps += a.step - position;
        position = a.step;
        break;
      case ActionKind::store:
        if (a.step != position || a.slot == initial_slot) {
          ADD_FAILURE() << at << " at position " << position;
          return e;
        }
        held[a.slot] = position;
        if (s.tier_of(a.slot) == 1) ++e.outer_stores, outer_action();
        break;
      case ActionKind::restore:
        if (a.slot == initial_slot) {
          if (a.step != 0) ADD_FAILURE() << at;
        } else {
          const auto it = held.find(a.slot);
          if (it == held.end() || it->second != a.step) {
            ADD_FAILURE() << at << ": the slot does not hold that position";
            return e;
          }
          if (s.restore_is_last_use()) held.erase(it);
          if (s.tier_of(a.slot) == 1) ++e.outer_restores, outer_action();
        }
        position = a.step;
        break;
      case ActionKind::first_reverse:
      case ActionKind::reverse:
        if (a.step != position || a.step != next_reverse || (a.kind == ActionKind::first_reverse) != first) {
          ADD_FAILURE() << at << " at position " << position << ", expected step " << next_reverse;
          return e;
        }
        first = false;
        ++e.forward_steps;
        --next_reverse;
        position = -1;  // the state moved on: the next step needs a restore
        break;
      case ActionKind::end:
        EXPECT_EQ(next_reverse, -1) << what << ": ended with steps left";
        EXPECT_EQ(s.next().kind, ActionKind::end) << what;
        return e;
    }
  }
  ADD_FAILURE() << what << ": no end";
  return e;
}

TEST(TwoLevel, ReversesEveryStepAtTheFormulasCostWithEachOuterCheckpointMovedTwice) {
  for (std::int64_t steps : {1, 2, 3, 7, 50, 101, 333}) {
    for (std::int64_t segment : {1, 2, 5, 17, 50, 400}) {
      for (std::int64_t slots : {1, 2, 5}) {
        const TwoLevelShape shape{steps, segment, slots};
        const std::string what =
            "N=" + std::to_string(steps) + " K=" + std::to_string(segment) + " s=" + std::to_string(slots);
        TwoLevelSchedule s(shape);
        const Executed e = execute(s, what);
        EXPECT_EQ(e.forward_steps, two_level_forward_steps(shape)) << what;
        EXPECT_EQ(e.outer_stores, shape.outer_slots()) << what;
        EXPECT_EQ(e.outer_restores, shape.outer_slots()) << what;
        if (e.min_outer_spacing >= 0) {
          EXPECT_GE(e.min_outer_spacing, std::min(segment, steps)) << what;
        }
      }
    }
  }
}

TEST(TwoLevel, OneSegmentIsRevolveOnTheInnerSlots) {
  const TwoLevelShape shape{200, 200, 6};
  EXPECT_EQ(shape.outer_slots(), 0);
  EXPECT_EQ(two_level_forward_steps(shape), optimal_forward_steps(200, 6));
  TwoLevelSchedule s(shape);
  EXPECT_EQ(s.slots(), RevolveSchedule(200, 6).slots());
}

TEST(TwoLevel, ChoiceRespectsTheLimitsAndBeatsEveryOtherFeasibleSegment) {
  for (std::int64_t steps : {40, 300, 1615}) {
    for (std::int64_t max_outer : {0, 3, 30}) {
      const TwoLevelShape c = choose_two_level(steps, 4, max_outer, 50);
      EXPECT_LE(c.outer_slots(), max_outer);
      EXPECT_TRUE(c.segment >= 50 || c.segment == steps) << c.segment;
      // Independently: every segment length the limits allow costs at least as much.
      for (std::int64_t k = 1; k <= steps; ++k) {
        const TwoLevelShape o{steps, k, 4};
        if ((k < 50 && k != steps) || o.outer_slots() > max_outer) continue;
        EXPECT_LE(two_level_forward_steps(c), two_level_forward_steps(o)) << "N=" << steps << " K=" << k;
      }
    }
  }
  // More outer checkpoints never cost more recomputation.
  EXPECT_LE(two_level_forward_steps(choose_two_level(1615, 8, 100, 50)),
            two_level_forward_steps(choose_two_level(1615, 8, 5, 50)));
  EXPECT_THROW(choose_two_level(10, 0, 1, 1), InputError);
  EXPECT_THROW(TwoLevelSchedule(TwoLevelShape{10, 0, 1}), InputError);
}

REVWAVE_PRECISION_SUITE(TwoLevelGradient, ::testing::Test);

TYPED_TEST(TwoLevelGradient, IsBitwiseEqualToFullStorage) {
  const index_t steps = 47;
  testing::CpuGradientCase<TypeParam> b(testing::small_case(13, 11, 9, steps, 4));
  const GradientOutput& ref = b.ref;
  for (std::int64_t segment : {5, 12, 46, 47}) {
    TwoLevelSchedule s(TwoLevelShape{steps, segment, 3});
    MemoryStore store(std::max<std::int64_t>(s.slots(), 1), b.prop.field_pool());
    const GradientOutput g = gradient_checkpointed(b.prop, b.d.data(), s, store);
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)))
        << "K=" << segment;
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << "K=" << segment;
    EXPECT_EQ(g.stats.forward_steps, two_level_forward_steps(s.shape())) << "K=" << segment;
  }
}

}  // namespace
}  // namespace revwave
