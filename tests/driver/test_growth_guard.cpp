// The growth guard (driver/growth_guard.hpp) on the CPU backend: its plan and its test on given
// samples; an unstable run (m divided by 1.3^2 behind make_problem's back) stopped with
// UnstableRunError by forward modelling and by every gradient strategy; a field that is not finite
// stopped the same way; and stable long records (sponge, C-PML, free surface, no layer, a plane) and
// a source that never ends run to the end, their largest growth far below the limit and their
// traces the bits of an unguarded loop.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "precisions.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"
#include "unstable_case.hpp"

namespace revwave {
namespace {

using testing::SmallCase;

bool says(const std::string& message, const std::string& words) { return message.find(words) != std::string::npos; }

TEST(GrowthGuard, PlansItsSamplesReferenceAndLimit) {
  Grid g = testing::small_grid({10, 10, 10}, 5, 8);
  const GrowthGuardPlan p = plan_growth_guard(g, TimeAxis{1e-3, 640}, 99, PhysicsSpec{}, 2.5);
  EXPECT_EQ(p.every, 10);  // N / 64
  EXPECT_EQ(p.last, 640);
  EXPECT_EQ(p.reference, 100);  // the first field the last significant sample has entered
  EXPECT_DOUBLE_EQ(p.limit, 250.0);
  EXPECT_EQ(p.setting, "constant density, sponge boundary, space order 8");
  EXPECT_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, 5, PhysicsSpec{}, 0.5).every, 1);           // at least 1
  EXPECT_DOUBLE_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, 5, PhysicsSpec{}, 0.5).limit, 100);  // F >= 100
  EXPECT_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, 30, PhysicsSpec{}, 1).reference, -1);       // never ends before N
  EXPECT_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, -1, PhysicsSpec{}, 1).reference, -1);       // no source at all
  g.cpml = true;
  g.free_surface = true;
  EXPECT_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, 5, PhysicsSpec{true}, 1).setting,
            "variable density, free surface, cpml boundary, space order 8");
  g.nbl = 0;
  g.cpml = false;
  g.free_surface = false;
  g.space_order = 4;
  EXPECT_EQ(plan_growth_guard(g, TimeAxis{1e-3, 30}, 5, PhysicsSpec{}, 1).setting,
            "constant density, no absorbing boundary, space order 4");
}

TEST(GrowthGuard, TheSourceEndsAtItsLastSampleAboveOneTenThousandthOfThePeak) {
  EXPECT_EQ(source_end_step(testing::short_pulse(100)), 8);
  EXPECT_EQ(source_end_step(std::vector<float>{0.f, 2.f, -1.f, 3e-4f, 1e-4f, 0.f}), 3);
  EXPECT_EQ(source_end_step(std::vector<double>(5, 0.0)), -1);
  EXPECT_EQ(source_end_step(std::vector<double>{}), -1);
}

TEST(GrowthGuard, StopsAGrowthBeyondTheLimitAndAFieldThatIsNotFinite) {
  GrowthGuardPlan plan =
      plan_growth_guard(testing::small_grid({10, 10, 10}, 5, 8), TimeAxis{1e-3, 64}, 4, PhysicsSpec{}, 1);
  GrowthGuard guard(plan);
  guard.check(4, 1e9);  // before the reference: no growth test
  guard.check(5, 2.0);  // E_ref
  guard.check(6, 200.0);
  EXPECT_DOUBLE_EQ(guard.reference(), 2.0);
  EXPECT_DOUBLE_EQ(guard.largest_growth(), 100.0);
  const std::string grew = testing::message_of([&] { guard.check(7, 202.0); });
  EXPECT_EQ(grew,
            "the wavefield grew without bound after the source ended (sum u^2 x101 at 0.007 s, the limit x100): "
            "constant density, sponge boundary, space order 8; nothing was written");
  EXPECT_THROW(guard.check(8, 1e6), UnstableRunError);

  GrowthGuard early(plan);
  const std::string nan = testing::message_of([&] { early.check(2, std::numeric_limits<double>::quiet_NaN()); });
  EXPECT_TRUE(says(nan, "the wavefield is not finite at 0.002 s (sum u^2 = nan")) << nan;
  EXPECT_TRUE(says(nan, "space order 8; nothing was written")) << nan;
  EXPECT_THROW(early.check(9, std::numeric_limits<double>::infinity()), UnstableRunError);

  GrowthGuard silent(plan);  // a source that injected nothing: E_ref = 0, no growth test
  silent.check(5, 0.0);
  EXPECT_NO_THROW(silent.check(6, 1.0));
}

REVWAVE_PRECISION_SUITE(GrowthGuardRun, ::testing::Test);

TYPED_TEST(GrowthGuardRun, AnUnstableForwardRunIsStopped) {
  using T = TypeParam;
  const SmallCase c = testing::pulse_case(128);
  const Problem<T> p = testing::unstable_problem<T>(c);
  CpuPropagator<T> prop(p);
  const std::string m = testing::message_of([&] { run_forward(prop); });
  EXPECT_TRUE(says(m, "the wavefield grew without bound after the source ended (sum u^2 x")) << m;
  EXPECT_TRUE(says(m, "the limit x100): constant density, sponge boundary, space order 4; nothing was written")) << m;
  EXPECT_THROW(run_forward(prop), UnstableRunError);
}

TYPED_TEST(GrowthGuardRun, EveryGradientStrategyStopsAnUnstableRun) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-growth-guard");
  const SmallCase c = testing::pulse_case(128);
  const Problem<T> p = testing::unstable_problem<T>(c);
  CpuPropagator<T> prop(p);
  const std::vector<T> observed(static_cast<std::size_t>(c.time.nt() * p.rec.count), T(0));
  auto runs = testing::checkpointed_strategies(dir.path().string());
  runs.emplace_back("full", testing::strategy("full"));
  for (const auto& run : runs) {  // not a structured binding: C++17 lambdas cannot capture one
    const std::string& name = run.first;
    const StrategyOptions& s = run.second;
    const StrategyPlan plan =
        plan_strategy(s, c.time.steps, physics_state(c.grid, c.start_model.physics()), field_layout<T>(c.grid));
    const std::string m = testing::message_of([&] { run_gradient(prop, observed.data(), s, plan); });
    EXPECT_TRUE(says(m, "the wavefield grew without bound after the source ended")) << name << ": " << m;
  }
}

TYPED_TEST(GrowthGuardRun, AFieldThatIsNotFiniteIsStopped) {
  using T = TypeParam;
  const SmallCase c = testing::pulse_case(128);
  Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  p.wavelet[3] = std::numeric_limits<T>::quiet_NaN();  // behind make_problem's check
  CpuPropagator<T> prop(p);
  const std::string m = testing::message_of([&] { run_forward(prop); });
  EXPECT_TRUE(says(m, "the wavefield is not finite at ")) << m;
  EXPECT_TRUE(says(m, "constant density, sponge boundary, space order 4; nothing was written")) << m;
}

// Steps the problem with the guard beside the loop, asserting the traces are run_forward's bits and
// returning the largest E / E_ref the guard saw.
template <class T>
double largest_growth_of(const Problem<T>& p) {
  CpuPropagator<T> prop(p);
  const std::vector<T> guarded = run_forward(prop).traces;  // throws if the guard fires
  GrowthGuard guard(p);
  prop.reset_forward();
  prop.record_trace(0);
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.record_trace(n + 1);
    guard.check(n + 1, prop.wavefield_energy());  // every step, not only the guard's samples
  }
  EXPECT_TRUE(testing::same_bits(prop.traces(p.time.nt()), guarded));
  EXPECT_GT(guard.reference(), 0.0);
  return guard.largest_growth();
}

// 2000 steps (about 2 s, tens of crossings of the model) after a 15 Hz Ricker wavelet, in the
// default model's contrasts: the guard stays quiet, its largest growth well below F.
TYPED_TEST(GrowthGuardRun, StableLongRecordsRunToTheEnd) {
  using T = TypeParam;
  struct Variant {
    const char* name;
    bool cpml, free_surface, planar;
    index_t nbl;
  };
  for (const Variant v :
       {Variant{"sponge", false, false, false, 6}, Variant{"cpml", true, false, false, 6},
        Variant{"cpml, free surface", true, true, false, 6}, Variant{"no absorbing layer", false, false, false, 0},
        Variant{"2D cpml", true, false, true, 6}}) {
    SmallCase c =
        v.planar ? testing::case_on({27, 1, 19}, v.nbl, 4, 2000) : testing::case_on({19, 17, 15}, v.nbl, 4, 2000);
    c.acq.sources = {{0.45 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0}};
    c.acq.receivers = {{0.7 * c.grid.extent(0), 0.5 * c.grid.extent(1), 21.0}};
    c.grid.cpml = v.cpml;
    c.grid.free_surface = v.free_surface;
    const Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    const GrowthGuard guard(p);
    ASSERT_GT(guard.plan().reference, 0) << v.name;
    ASSERT_LT(guard.plan().reference, c.time.steps / 4) << v.name;
    const double growth = largest_growth_of(p);
    std::cout << "[ growth   ] " << v.name << ": largest sum u^2 / E_ref " << growth << ", limit " << guard.plan().limit
              << "\n";
    EXPECT_LT(growth, guard.plan().limit / 10) << v.name;
  }
}

// A signature that never falls silent before N: no growth test, only finiteness.
TYPED_TEST(GrowthGuardRun, ASourceThatNeverEndsRunsToTheEnd) {
  using T = TypeParam;
  SmallCase c = testing::small_case(19, 17, 15, 600);
  c.acq.wavelet.resize(static_cast<std::size_t>(c.time.nt()));
  for (std::size_t n = 0; n < c.acq.wavelet.size(); ++n)
    c.acq.wavelet[n] = std::sin(2 * std::acos(-1.0) * 15.0 * c.time.dt * static_cast<double>(n));
  const Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  EXPECT_EQ(GrowthGuard(p).plan().reference, -1);
  CpuPropagator<T> prop(p);
  EXPECT_NO_THROW(run_forward(prop));
}

}  // namespace
}  // namespace revwave
