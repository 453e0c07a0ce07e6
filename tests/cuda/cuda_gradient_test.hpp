// The fixture of the GPU suites that hold gradients against `full`'s: a float problem on an
// awkward case, its observed data modelled on the device, and full's gradient on the device,
// made before each test (and skipped with it where no device is usable).
#pragma once
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda_test_support.hpp"
#include "revwave/driver/cuda_backend.hpp"

namespace revwave::cuda_testing {

class CudaGradientTest : public CudaTest {
 protected:
  using T = float;
  explicit CudaGradientTest(Case c) : c_(std::move(c)) {}
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped()) return;
    const Problem<T> truth = make_problem<T>(c_.grid, c_.true_model, c_.acq, c_.time);
    observed_ = cuda_forward(truth, DeviceBudgets{}).traces;
    p_ = std::make_unique<Problem<T>>(make_problem<T>(c_.grid, c_.start_model, c_.acq, c_.time));
    full_ = run(strategy("full"), DeviceBudgets{}, nullptr);
  }
  // A gradient on the device as the suite plans it (with --compress, on the fields' layout).
  virtual GradientOutput run(const StrategyOptions& o, const DeviceBudgets& b, CudaRunInfo* info) = 0;

  Case c_;
  std::vector<T> observed_;
  std::unique_ptr<Problem<T>> p_;
  GradientOutput full_;
};

// Every slot in pinned host memory: a device budget of one byte holds none.
inline DeviceBudgets pinned_only_budgets() {
  DeviceBudgets b;
  b.device_memory = 1;
  b.host_memory = std::size_t(1) << 30;
  return b;
}

// A physics' checkpointing on the device (the free surface's, a plane's): gradients planned on the
// fields' bytes, and revolve, online (device and pinned slots) and full with a pinned history each
// equal to full on the device, bit for bit.
class CudaPhysicsCheckpointing : public CudaGradientTest {
 protected:
  using CudaGradientTest::CudaGradientTest;
  GradientOutput run(const StrategyOptions& o, const DeviceBudgets& b, CudaRunInfo* info = nullptr) override {
    return cuda_gradient(*p_, observed_.data(), o, plan_strategy(o, p_->time.steps, p_->grid.field_bytes<T>()), b,
                         info);
  }
  void expect_every_placement_equals_full() {
    std::vector<std::pair<std::string, GradientOutput>> runs;
    runs.emplace_back("revolve", run(strategy("revolve", 5), DeviceBudgets{}));
    runs.emplace_back("online", run(strategy("online", 4), DeviceBudgets{}));
    runs.emplace_back("online pinned", run(strategy("online", 4), pinned_only_budgets()));
    runs.emplace_back("full, pinned history", run(strategy("full"), pinned_only_budgets()));
    for (const auto& [what, g] : runs) {
      ASSERT_EQ(g.gradient.size(), full_.gradient.size()) << what;
      EXPECT_EQ(0, std::memcmp(g.gradient.data(), full_.gradient.data(), g.gradient.size() * sizeof(double))) << what;
      EXPECT_EQ(g.stats.objective, full_.stats.objective) << what;
    }
  }
};

}  // namespace revwave::cuda_testing
