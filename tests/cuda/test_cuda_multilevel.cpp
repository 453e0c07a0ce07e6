// On the GPU, multilevel checkpointing over device memory, pinned host memory and files, and
// --store disk (revolve and online, every slot in a file behind pinned staging): the gradient
// equals `full` bit for bit; costs measured at start-up are the device's; compression composes
// with the raw tiers (encoded device and pinned slots, raw files) within the codecs' bounds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "cuda_test_support.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/multilevel.hpp"

namespace fs = std::filesystem;

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaMultilevel : public CudaTest {
 protected:
  using T = float;
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped()) return;
    dir_ = fs::temp_directory_path() / ("revwave-cuda-multilevel-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    c_ = awkward_case(4, 70, {21, 17, 15});
    const Problem<T> truth = make_problem<T>(c_.grid, c_.true_model, c_.acq, c_.time);
    observed_ = cuda_forward(truth, DeviceBudgets{}).traces;
    p_ = std::make_unique<Problem<T>>(make_problem<T>(c_.grid, c_.start_model, c_.acq, c_.time));
    full_ = run(strategy("full"));
  }
  void TearDown() override {
    fs::remove_all(dir_);
    CudaTest::TearDown();
  }
  StrategyOptions multilevel(std::vector<std::string> tiers) const {
    StrategyOptions o = strategy("multilevel");
    o.tiers = std::move(tiers);
    o.checkpoint_dir = dir_.string();
    return o;
  }
  StrategyOptions on_disk(const std::string& name, index_t snaps) const {
    StrategyOptions o = strategy(name, snaps);
    o.store = StoreKind::disk;
    o.checkpoint_dir = dir_.string();
    return o;
  }
  StrategyPlan plan_of(StrategyOptions& o) const {
    o.backend = Backend::cuda;
    return plan_strategy(o, p_->time.steps, field_layout<T>(p_->grid));
  }
  GradientOutput run(StrategyOptions o, CudaRunInfo* info = nullptr, StrategyReport* report = nullptr) {
    const StrategyPlan plan = plan_of(o);
    return cuda_gradient(*p_, observed_.data(), o, plan, DeviceBudgets{}, info, report);
  }
  static void expect_bitwise(const GradientOutput& a, const GradientOutput& b, const std::string& what) {
    EXPECT_EQ(std::memcmp(&a.stats.objective, &b.stats.objective, sizeof(double)), 0)
        << what << ": " << a.stats.objective << " vs " << b.stats.objective;
    ASSERT_EQ(a.gradient.size(), b.gradient.size());
    EXPECT_EQ(std::memcmp(a.gradient.data(), b.gradient.data(), a.gradient.size() * sizeof(double)), 0) << what;
  }
  static double relative_l2(const std::vector<double>& a, const std::vector<double>& ref) {
    double e2 = 0, r2 = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      e2 += (a[i] - ref[i]) * (a[i] - ref[i]);
      r2 += ref[i] * ref[i];
    }
    return std::sqrt(e2 / r2);
  }
  // The stores and restores of each tier that the plan's schedule makes.
  MultilevelCounts counts(const StrategyPlan& plan, const std::vector<Tier>& tiers) const {
    MultilevelSchedule schedule(plan.steps, tiers);
    return count_multilevel(schedule, tiers);
  }

  fs::path dir_;
  Case c_;
  std::vector<T> observed_;
  std::unique_ptr<Problem<T>> p_;
  GradientOutput full_;
};

TEST_F(CudaMultilevel, DevicePinnedAndDiskTiersEqualFull) {
  StrategyOptions o = multilevel({"memory:2:0.1:0.1", "pinned:2:0.5:0.5", "disk:3:2:2"});
  const StrategyPlan plan = plan_of(o);
  const MultilevelCounts m = counts(plan, plan.tiers);
  for (std::size_t t = 0; t < 3; ++t)
    ASSERT_GT(m.tiers[t].restores, 0) << "the schedule never restores from tier " << t;
  CudaRunInfo info;
  StrategyReport report;
  const GradientOutput g = run(o, &info, &report);
  expect_bitwise(g, full_, "memory + pinned + disk");
  EXPECT_EQ(info.device_slots, 2);
  EXPECT_EQ(info.host_slots, 2);
  EXPECT_NE(info.tier_choice.find("files in"), std::string::npos) << info.tier_choice;
  EXPECT_EQ(g.stats.stores, m.counts.stores);
  EXPECT_EQ(g.stats.restores, m.counts.restores);
  const std::uint64_t slot = 2 * p_->grid.field_bytes<T>();
  const auto moved =
      static_cast<std::uint64_t>(m.tiers[1].stores + m.tiers[1].restores + m.tiers[2].stores + m.tiers[2].restores);
  EXPECT_EQ(g.stats.checkpoint_copy_bytes, moved * slot)
      << "device slots copy nothing; pinned and disk slots once each way";
  ASSERT_EQ(report.tiers.size(), 3u);
  EXPECT_GT(report.predicted_time, 0.0);
}

// The slow tiers' restores are read ahead while the steps run: every one of them, on this schedule.
TEST_F(CudaMultilevel, PinnedAndDiskRestoresAreReadAhead) {
  StrategyOptions o = multilevel({"memory:2:0.1:0.1", "pinned:2:0.5:0.5", "disk:3:2:2"});
  const StrategyPlan plan = plan_of(o);
  const MultilevelCounts m = counts(plan, plan.tiers);
  CudaPropagator<T> prop(*p_);
  MultilevelSchedule schedule(plan.steps, plan.tiers);
  LookaheadSchedule lookahead(schedule);
  LookaheadPrefetch hint(lookahead);
  auto store = prop.make_store(prop.store_plan(o, plan), &hint);
  const GradientOutput g = gradient_checkpointed(prop, observed_.data(), lookahead, *store);
  expect_bitwise(g, full_, "read ahead");
  EXPECT_GT(store->prefetch_hits(), 0);
  EXPECT_LE(store->prefetch_hits(), m.tiers[1].restores + m.tiers[2].restores);
}

TEST_F(CudaMultilevel, CostsMeasuredOnTheDeviceAtStartUp) {
  StrategyReport report;
  const GradientOutput g = run(multilevel({"memory:2", "pinned:2", "disk:3"}), nullptr, &report);
  expect_bitwise(g, full_, "measured costs");
  // Once the costs are measured the schedule is known: its count is the run's (it was 0, "unknown").
  EXPECT_EQ(report.predicted_forward_steps, g.stats.forward_steps);
  ASSERT_EQ(report.tiers.size(), 3u);
  for (const Tier& t : report.tiers) {
    EXPECT_GE(t.store_cost, 0.0) << t.name;
    EXPECT_TRUE(std::isfinite(t.restore_cost)) << t.name;
  }
  // Copies over PCIe (and to a file) take longer than handing over a device slot's fields. Not on
  // cudasim, whose device memory is host memory: there a memcpy and a read from the page cache
  // take microseconds each, in either order on a loaded machine.
  EXPECT_GT(report.tiers[2].restore_cost, 0.0);
  if (!on_emulated_runtime()) {
    EXPECT_GT(report.tiers[2].restore_cost, report.tiers[0].restore_cost);
  }
}

TEST_F(CudaMultilevel, StoreDiskEqualsFullForRevolveAndOnline) {
  for (const char* name : {"revolve", "online"}) {
    CudaRunInfo info;
    const GradientOutput g = run(on_disk(name, 5), &info);
    expect_bitwise(g, full_, std::string(name) + " --store disk");
    EXPECT_EQ(info.device_slots, 0) << name;
    EXPECT_EQ(info.host_slots, 0) << name;
    EXPECT_NE(info.tier_choice.find("files in"), std::string::npos) << info.tier_choice;
    // Every store writes a slot; every restore but those of the initial state reads one.
    const std::uint64_t slot = 2 * p_->grid.field_bytes<T>();
    EXPECT_GE(g.stats.checkpoint_copy_bytes, static_cast<std::uint64_t>(g.stats.stores) * slot) << name;
    EXPECT_LE(g.stats.checkpoint_copy_bytes, static_cast<std::uint64_t>(g.stats.stores + g.stats.restores) * slot)
        << name;
    if (std::string(name) == "revolve") {
      EXPECT_EQ(g.stats.forward_steps, info.predicted_forward_steps);
    }
  }
  EXPECT_TRUE(fs::is_empty(dir_)) << "the scratch files are unlinked";
}

// fp16: the memory and pinned slots hold the device codec's bytes, the disk slots stay raw; ZFP:
// the pinned slots only are encoded (on the host). Either way within the codec's bound of full's
// gradient, and every encode is counted.
TEST_F(CudaMultilevel, CompressionEncodesItsTiersAndLeavesFilesRaw) {
  for (const auto& [mode, bound] : {std::pair<const char*, double>{"fp16", 1.5e-2}, {"zfp-rate:16", 1.5e-3}}) {
    StrategyOptions o = multilevel({"memory:2:0.1:0.1", "pinned:2:0.5:0.5", "disk:3:2:2"});
    o.compression = parse_compression(mode);
    const StrategyPlan plan = plan_of(o);
    const MultilevelCounts m = counts(plan, plan.tiers);
    const GradientOutput g = run(o);
    const double err = relative_l2(g.gradient, full_.gradient);
    EXPECT_LT(err, bound) << mode;
    EXPECT_GT(err, 0.0) << mode;
    const bool fp16 = std::string(mode) == "fp16";
    const std::int64_t encoded = (fp16 ? m.tiers[0].stores : 0) + m.tiers[1].stores;
    EXPECT_EQ(g.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(encoded)) << mode;
    EXPECT_NE(plan.choice.find("disk slots raw"), std::string::npos) << plan.choice;
  }
}

}  // namespace
}  // namespace revwave
