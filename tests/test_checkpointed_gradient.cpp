// The checkpointed gradient is bit for bit the stored-history gradient, for any slots, tier and precision,
// and costs exactly the schedule's forward steps.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/cpu_propagator.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

template <class T>
class Checkpointed : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Checkpointed, Precisions);

TYPED_TEST(Checkpointed, GradientIsBitwiseEqualToFullStorage) {
  using T = TypeParam;
  const auto dir = std::filesystem::temp_directory_path() / ("revwave-ckpt-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (index_t steps : {1, 2, 37, 64}) {
    testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> prop(p);
    const StrategyOptions full = testing::strategy("full");
    const GradientOutput ref = run_gradient(prop, d.data(), full, plan_strategy(full, steps, prop.field_bytes()));
    EXPECT_EQ(ref.stats.forward_steps, steps);
    for (index_t snaps : {index_t(1), index_t(3), steps, steps + 5}) {
      for (const char* store : {"memory", "disk"}) {
        const StrategyOptions s = testing::strategy("revolve", snaps, store, dir.string());
        const StrategyPlan plan = plan_strategy(s, steps, prop.field_bytes());
        const GradientOutput g = run_gradient(prop, d.data(), s, plan);
        const std::string what = "N=" + std::to_string(steps) + " S=" + std::to_string(snaps) + " " + store;
        ASSERT_EQ(g.gradient.size(), ref.gradient.size());
        EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
        EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
        EXPECT_EQ(g.stats.forward_steps, optimal_forward_steps(steps, std::min(snaps, steps))) << what;
        EXPECT_EQ(g.stats.reverse_steps, steps) << what;
      }
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "checkpoint files left behind";
  std::filesystem::remove_all(dir);
}

TYPED_TEST(Checkpointed, MultilevelAndOnlineAreBitwiseEqualToFullStorage) {
  using T = TypeParam;
  const auto dir = std::filesystem::temp_directory_path() / ("revwave-ml-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const index_t steps = 53;
  testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
  const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  const StrategyOptions full = testing::strategy("full");
  const GradientOutput ref = run_gradient(prop, d.data(), full, plan_strategy(full, steps, prop.field_bytes()));
  auto expect_same = [&](const GradientOutput& g, const std::string& what) {
    ASSERT_EQ(g.gradient.size(), ref.gradient.size()) << what;
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
    EXPECT_EQ(g.stats.reverse_steps, steps) << what;
  };
  // Multilevel on memory + disk, with measured and with given costs.
  for (const std::vector<std::string>& tiers : {std::vector<std::string>{"memory:2", "disk:4"},
                                                std::vector<std::string>{"memory:1:0.1:0.1", "disk:5:3:2"}}) {
    StrategyOptions s = testing::strategy("multilevel", 0, "memory", dir.string());
    s.tiers = tiers;
    StrategyReport report;
    const GradientOutput g = run_gradient(prop, d.data(), s, plan_strategy(s, steps, prop.field_bytes()), {}, &report);
    expect_same(g, "multilevel " + tiers[0] + " " + tiers[1]);
    ASSERT_EQ(report.tiers.size(), 2u);
    // The forward steps are those the schedule promised for the costs it used.
    MultilevelSchedule again(steps, report.tiers);
    EXPECT_EQ(g.stats.forward_steps, count_schedule(again).forward_steps);
  }
  // Online, stopping at the time axis' end: the same N, found step by step.
  for (index_t snaps : {1, 4, 60}) {
    for (const char* store : {"memory", "disk"}) {
      const StrategyOptions s = testing::strategy("online", snaps, store, dir.string());
      StrategyReport report;
      const GradientOutput g = run_gradient(prop, d.data(), s, plan_strategy(s, steps, prop.field_bytes()), {}, &report);
      expect_same(g, "online S=" + std::to_string(snaps) + " " + store);
      EXPECT_EQ(g.stats.forward_steps, count_online(steps, snaps).forward_steps);
      EXPECT_EQ(report.offline_forward_steps, optimal_forward_steps(steps, snaps));
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "checkpoint files left behind";
  std::filesystem::remove_all(dir);
}

TEST(Online, AnEnergyStopEqualsFullStorageOverTheStepsThatTurnedOut) {
  testing::SmallCase c = testing::small_case(13, 11, 9, 400, 4);
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  StrategyOptions s = testing::strategy("online", 6);
  s.stop_energy = 0.05;
  const GradientOutput online = run_gradient(prop, d.data(), s, plan_strategy(s, c.time.steps, prop.field_bytes()));
  const index_t n = online.stats.steps;
  ASSERT_GT(n, 10);
  ASSERT_LT(n, c.time.steps) << "the energy rule should stop the run before its hard maximum";
  // The same problem cut at the N that turned out, by full storage.
  testing::SmallCase cut = c;
  cut.time.steps = n;
  const Problem<double> pc = make_problem<double>(cut.grid, cut.start_model, cut.acq, cut.time);
  CpuPropagator<double> prop_cut(pc);
  const StrategyOptions full = testing::strategy("full");
  const GradientOutput ref = run_gradient(prop_cut, d.data(), full, plan_strategy(full, n, prop_cut.field_bytes()));
  EXPECT_EQ(0, std::memcmp(online.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)));
  EXPECT_EQ(online.stats.objective, ref.stats.objective);
  // A threshold that never triggers within the hard maximum is an error.
  s.stop_energy = 1e-12;
  EXPECT_THROW(run_gradient(prop, d.data(), s, plan_strategy(s, c.time.steps, prop.field_bytes())), InputError);
}

TEST(CheckpointPlan, BadTiersAndStopRulesAreRefused) {
  StrategyOptions s = testing::strategy("multilevel");
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);  // no tiers
  s.tiers = {"memory:0"};
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);  // zero slots in all
  s.tiers = {"memory:2:-1:0"};
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);
  s.tiers = {"memory:2:nan:0"};
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);
  s.tiers = {"tape:2"};
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);
  s.tiers = {"memory:2", "disk:2"};  // disk without a directory
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);
  s.tiers = {"memory:2:0:0", "memory:2"};  // costs for some tiers only
  EXPECT_THROW(plan_strategy(s, 10, 1000), InputError);
  StrategyOptions r = testing::strategy("revolve", 3);
  r.stop_energy = 0.1;  // a stop rule needs the online strategy
  EXPECT_THROW(plan_strategy(r, 10, 1000), InputError);
  r.strategy = "online";
  r.stop_energy = -0.5;
  EXPECT_THROW(plan_strategy(r, 10, 1000), InputError);
}

TEST(CheckpointPlan, BudgetDerivesSlotsAndRefusesLessThanOne) {
  const std::size_t field = 1000;
  StrategyOptions s;
  s.checkpoint_memory = 10 * 2 * field + 5;
  EXPECT_EQ(plan_strategy(s, 100, field).snaps, 10);
  s.checkpoint_memory = 2 * field - 1;
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.checkpoint_memory = 0;  // a budget of zero is refused, not read as "not given"
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.checkpoint_memory.reset();
  s.snaps = -1;
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.snaps = 0;  // zero slots is refused, not replaced by the default
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.snaps = 3;
  s.strategy = "bogus";
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.strategy = "revolve";
  EXPECT_THROW(plan_strategy(s, 0, field), InputError);
}

}  // namespace
}  // namespace revwave
