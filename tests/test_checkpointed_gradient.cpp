// The checkpointed gradient is bit for bit the stored-history gradient, for any slots, tier and precision,
// and costs exactly the schedule's forward steps.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "revwave/cpu_propagator.hpp"
#include "revwave/forward_modelling.hpp"
#include "revwave/gradient_strategy.hpp"
#include "revwave/revolve.hpp"
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
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    CpuPropagator<T> tp(truth);
    const std::vector<T> d = run_forward(tp).traces;
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

TEST(CheckpointPlan, BudgetDerivesSlotsAndRefusesLessThanOne) {
  const std::size_t field = 1000;
  StrategyOptions s;
  s.checkpoint_memory = 10 * 2 * field + 5;
  EXPECT_EQ(plan_strategy(s, 100, field).snaps, 10);
  s.checkpoint_memory = 2 * field - 1;
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.checkpoint_memory = 0;
  s.snaps = -1;
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.snaps = 3;
  s.strategy = "bogus";
  EXPECT_THROW(plan_strategy(s, 100, field), InputError);
  s.strategy = "revolve";
  EXPECT_THROW(plan_strategy(s, 0, field), InputError);
}

}  // namespace
}  // namespace revwave
