// On the GPU, the checkpointed gradient equals `full` bit for bit, whatever the tiers:
// device-only slots, device + pinned-host slots, pinned-host only, and `full` itself with
// its history in pinned host memory; and two runs give the same bits.
#include <gtest/gtest.h>

#include <cstring>

#include "cuda_gradient_test.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/tier_split.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaCheckpointing : public CudaGradientTest {
 protected:
  CudaCheckpointing() : CudaGradientTest(awkward_case(8, 90)) {}
  GradientOutput run(const StrategyOptions& o, const DeviceBudgets& b, CudaRunInfo* info = nullptr) override {
    const StrategyPlan plan = plan_strategy(o, p_->time.steps, field_bytes());
    return cuda_gradient(*p_, observed_.data(), o, plan, b, info);
  }
  std::size_t field_bytes() const { return p_->grid.field_bytes<T>(); }
  static void expect_bitwise(const GradientOutput& a, const GradientOutput& b) {
    EXPECT_EQ(std::memcmp(&a.stats.objective, &b.stats.objective, sizeof(double)), 0)
        << a.stats.objective << " vs " << b.stats.objective;
    ASSERT_EQ(a.gradient.size(), b.gradient.size());
    EXPECT_EQ(std::memcmp(a.gradient.data(), b.gradient.data(), a.gradient.size() * sizeof(double)), 0);
  }
};

TEST_F(CudaCheckpointing, DeviceSlotsOnlyEqualFull) {
  CudaRunInfo info;
  const GradientOutput g = run(strategy("revolve", 6), DeviceBudgets{}, &info);
  EXPECT_EQ(info.host_slots, 0);
  EXPECT_EQ(info.device_slots, 6);
  expect_bitwise(g, full_);
}

// Five slots' worth of device memory for 30 slots: two levels, pinned host checkpoints every
// K >= 5 steps, each restore prefetched a whole segment ahead.
DeviceBudgets two_level_budgets(std::size_t field_bytes) {
  DeviceBudgets b;
  b.device_memory = 5 * 2 * field_bytes;  // two staging slots, the segment base, two Revolve slots
  b.host_memory = std::size_t(1) << 30;
  b.min_host_spacing = 5;
  return b;
}

TEST_F(CudaCheckpointing, TwoLevelsWithPinnedCheckpointsEqualFull) {
  CudaRunInfo info;
  const GradientOutput g = run(strategy("revolve", 30), two_level_budgets(field_bytes()), &info);
  EXPECT_GT(info.host_slots, 0);
  EXPECT_EQ(info.device_slots, 3);
  EXPECT_NE(info.tier_choice.find("two levels"), std::string::npos) << info.tier_choice;
  EXPECT_EQ(g.stats.forward_steps, info.predicted_forward_steps);
  EXPECT_LT(info.predicted_forward_steps, optimal_forward_steps(p_->time.steps, 5));
  expect_bitwise(g, full_);
}

TEST_F(CudaCheckpointing, RevolveOnWhatTheDeviceHoldsWhenTwoLevelsWouldRecomputeMore) {
  DeviceBudgets b = two_level_budgets(field_bytes());
  b.min_host_spacing = 50;  // 90 steps: at most two segments, no pinned checkpoint
  CudaRunInfo info;
  const GradientOutput g = run(strategy("revolve", 30), b, &info);
  EXPECT_EQ(info.host_slots, 0);
  EXPECT_EQ(info.device_slots, 5);
  EXPECT_EQ(g.stats.forward_steps, optimal_forward_steps(p_->time.steps, 5));
  expect_bitwise(g, full_);
}

TEST_F(CudaCheckpointing, OnlineOnPinnedSlotsOnlyEqualsFull) {
  CudaRunInfo info;
  const GradientOutput g = run(strategy("online", 4), pinned_only_budgets(), &info);
  EXPECT_EQ(info.device_slots, 0);
  EXPECT_EQ(info.host_slots, 4);
  expect_bitwise(g, full_);
}

TEST_F(CudaCheckpointing, FullWithPinnedHistoryEqualsFullOnTheDevice) {
  CudaRunInfo info;
  const GradientOutput g = run(strategy("full"), pinned_only_budgets(), &info);
  EXPECT_EQ(info.history_tier, "pinned-host");
  expect_bitwise(g, full_);
}

TEST_F(CudaCheckpointing, TwoRunsAreBitwiseEqual) {
  const DeviceBudgets b = two_level_budgets(field_bytes());
  expect_bitwise(run(strategy("revolve", 30), b), run(strategy("revolve", 30), b));
  expect_bitwise(run(strategy("full"), DeviceBudgets{}), full_);
}

TEST_F(CudaCheckpointing, EveryPinnedRestoreIsPrefetched) {
  const DeviceBudgets b = two_level_budgets(field_bytes());
  CudaPropagator<T> prop(*p_, b);
  const DeviceCheckpointPlan cp = plan_device_checkpoints(p_->time.steps, 30, 2 * field_bytes(), prop.device_budget(),
                                                          prop.host_budget(), b.min_host_spacing);
  ASSERT_GT(cp.split.host_slots, 0);
  LookaheadSchedule lookahead(*cp.schedule);
  LookaheadPrefetch hint(lookahead);
  auto store = prop.make_store(cp.split, &hint);
  const GradientOutput g = gradient_checkpointed(prop, observed_.data(), lookahead, *store);
  EXPECT_EQ(store->prefetch_hits(), cp.split.host_slots);  // each pinned checkpoint is restored once
  expect_bitwise(g, full_);
}

TEST_F(CudaCheckpointing, OnlineOnDeviceAndPinnedSlotsEqualsFull) {
  DeviceBudgets b;
  b.device_memory = 4 * 2 * field_bytes();  // two staging slots and two device slots
  b.host_memory = std::size_t(1) << 30;
  CudaRunInfo info;
  const GradientOutput g = run(strategy("online", 5), b, &info);
  EXPECT_EQ(info.device_slots, 2);
  EXPECT_EQ(info.host_slots, 3);
  EXPECT_EQ(g.stats.steps, p_->time.steps);
  expect_bitwise(g, full_);
}

// The energy the online stop rule reads (--stop-energy) is the CPU's, to rounding.
TEST_F(CudaCheckpointing, WavefieldEnergyMatchesTheCpu) {
  CpuPropagator<T> cpu(*p_);
  CudaPropagator<T> gpu(*p_);
  cpu.reset_forward();
  gpu.reset_forward();
  for (index_t n = 0; n < 60; ++n) {
    cpu.forward_step(n);
    gpu.forward_step(n);
  }
  const double ec = cpu.wavefield_energy(), eg = gpu.wavefield_energy();
  EXPECT_GT(ec, 0.0);
  EXPECT_NEAR(eg, ec, 1e-5 * ec);
}

TEST_F(CudaCheckpointing, PinnedRestoresWithoutPrefetchEqualFull) {
  DeviceBudgets b;
  b.device_memory = 3 * 2 * field_bytes();  // two staging slots and one device slot
  b.host_memory = std::size_t(1) << 30;
  CudaPropagator<T> prop(*p_, b);
  const StrategyPlan plan = plan_strategy(strategy("revolve", 5), p_->time.steps, field_bytes());
  auto schedule = make_schedule(plan);
  const TierSplit split = prop.split_slots(schedule->slots());
  auto store = prop.make_store(split, nullptr);  // every pinned restore waits for its copy
  const GradientOutput g = gradient_checkpointed(prop, observed_.data(), *schedule, *store);
  EXPECT_EQ(split.host_slots, 4);
  EXPECT_EQ(store->prefetch_hits(), 0);
  expect_bitwise(g, full_);
}

}  // namespace
}  // namespace revwave
