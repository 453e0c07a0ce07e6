// Pure logic of the CUDA backend (no device needed): the tier split and the lookahead schedule.
#include <gtest/gtest.h>

#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/schedule/lookahead_schedule.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/tier_split.hpp"

namespace revwave {
namespace {

TEST(CudaTierSplit, AllSlotsOnTheDeviceWhenTheyFit) {
  const TierSplit s = split_slots(10, 100, 1000, 0);
  EXPECT_EQ(s.device_slots, 10);
  EXPECT_EQ(s.host_slots, 0);
  EXPECT_EQ(s.staging_bytes, 0u);
}

TEST(CudaTierSplit, SpillsToPinnedHostAfterTakingTwoStagingSlots) {
  const TierSplit s = split_slots(10, 100, 650, 10000);
  EXPECT_EQ(s.staging_bytes, 200u);
  EXPECT_EQ(s.device_slots, 4);
  EXPECT_EQ(s.host_slots, 6);
}

TEST(CudaTierSplit, HostOnlyWhenTheDeviceBudgetHoldsOnlyTheStaging) {
  const TierSplit s = split_slots(5, 100, 150, 1000);
  EXPECT_EQ(s.device_slots, 0);
  EXPECT_EQ(s.host_slots, 5);
}

TEST(CudaTierSplit, RefusesWhatNeitherTierHoldsAndSaysWhatFits) {
  try {
    split_slots(10, 100, 400, 300);
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("--snaps 5"), std::string::npos) << e.what();
  }
}

TEST(CudaTierSplit, HistoryTierPrefersTheDevice) {
  EXPECT_EQ(history_tier(10, 100, 1000, 0), "device");
  EXPECT_EQ(history_tier(10, 100, 999, 1000), "pinned-host");
  EXPECT_THROW(history_tier(10, 100, 999, 999), OutOfMemoryError);
}

struct Recorded {
  Action action;
  bool last_use;
};

std::vector<Recorded> drain(Schedule& s) {
  std::vector<Recorded> out;
  for (;;) {
    const Action a = s.next();
    out.push_back({a, a.kind == ActionKind::restore && s.restore_is_last_use()});
    if (a.kind == ActionKind::end) return out;
  }
}

TEST(CudaLookahead, PassesEveryActionAndLastUseFlagThroughWhilePeeking) {
  for (std::int64_t steps : {3, 17, 100}) {
    for (std::int64_t slots : {1, 3, 8}) {
      RevolveSchedule plain(steps, slots);
      const std::vector<Recorded> expected = drain(plain);
      RevolveSchedule inner(steps, slots);
      LookaheadSchedule look(inner);
      std::vector<Recorded> got;
      for (std::size_t i = 0;; ++i) {
        if (i % 3 == 0) look.peek(i % 7);  // peeking must not change what next() returns
        const Action a = look.next();
        got.push_back({a, a.kind == ActionKind::restore && look.restore_is_last_use()});
        if (a.kind == ActionKind::end) break;
      }
      ASSERT_EQ(got.size(), expected.size()) << steps << " steps, " << slots << " slots";
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].action.kind, expected[i].action.kind);
        EXPECT_EQ(got[i].action.step, expected[i].action.step);
        EXPECT_EQ(got[i].action.slot, expected[i].action.slot);
        EXPECT_EQ(got[i].last_use, expected[i].last_use);
      }
      EXPECT_EQ(look.next().kind, ActionKind::end);
    }
  }
}

}  // namespace
}  // namespace revwave
