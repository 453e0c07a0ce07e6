// Every sweep kernel under every strategy: the checkpointed gradients equal `full` bit for bit with
// each kernel, and on the emulation every kernel's bits are the columns kernel's (the bits of a
// run without compression do not depend on the sweep variant).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cuda_test_support.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaSweepVariants : public CudaTest {};

void expect_bitwise(const GradientOutput& a, const GradientOutput& b, const std::string& what) {
  EXPECT_EQ(std::memcmp(&a.stats.objective, &b.stats.objective, sizeof(double)), 0) << what;
  ASSERT_EQ(a.gradient.size(), b.gradient.size());
  EXPECT_EQ(std::memcmp(a.gradient.data(), b.gradient.data(), a.gradient.size() * sizeof(double)), 0) << what;
}

TEST_F(CudaSweepVariants, EveryStrategyWithEverySweepKernelEqualsFull) {
  using T = float;
  const Case c = awkward_case(8, 40, {21, 17, 15});
  const std::vector<T> observed = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  GradientOutput columns_full;
  for (SweepKernel kernel : sweep_kernels) {
    const auto gradient = [&](const StrategyOptions& o) {
      CudaPropagator<T> prop(p);
      prop.set_sweep_kernel(kernel);
      return run_gradient(prop, observed.data(), o, plan_strategy(o, p.time.steps, prop.field_bytes()));
    };
    const GradientOutput full = gradient(strategy("full"));
    if (kernel == SweepKernel::columns) columns_full = full;
    for (const char* s : {"revolve", "online"}) {
      expect_bitwise(gradient(strategy(s, 5)), full, std::string(s) + " against full, " + to_string(kernel));
    }
    if (rounds_as_written())
      expect_bitwise(full, columns_full, std::string("full, ") + to_string(kernel) + " against columns");
  }
}

}  // namespace
}  // namespace revwave
