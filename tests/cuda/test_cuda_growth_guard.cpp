// The growth guard on the CUDA backend (and cudasim): an unstable run (m divided by 1.3^2 behind
// make_problem's back) stopped with UnstableRunError by forward modelling and a checkpointed
// gradient, as on the CPU; a stable long record runs to the end with the same traces, bit for bit,
// as a loop that never reads the field back (the guard's device reduction changes nothing).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cuda_test_support.hpp"
#include "precisions.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "unstable_case.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

bool says(const std::string& message, const std::string& words) { return message.find(words) != std::string::npos; }

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UnstableRunError& e) {
    return e.what();
  }
  return "(no UnstableRunError)";
}

REVWAVE_PRECISION_SUITE(CudaGrowthGuard, CudaTest);

TYPED_TEST(CudaGrowthGuard, AnUnstableRunIsStopped) {
  using T = TypeParam;
  const Case c = testing::pulse_case(128);
  const Problem<T> p = testing::unstable_problem<T>(c);
  const std::string forward = message_of([&] { cuda_forward(p, DeviceBudgets{}); });
  EXPECT_TRUE(says(forward, "the wavefield grew without bound after the source ended (sum u^2 x")) << forward;
  EXPECT_TRUE(says(forward, "constant density, sponge boundary, space order 4; nothing was written")) << forward;

  const std::vector<T> observed(static_cast<std::size_t>(c.time.nt() * p.rec.count), T(0));
  const StrategyOptions revolve = strategy("revolve", 3);
  const StrategyPlan plan =
      plan_strategy(revolve, c.time.steps, physics_state(c.grid, c.start_model.physics()), field_layout<T>(c.grid));
  const std::string gradient = message_of([&] { cuda_gradient(p, observed.data(), revolve, plan, DeviceBudgets{}); });
  EXPECT_TRUE(says(gradient, "the wavefield grew without bound after the source ended")) << gradient;
}

TYPED_TEST(CudaGrowthGuard, AStableLongRecordKeepsItsBits) {
  using T = TypeParam;
  for (const bool cpml : {false, true}) {
    Case c = testing::small_case(19, 17, 15, 300);
    c.grid.cpml = cpml;
    const Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    CudaPropagator<T> prop(p);
    const std::vector<T> guarded = run_forward(prop).traces;
    prop.reset_forward();
    prop.record_trace(0);
    for (index_t n = 0; n < p.time.steps; ++n) {
      prop.forward_step(n);
      prop.record_trace(n + 1);
    }
    EXPECT_TRUE(testing::same_bits(prop.traces(p.time.nt()), guarded)) << (cpml ? "cpml" : "sponge");
  }
}

}  // namespace
}  // namespace revwave
