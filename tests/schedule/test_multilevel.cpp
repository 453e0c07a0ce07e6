// Multi-level checkpointing: counting mocks against Revolve's optimum and the two baselines.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {
namespace {

std::int64_t total_slots(const std::vector<Tier>& tiers) {
  std::int64_t s = 0;
  for (const Tier& t : tiers) s += t.slots;
  return s;
}

// Splits of `total` slots over two and three tiers, some with empty tiers.
std::vector<std::vector<std::int64_t>> splits(std::int64_t total) {
  std::vector<std::vector<std::int64_t>> out;
  for (std::int64_t a = 0; a <= total; ++a) out.push_back({a, total - a});
  for (std::int64_t a = 0; a <= total; a += 2)
    for (std::int64_t b = 0; a + b <= total; b += 3) out.push_back({a, b, total - a - b});
  return out;
}

std::vector<Tier> make_tiers(const std::vector<std::int64_t>& caps, const std::vector<double>& store,
                             const std::vector<double>& restore) {
  std::vector<Tier> tiers;
  for (std::size_t t = 0; t < caps.size(); ++t)
    tiers.push_back(Tier{"tier" + std::to_string(t), caps[t], store[t], restore[t]});
  return tiers;
}

// Valid stream, ids inside the tiers, distinct ids per tier within capacity.
MultilevelCounts checked_counts(std::int64_t N, const std::vector<Tier>& tiers) {
  MultilevelSchedule validated(N, tiers);
  validate_schedule(validated, N, total_slots(tiers));
  MultilevelSchedule counted(N, tiers);
  const MultilevelCounts m = count_multilevel(counted, tiers, 8.0);
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    EXPECT_LE(m.tiers[t].peak_live, tiers[t].slots) << "tier " << t << " N=" << N;
    EXPECT_EQ(m.tiers[t].bytes_moved, 8.0 * static_cast<double>(m.tiers[t].stores + m.tiers[t].restores));
  }
  return m;
}

TEST(Multilevel, ZeroCostsEqualRevolveWithAllSlots) {
  for (std::int64_t total = 1; total <= 7; ++total)
    for (const auto& caps : splits(total))
      for (std::int64_t N : {1, 2, 3, 5, 8, 13, 40, 97, 300, 1001}) {
        const std::vector<double> zero(caps.size(), 0.0);
        const auto tiers = make_tiers(caps, zero, zero);
        const MultilevelCounts m = checked_counts(N, tiers);
        ASSERT_EQ(m.counts.forward_steps, optimal_forward_steps(N, total)) << "N=" << N << " total=" << total;
        ASSERT_EQ(m.predicted_time, static_cast<double>(m.counts.forward_steps));
      }
}

TEST(Multilevel, UnequalCostsNoWorseThanBothBaselines) {
  const std::vector<std::vector<double>> costs = {
      {0.0, 0.5, 3.0}, {0.1, 2.0, 40.0}, {1.0, 1.0, 1.0}, {0.0, 100.0, 1e4}, {5.0, 0.2, 0.1}};
  int strictly_better = 0;
  for (std::int64_t total : {2, 5, 9})
    for (const auto& caps : splits(total))
      for (const auto& c : costs)
        for (std::int64_t N : {3, 10, 57, 250, 1500}) {
          std::vector<double> store(c.begin(), c.begin() + static_cast<long>(caps.size()));
          std::vector<double> restore = store;
          for (double& r : restore) r *= 1.5;
          const auto tiers = make_tiers(caps, store, restore);
          const MultilevelCounts m = checked_counts(N, tiers);
          const double fastest = revolve_fastest_tier_time(N, tiers);
          const double all = revolve_all_slots_time(N, tiers);
          const double tol = 1e-12 * std::max(fastest, all);
          ASSERT_LE(m.predicted_time, fastest + tol) << "N=" << N << " total=" << total;
          ASSERT_LE(m.predicted_time, all + tol) << "N=" << N << " total=" << total;
          MultilevelSchedule plan(N, tiers);
          EXPECT_NEAR(plan.planned_time(), m.predicted_time, 1e-9 * m.predicted_time);
          strictly_better += m.predicted_time < std::min(fastest, all) - tol;
        }
  EXPECT_GT(strictly_better, 0) << "the DP placement never beat both baselines";
}

TEST(Multilevel, TierOfFollowsGlobalContiguousIds) {
  const auto tiers = make_tiers({2, 0, 3}, {0, 1, 2}, {0, 1, 2});
  MultilevelSchedule s(100, tiers);
  EXPECT_EQ(s.slots(), 5);
  EXPECT_EQ(s.tier_of(0), 0);
  EXPECT_EQ(s.tier_of(1), 0);
  EXPECT_EQ(s.tier_of(2), 2);
  EXPECT_EQ(s.tier_of(4), 2);
  EXPECT_EQ(s.tier_of(initial_slot), -1);
}

TEST(Multilevel, LargeInputsKeepGuarantees) {
  const auto tiers = make_tiers({4, 16, 60}, {0.0, 0.8, 6.0}, {0.0, 1.0, 9.0});
  for (std::int64_t N : {20000, 200000}) {
    MultilevelSchedule s(N, tiers);
    const double t = predicted_time(s, tiers);
    EXPECT_LE(t, revolve_fastest_tier_time(N, tiers) * (1 + 1e-12));
    EXPECT_LE(t, revolve_all_slots_time(N, tiers) * (1 + 1e-12));
  }
}

TEST(Multilevel, BadTiersThrowInputError) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(MultilevelSchedule(10, {}), InputError);
  EXPECT_THROW(MultilevelSchedule(10, make_tiers({0, 0}, {0, 0}, {0, 0})), InputError);
  EXPECT_THROW(MultilevelSchedule(10, make_tiers({2, -1}, {0, 0}, {0, 0})), InputError);
  EXPECT_THROW(MultilevelSchedule(10, make_tiers({2, 1}, {0, -1}, {0, 0})), InputError);
  EXPECT_THROW(MultilevelSchedule(10, make_tiers({2, 1}, {0, 0}, {nan, 0})), InputError);
  EXPECT_THROW(MultilevelSchedule(10, make_tiers({2, 1}, {inf, 0}, {0, 0})), InputError);
  EXPECT_THROW(MultilevelSchedule(0, make_tiers({2}, {0}, {0})), InputError);
  try {
    validate_tiers(make_tiers({1, 1}, {0, 0}, {0, nan}));
    FAIL() << "NaN restore cost accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("restore cost"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace revwave
