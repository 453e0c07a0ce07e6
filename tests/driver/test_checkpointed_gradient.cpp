// The checkpointed gradient is bit for bit the stored-history gradient, for any slots, tier and precision,
// and costs exactly the schedule's forward steps.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "precisions.hpp"
#include "revwave/core/cancellation.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_driver.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

REVWAVE_PRECISION_SUITE(Checkpointed, ::testing::Test);

TYPED_TEST(Checkpointed, GradientIsBitwiseEqualToFullStorage) {
  const testing::TempDir dir("revwave-ckpt-test");
  for (index_t steps : {1, 2, 37, 64}) {
    testing::CpuGradientCase<TypeParam> b(testing::small_case(13, 11, 9, steps, 4));
    const GradientOutput& ref = b.ref;
    EXPECT_EQ(ref.stats.forward_steps, steps);
    for (index_t snaps : {index_t(1), index_t(3), steps, steps + 5}) {
      for (const char* store : {"memory", "disk"}) {
        const GradientOutput g = b.run(testing::strategy("revolve", snaps, store, dir.path().string()));
        const std::string what = "N=" + std::to_string(steps) + " S=" + std::to_string(snaps) + " " + store;
        ASSERT_EQ(g.gradient.size(), ref.gradient.size());
        EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
        EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
        EXPECT_EQ(g.stats.forward_steps, optimal_forward_steps(steps, std::min(snaps, steps))) << what;
        EXPECT_EQ(g.stats.reverse_steps, steps) << what;
      }
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

TYPED_TEST(Checkpointed, MultilevelAndOnlineAreBitwiseEqualToFullStorage) {
  const testing::TempDir dir("revwave-ml-test");
  const index_t steps = 53;
  testing::CpuGradientCase<TypeParam> b(testing::small_case(13, 11, 9, steps, 4));
  const GradientOutput& ref = b.ref;
  auto expect_same = [&](const GradientOutput& g, const std::string& what) {
    ASSERT_EQ(g.gradient.size(), ref.gradient.size()) << what;
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
    EXPECT_EQ(g.stats.reverse_steps, steps) << what;
  };
  // Multilevel on memory + disk, with measured and with given costs.
  for (const std::vector<std::string>& tiers :
       {std::vector<std::string>{"memory:2", "disk:4"}, std::vector<std::string>{"memory:1:0.1:0.1", "disk:5:3:2"}}) {
    StrategyOptions s = testing::strategy("multilevel", 0, "memory", dir.path().string());
    s.tiers = tiers;
    StrategyReport report;
    const GradientOutput g = b.run(s, &report);
    expect_same(g, "multilevel " + tiers[0] + " " + tiers[1]);
    ASSERT_EQ(report.tiers.size(), 2u);
    // The forward steps are those the schedule promised for the costs it used.
    MultilevelSchedule again(steps, report.tiers);
    EXPECT_EQ(g.stats.forward_steps, count_schedule(again).forward_steps);
    // And the report says so ahead of the run: the count a binomial schedule on its slots makes.
    EXPECT_EQ(report.predicted_forward_steps, g.stats.forward_steps) << tiers[0];
  }
  // Online, stopping at the time axis' end: the same N, found step by step.
  for (index_t snaps : {1, 4, 60}) {
    for (const char* store : {"memory", "disk"}) {
      const StrategyOptions s = testing::strategy("online", snaps, store, dir.path().string());
      StrategyReport report;
      const GradientOutput g = b.run(s, &report);
      expect_same(g, "online S=" + std::to_string(snaps) + " " + store);
      EXPECT_EQ(g.stats.forward_steps, count_online(steps, snaps).forward_steps);
      EXPECT_EQ(report.offline_forward_steps, optimal_forward_steps(steps, snaps));
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
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
  // Out of order (a hostile round, #45): scheduled as given, the disk tier as the fastest.
  s.tiers = {"disk:10:1:1", "memory:2:0:0"};
  s.checkpoint_dir = ::testing::TempDir();
  try {
    plan_strategy(s, 10, 1000);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--tier disk:10:1:1 comes before --tier memory:2:0:0: tiers go fastest first (memory, then pinned, then "
              "disk)");
  }
  s.tiers = {"memory:2:0:0", "disk:10:1:1"};
  EXPECT_NO_THROW(plan_strategy(s, 10, 1000));
  s.checkpoint_dir.clear();
  StrategyOptions r = testing::strategy("revolve", 3);
  r.stop_energy = 0.1;  // a stop rule needs the online strategy
  EXPECT_THROW(plan_strategy(r, 10, 1000), InputError);
  r.strategy = Strategy::online;
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
  EXPECT_THROW(parse_strategy("bogus"), InputError);  // refused where the text enters
  s.strategy = Strategy::revolve;
  EXPECT_THROW(plan_strategy(s, 0, field), InputError);
}

}  // namespace
}  // namespace revwave

namespace revwave {
namespace {

std::string refusal(const StrategyOptions& s, index_t steps = 100, std::size_t field = 1000) {
  try {
    plan_strategy(s, steps, field);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CheckpointPlan, OptionsTheStrategyWouldIgnoreAreRefused) {
  StrategyOptions full;
  full.strategy = Strategy::full;
  EXPECT_NO_THROW(plan_strategy(full, 100, 1000));
  StrategyOptions s = full;
  s.snaps = 5;
  EXPECT_EQ(refusal(s).rfind("--snaps 5 does not apply: --strategy full", 0), 0u) << refusal(s);
  s = full;
  s.store = StoreKind::memory;  // even the default, when given
  EXPECT_NE(refusal(s).find("--store memory does not apply"), std::string::npos);
  s = full;
  s.checkpoint_memory = std::size_t(1) << 30;
  EXPECT_NE(refusal(s).find("--checkpoint-memory does not apply"), std::string::npos);
  StrategyOptions revolve;
  revolve.strategy = Strategy::revolve;
  s = revolve;
  s.tiers = {"memory:2"};
  EXPECT_NE(refusal(s).find("--tier memory:2 does not apply"), std::string::npos);
  s = revolve;
  s.stop_energy = 0.1;
  EXPECT_NE(refusal(s).find("--stop-energy 0.1 does not apply"), std::string::npos);
  s = revolve;
  s.checkpoint_dir = "/tmp";
  EXPECT_NE(refusal(s).find("--checkpoint-dir does not apply"), std::string::npos);
  StrategyOptions multilevel;
  multilevel.strategy = Strategy::multilevel;
  multilevel.tiers = {"memory:2"};
  EXPECT_NO_THROW(plan_strategy(multilevel, 100, 1000));
  s = multilevel;
  s.snaps = 3;
  EXPECT_NE(refusal(s).find("--snaps 3 does not apply: --strategy multilevel"), std::string::npos);
  StrategyOptions online;
  online.strategy = Strategy::online;
  s = online;
  s.stop_energy = 0.0;  // given as zero: never stops, so refused rather than read as "not given"
  EXPECT_NE(refusal(s).find("--stop-energy 0 is invalid: it must be in (0, 1)"), std::string::npos) << refusal(s);
  s.stop_energy = 0.05;
  EXPECT_NO_THROW(plan_strategy(s, 100, 1000));
}

TEST(CheckpointPlan, MoreOnlineSlotsThanStepsAreCappedAndSaidSo) {
  StrategyOptions s;
  s.strategy = Strategy::online;
  s.snaps = std::int64_t(1) << 50;  // not 2^50 slots allocated, and not a loop over them
  const StrategyPlan plan = plan_strategy(s, 40, 1000);
  EXPECT_EQ(plan.snaps, 40);
  EXPECT_NE(plan.choice.find("capped at the step count"), std::string::npos) << plan.choice;
}

class FullHistoryLimit : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("REVWAVE_MEMORY_LIMIT"); }
};

// The history holds u[0..N]: N + 1 fields. A limit with room for N fields and the working set,
// but not N + 1, is refused up front (it used to pass, and the allocation went past the limit).
TEST_F(FullHistoryLimit, TheCheckCountsTheFieldsThatAreAllocated) {
  const std::size_t field = std::size_t(1) << 20;
  const index_t steps = 50;
  EXPECT_EQ(full_history_bytes(steps, field), std::size_t(steps + 1) * field);
  StrategyOptions full;
  full.strategy = Strategy::full;
  const std::size_t working = 4 * field;
  setenv("REVWAVE_MEMORY_LIMIT", std::to_string(std::size_t(steps) * field + working + field / 2).c_str(), 1);
  EXPECT_THROW(plan_strategy(full, steps, field, working), OutOfMemoryError);
  setenv("REVWAVE_MEMORY_LIMIT", std::to_string(std::size_t(steps + 1) * field + working).c_str(), 1);
  EXPECT_NO_THROW(plan_strategy(full, steps, field, working));
  // The backend's own check, before it allocates, counts the same N + 1 fields.
  testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<float> prop(p);
  setenv("REVWAVE_MEMORY_LIMIT",
         std::to_string(std::size_t(steps) * prop.field_bytes() + prop.field_bytes() / 2).c_str(), 1);
  EXPECT_THROW(prop.allocate_history(steps), OutOfMemoryError);
  unsetenv("REVWAVE_MEMORY_LIMIT");
  EXPECT_EQ(prop.allocate_history(steps), std::size_t(steps + 1) * prop.field_bytes());
  prop.release_history();
}

// A long history takes seconds to allocate (a memset of each field): the progress hears every
// field, so that a front end's Ctrl-C ends the run there rather than after the allocation (the
// Python package's invert answered 2 s late on a loaded machine).
TEST(FullHistory, TheAllocationHearsTheProgressSoThatARunCanBeCancelledBeforeItsFirstStep) {
  const index_t steps = 40;
  const testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
  const std::vector<float> observed = testing::observed_in<float>(c, c.true_model);
  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<float> prop(p);
  std::vector<std::pair<index_t, index_t>> heard;
  const Progress cancel_at_the_tenth = [&](index_t done, index_t total) {
    heard.emplace_back(done, total);
    if (heard.size() == 10) throw RunCancelled{};
  };
  EXPECT_THROW(gradient_full(prop, observed.data(), cancel_at_the_tenth), RunCancelled);
  ASSERT_EQ(heard.size(), 10u);
  for (const auto& [done, total] : heard) {
    EXPECT_EQ(done, 0);  // no step taken yet
    EXPECT_EQ(total, 2 * steps);
  }
}

}  // namespace
}  // namespace revwave
