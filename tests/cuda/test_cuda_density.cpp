// The variable-density physics on the CUDA backend against the CPU reference: single forward and
// reverse steps from random states (dJ/drho's accumulators included) on awkward sizes; whole
// gradients under every strategy equal to `full` bit for bit, dJ/drho included; the dot-product
// test of K and its transpose on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "cuda_gradient_test.hpp"
#include "cuda_test_support.hpp"
#include "density_case.hpp"
#include "precisions.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

REVWAVE_PRECISION_SUITE(CudaDensity, CudaTest);

// The awkward case with the layered density, imaging dJ/drho.
Case density_awkward_case(int order, index_t steps = 40) {
  Case c = awkward_case(order, steps, {21, 13, 19});
  c.true_model.density = testing::layered_density(c.grid.shape);
  c.start_model.density = c.true_model.density;
  c.time.dt *= density_dt_factor(c.grid, c.true_model);
  return c;
}

template <class T>
Problem<T> imaging_problem(const Case& c, const VelocityModel& model) {
  Problem<T> p = make_problem<T>(c.grid, model, c.acq, c.time);
  p.density->image = true;
  return p;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Three forward steps, then three reverse steps with a random adjoint source, from random states.
TYPED_TEST(CudaDensity, StepsMatchTheCpu) {
  using T = TypeParam;
  for (int order : {2, 8, 16}) {
    const Case c = density_awkward_case(order);
    const Problem<T> p = imaging_problem<T>(c, c.start_model);
    CpuPropagator<T> cpu(p);
    CudaPropagator<T> gpu(p);
    const Grid& g = p.grid;
    const std::vector<T> u = random_field<T>(g, 11), up = random_field<T>(g, 12);
    std::memcpy(cpu.state().u.data(), u.data(), cpu.field_bytes());
    std::memcpy(cpu.state().u_prev.data(), up.data(), cpu.field_bytes());
    gpu.upload_state(u.data(), up.data());
    for (index_t n = 0; n < 3; ++n) {
      cpu.forward_step(n);
      gpu.forward_step(n);
    }
    std::vector<T> gu(u.size()), gup(u.size());
    gpu.download_state(gu.data(), gup.data());
    const T* cu = cpu.state().u.template as<T>();
    EXPECT_LE(relative_to_max(gu, std::vector<T>(cu, cu + u.size())), 64 * eps<T>()) << "order " << order;

    std::vector<T> source(static_cast<std::size_t>(p.time.nt() * p.rec.count));
    for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<T>(std::sin(0.7 * double(i)));
    cpu.set_adjoint_source(source);
    gpu.set_adjoint_source(source);
    cpu.reset_adjoint();
    gpu.reset_adjoint();
    for (index_t n = 5; n >= 3; --n) {
      cpu.record_next_trace(n + 1);
      gpu.record_next_trace(n + 1);
      cpu.reverse_step(n);
      gpu.reverse_step(n);
    }
    EXPECT_LE(relative_to_max(gpu.traces(p.time.nt()), cpu.traces(p.time.nt())), 64 * eps<T>()) << "order " << order;
    EXPECT_LE(relative_to_max(gpu.interior_gradient(), cpu.interior_gradient()), 64 * eps<T>()) << "order " << order;
    const std::vector<double> rc = cpu.density_gradient(), rg = gpu.density_gradient();
    ASSERT_EQ(rc.size(), static_cast<std::size_t>(g.interior_points()));
    EXPECT_GT(max_abs(rc), 0.0);
    EXPECT_LE(relative_to_max(rg, rc), 256 * eps<T>()) << "dJ/drho, order " << order;
  }
}

TYPED_TEST(CudaDensity, EveryStrategyEqualsFullBitForBitAndTheCpuToTheRunTolerance) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cuda-density");
  const Case c = density_awkward_case(8, 37);
  const std::vector<T> observed = cuda_forward(make_problem<T>(c.grid, c.true_model, c.acq, c.time), CudaBudgets{}).traces;
  const Problem<T> p = imaging_problem<T>(c, c.start_model);
  auto run = [&](const StrategyOptions& s, const CudaBudgets& b = {}) {
    return cuda_gradient(p, observed.data(), s, plan_strategy(s, c.time.steps, field_layout<T>(c.grid)), b);
  };
  const GradientOutput full = run(strategy("full"));
  ASSERT_EQ(full.density_gradient.size(), full.gradient.size());
  std::vector<std::pair<std::string, StrategyOptions>> runs;
  for (index_t snaps : {1, 4}) runs.push_back({"revolve S=" + std::to_string(snaps), strategy("revolve", snaps)});
  StrategyOptions disk = strategy("revolve", 3);
  disk.store = StoreKind::disk;
  disk.checkpoint_dir = dir.path().string();
  runs.push_back({"revolve on disk", disk});
  StrategyOptions ml = strategy("multilevel");
  ml.tiers = {"memory:2", "disk:3"};
  ml.checkpoint_dir = dir.path().string();
  runs.push_back({"multilevel", ml});
  runs.push_back({"online S=3", strategy("online", 3)});
  for (const auto& [what, s] : runs) {
    const GradientOutput g = run(s);
    EXPECT_EQ(g.stats.objective, full.stats.objective) << what;
    EXPECT_TRUE(same_bits(g.gradient, full.gradient)) << "dJ/dm, " << what;
    EXPECT_TRUE(same_bits(g.density_gradient, full.density_gradient)) << "dJ/drho, " << what;
  }
  // Every slot, and the history, in pinned host memory.
  for (const char* name : {"online", "full"}) {
    const GradientOutput pinned = run(strategy(name, std::string(name) == "full" ? 0 : 4), pinned_only_budgets());
    EXPECT_TRUE(same_bits(pinned.gradient, full.gradient)) << name << " on pinned host memory";
    EXPECT_TRUE(same_bits(pinned.density_gradient, full.density_gradient)) << name << " on pinned host memory";
  }
  // The CPU reference on the same problem and data.
  CpuPropagator<T> cpu(p);
  const StrategyOptions s = strategy("full");
  const GradientOutput ref = run_gradient(cpu, observed.data(), s, plan_strategy(s, c.time.steps, cpu.field_bytes()));
  EXPECT_LE(relative_to_max(full.gradient, ref.gradient), 100 * run_tolerance<T>());
  EXPECT_LE(relative_to_max(full.density_gradient, ref.density_gradient), 100 * run_tolerance<T>());
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

TEST_F(CudaTest, DensityDotProductTestHoldsInDouble) {
  Case c = density_awkward_case(8, 50);
  const DotProductResult r = dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 3, Backend::cuda);
  EXPECT_GT(std::abs(r.forward_product), 0.0);
  EXPECT_LT(r.relative_error, 1e-12);
}

}  // namespace
}  // namespace revwave
