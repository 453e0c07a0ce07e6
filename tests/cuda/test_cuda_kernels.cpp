// Every CUDA kernel against the CPU reference backend on awkward sizes, space orders 2, 8, 16.
// Single steps from random states: agreement to 64 eps(T) of the field's maximum
// (the two differ only in FMA contraction and summation order).
#include <gtest/gtest.h>

#include "cuda_propagator.hpp"
#include "cuda_test_support.hpp"
#include "revwave/cpu_propagator.hpp"
#include "revwave/cuda_backend.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

template <class T>
class CudaKernels : public CudaTest {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CudaKernels, Precisions);

constexpr int orders[] = {2, 8, 16};

TYPED_TEST(CudaKernels, ForwardStepsAndSamplingMatchTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> cpu(p);
    CudaPropagator<T> gpu(p);
    const std::vector<T> u = random_field<T>(p.grid, 1), up = random_field<T>(p.grid, 2);
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
    const T* cup = cpu.state().u_prev.template as<T>();
    EXPECT_LE(relative_to_max(gu, std::vector<T>(cu, cu + u.size())), 64 * eps<T>());
    EXPECT_LE(relative_to_max(gup, std::vector<T>(cup, cup + u.size())), 64 * eps<T>());
    std::vector<T> cs(static_cast<std::size_t>(p.rec.count)), gs(cs.size());
    cpu.sample(cs.data());
    gpu.sample(gs.data());
    EXPECT_LE(relative_to_max(gs, cs), 64 * eps<T>());
  }
}

TYPED_TEST(CudaKernels, ReverseStepsMatchTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> cpu(p);
    CudaPropagator<T> gpu(p);
    const std::vector<T> u = random_field<T>(p.grid, 3), up = random_field<T>(p.grid, 4);
    std::memcpy(cpu.state().u.data(), u.data(), cpu.field_bytes());
    std::memcpy(cpu.state().u_prev.data(), up.data(), cpu.field_bytes());
    gpu.upload_state(u.data(), up.data());
    std::vector<T> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count));
    std::mt19937 rng(5);
    std::normal_distribution<double> normal(0, 1);
    for (auto& v : observed) v = static_cast<T>(normal(rng));
    gpu.upload_observed(observed.data(), observed.size());
    cpu.reset_adjoint();
    gpu.reset_adjoint();
    for (index_t n = 5; n >= 3; --n) {
      const T* obs = observed.data() + (n + 1) * p.rec.count;
      const double jc = cpu.reverse_step(n, obs), jg = gpu.reverse_step(n, obs);
      EXPECT_LE(std::abs(jg - jc), 64 * eps<T>() * std::abs(jc)) << "misfit of step " << n;
    }
    std::vector<T> lam(u.size()), grad(u.size());
    gpu.download_adjoint(lam.data(), grad.data());
    // The CPU's adjoint fields are private: the folded gradient carries them; lam must at least have moved.
    const std::vector<double> gc = cpu.interior_gradient(), gg = gpu.interior_gradient();
    EXPECT_LE(relative_to_max(gg, gc), 64 * eps<T>());
    EXPECT_GT(max_abs(lam), 0.0);
  }
}

TYPED_TEST(CudaKernels, ShotRecordMatchesTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    CpuPropagator<T> cpu(p);
    const ShotData<T> ref = run_forward(cpu);
    const ShotData<T> got = cuda_forward(p, CudaBudgets{});
    ASSERT_EQ(got.traces.size(), ref.traces.size());
    EXPECT_LE(relative_to_max(got.traces, ref.traces), run_tolerance<T>());
  }
}

TYPED_TEST(CudaKernels, FullGradientMatchesTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    CpuPropagator<T> model_cpu(truth);
    const std::vector<T> observed = run_forward(model_cpu).traces;
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> cpu(p);
    const StrategyOptions full = strategy("full");
    const StrategyPlan plan = plan_strategy(full, p.time.steps, cpu.field_bytes());
    const GradientOutput ref = run_gradient(cpu, observed.data(), full, plan);
    const GradientOutput got = cuda_gradient(p, observed.data(), full, plan, CudaBudgets{});
    // The gradient is a sum of products over all steps: ten times the trace tolerance.
    EXPECT_LE(std::abs(got.stats.objective - ref.stats.objective), 10 * run_tolerance<T>() * ref.stats.objective);
    EXPECT_LE(relative_to_max(got.gradient, ref.gradient), 10 * run_tolerance<T>());
  }
}

}  // namespace
}  // namespace revwave
