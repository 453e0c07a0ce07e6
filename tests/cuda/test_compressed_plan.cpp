// The CUDA revolve plan under --compress (compressed_plan.hpp): pure arithmetic on a budget, tested
// with no device. Free codecs buy all encoded slots, dear ones all raw, and any split's predicted
// time loop is at most both extremes'; the schedule runs to its end within its slots.
#include <gtest/gtest.h>

#include "revwave/cuda/backend/compressed_plan.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"

namespace revwave {
namespace {

constexpr std::size_t raw = 1000, encoded = 400;  // bytes of a raw and of an encoded slot

TEST(CompressedPlan, FreeCodecsBuyEveryEncodedSlotAndDearOnesNone) {
  const CompressedSlotPlan free_codec = plan_compressed_slots(300, 10 * raw, raw, encoded, {0, 0}, "fp16");
  EXPECT_EQ(free_codec.raw_slots, 0);
  EXPECT_EQ(free_codec.encoded_slots, 25);
  EXPECT_EQ(free_codec.predicted_forward_steps, optimal_forward_steps(300, 25));
  const CompressedSlotPlan dear = plan_compressed_slots(300, 10 * raw, raw, encoded, {50, 50}, "fp16");
  EXPECT_EQ(dear.raw_slots, 10);
  EXPECT_EQ(dear.encoded_slots, 0);
  EXPECT_EQ(dear.predicted_forward_steps, optimal_forward_steps(300, 10));
  EXPECT_NE(dear.choice.find("10 raw and 0 fp16 slots"), std::string::npos) << dear.choice;
}

TEST(CompressedPlan, ASplitIsNeverWorseThanAllRawOrAllEncoded) {
  for (const CodecCosts costs : {CodecCosts{0.25, 0}, CodecCosts{0.75, 0}, CodecCosts{1.25, 0.75}, CodecCosts{3, 3}}) {
    for (index_t steps : {40, 300, 1615}) {
      SCOPED_TRACE("steps " + std::to_string(steps) + ", store " + std::to_string(costs.store));
      const CompressedSlotPlan p = plan_compressed_slots(steps, 9 * raw + 300, raw, encoded, costs, "bf16");
      const double all_raw =
          MultilevelSchedule(steps, {Tier{"raw", 9, 0, 0}, Tier{"e", 0, costs.store, costs.restore}}).planned_time();
      const double all_encoded =
          MultilevelSchedule(steps, {Tier{"raw", 0, 0, 0}, Tier{"e", 23, costs.store, costs.restore}}).planned_time();
      EXPECT_LE(p.predicted_time, all_raw + 1e-9);
      EXPECT_LE(p.predicted_time, all_encoded + 1e-9);
      EXPECT_LE(p.raw_slots * raw + p.encoded_slots * encoded, 9 * raw + 300);
      // The schedule runs to its end on its own slot ids, at the predicted step count.
      std::vector<Tier> tiers{Tier{"raw", p.raw_slots, 0, 0}, Tier{"e", p.encoded_slots, costs.store, costs.restore}};
      const MultilevelCounts counts = count_multilevel(*p.schedule, tiers);
      EXPECT_EQ(counts.counts.forward_steps, p.predicted_forward_steps);
    }
  }
}

TEST(CompressedPlan, ABudgetBelowOneEncodedSlotIsALogicError) {
  EXPECT_THROW(plan_compressed_slots(100, encoded - 1, raw, encoded, {0, 0}, "fp16"), std::logic_error);
}

}  // namespace
}  // namespace revwave
