// The pseudo-acoustic VTI physics (numerics/vti/) through the drivers on the CPU: epsilon = delta =
// 0 gives the isotropic field value for value; the exact discrete adjoint (dot-product test, 3D and
// 2D); dJ/dm against the Taylor test and central differences; every checkpointed strategy equal to
// `full` bit for bit; what it refuses, with the value and the rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "dot_product_median.hpp"
#include "physics_checks.hpp"
#include "precisions.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"
#include "vti_case.hpp"

namespace revwave {
namespace {

using testing::add_anisotropy;
using testing::expect_same_values;
using testing::gradient_in;
using testing::refusal;
using testing::same_bits;
using testing::SmallCase;
using testing::vti_case;

// The same case on a plane (x, z).
SmallCase vti_plane_case(index_t steps = 80, bool surface = false) {
  SmallCase c = testing::case_on({23, 1, 19}, 6, 8, steps);
  c.grid.free_surface = surface;
  c.acq.sources = {{0.45 * c.grid.extent(0), 0, 23.0}};
  for (int i = 0; i < 6; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 6.0, 0, 31.0});
  add_anisotropy(c.true_model);
  add_anisotropy(c.start_model);
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt = default_dt(c.grid, vmax) * vti_dt_factor(c.grid, c.true_model);
  return c;
}

REVWAVE_PRECISION_SUITE(Vti, ::testing::Test);

// Where epsilon = delta = 0 every correction of the pair is a signed zero, d stays zero, and p is
// the isotropic u: traces, J and dJ/dm the same values (3D and a plane).
TYPED_TEST(Vti, ZeroAnisotropyGivesTheIsotropicValues) {
  using T = TypeParam;
  for (int run = 0; run < 3; ++run) {
    const bool plane = run == 1;
    SmallCase c = plane ? vti_plane_case() : testing::small_case(13, 11, 12, 60, 8);
    c.grid.free_surface = run == 2;
    c.true_model.epsilon.clear();
    c.true_model.delta.clear();
    c.start_model.epsilon.clear();
    c.start_model.delta.clear();
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const GradientOutput iso = gradient_in<T>(c, c.start_model, d);
    VelocityModel zero = c.true_model;
    add_anisotropy(zero, 0.0);
    const std::string where = plane ? "plane" : run == 2 ? "3D under a free surface" : "3D";
    expect_same_values(testing::observed_in<T>(c, zero), d, "traces, " + where);
    add_anisotropy(c.start_model, 0.0);
    const GradientOutput vti = gradient_in<T>(c, c.start_model, d);
    EXPECT_EQ(vti.stats.objective, iso.stats.objective) << where;
    expect_same_values(vti.gradient, iso.gradient, "dJ/dm, " + where);
  }
}

// The anisotropy changes the data (a test of the others' power: the pair is not isotropic).
TEST(VtiForward, AnisotropyMovesTheTraces) {
  const SmallCase c = vti_case();
  VelocityModel iso = c.true_model;
  iso.epsilon.clear();
  iso.delta.clear();
  const std::vector<double> a = testing::observed_in<double>(c, c.true_model);
  const std::vector<double> b = testing::observed_in<double>(c, iso);
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  EXPECT_GT(std::sqrt(diff / norm), 0.05);
}

TYPED_TEST(Vti, DotProductTestHoldsToThePrecisionsTolerance) {
  using T = TypeParam;
  for (int order : {2, 8})
    for (bool surface : {false, true}) {
      SmallCase c = vti_case(13, 11, 12, 60, order, surface);
      c.acq.sources.push_back({33.3, 44.4, 55.5});
      EXPECT_LT(testing::median_dot_product_error<T>(c, {7u, 8u, 9u}), testing::dot_product_tolerance<T>())
          << "order " << order << (surface ? ", free surface" : "");
    }
}

// On the plane in double only: its fast-varying coefficients make a float draw's error the double
// one's times the precisions' ratio of epsilons (measured: 1e-14 and 2e-14 in double against 1e-5
// and 2e-5 in float), rounding, not the transpose, which double resolves to 1e-12.
TEST(VtiAdjoint, DotProductTestHoldsOnAPlane) {
  for (bool surface : {false, true})
    EXPECT_LT(testing::median_dot_product_error<double>(vti_plane_case(80, surface), {7u, 8u, 9u}),
              testing::dot_product_tolerance<double>())
        << (surface ? "free surface" : "");
}

TEST(VtiGradient, TaylorTestInMIsSecondOrder) {
  for (int run = 0; run < 3; ++run) {
    const bool plane = run == 1;
    const SmallCase c = plane ? vti_plane_case() : vti_case(13, 11, 12, 60, 4, run == 2);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const std::vector<double> dm = testing::towards_true_model(c);
    for (const char* name : {"full", "revolve"}) {
      const StrategyOptions s = testing::strategy(name, std::string(name) == "full" ? 0 : 4);
      const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
      if (!plane) {  // the plane's J is curved there: 1.3
        EXPECT_NEAR(t.rate_first, 1.0, 0.1) << name;
      }
      EXPECT_GE(t.rate_second, 1.9) << name << " run " << run;
    }
  }
}

// A point between the source and the receivers, one by the anomaly, an edge point that carries the
// layer's share, and the source's own point (where the propagator and the pair share the imaging).
// (At (6, 5, 2), nearer the source, the difference's own error is 1e-4 of the value at this step
// and falls as its square: 2.6e-5 at half of it.)
TEST(VtiGradient, ComponentsMatchCentralDifferences) {
  for (bool surface : {false, true})
    testing::expect_gradient_matches_central_differences(vti_case(13, 11, 12, 60, 4, surface),
                                                         surface ? "free surface" : "");
}

// The pair's second field rides in each field's tail, so a checkpoint and a stored history step
// hold it as they hold u: every strategy's bits are full's.
TYPED_TEST(Vti, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  for (bool surface : {false, true})
    testing::expect_every_strategy_equals_full<T>(vti_case(11, 9, 10, 31, 4, surface), surface ? "free surface" : "");
}

// Its state is two pairs of fields, so a slot is twice the isotropic one, and a stored history
// step keeps p and d.
TEST(VtiState, APairDoublesTheSlotAndTheHistoryStep) {
  const SmallCase c = vti_case(11, 9, 10, 8, 4);
  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  EXPECT_EQ(p.grid.extra_fields, 1);
  const std::size_t field = static_cast<std::size_t>(c.grid.alloc_points()) * sizeof(float);
  EXPECT_EQ(p.grid.field_bytes<float>(), 2 * field);
  const StateShape state = physics_state(p.grid, physics_of(p));
  EXPECT_EQ(state.bytes(field, sizeof(float)), 4 * field);
  EXPECT_EQ(history_step_bytes<float>(p.grid, physics_of(p)), 2 * field);
  CpuPropagator<float> prop(p);
  EXPECT_EQ(prop.history_step_bytes(), 2 * field);
}

// Strong anisotropy varying from point to point (elliptic points among them), at 0.999 of the
// largest stable dt its factor gives (a bound that is sharp for a homogeneous medium, whose
// checkerboard mode meets it), for 3000 steps: nothing grows. The pair's slow branch (a
// pseudo-acoustic medium with epsilon > delta has one) leaves the small grid slowly, so the energy
// falls from one third of the run to the next rather than vanishing. Without the factor this dt is
// about 1.25 times the bound and the field overflows within the run.
TEST(VtiStability, StrongVaryingAnisotropyStaysBoundedForLong) {
  SmallCase c = vti_plane_case(3000);
  c.true_model = homogeneous_model(c.grid.shape, 2500.0);
  add_anisotropy(c.true_model);
  for (std::size_t i = 0; i < c.true_model.epsilon.size(); ++i) {
    c.true_model.epsilon[i] = 0.5 + 0.1 * std::sin(1.3 * double(i));
    c.true_model.delta[i] = c.true_model.epsilon[i] * (0.5 + 0.5 * std::cos(0.9 * double(i)));
    if (i % 7 == 0) c.true_model.delta[i] = c.true_model.epsilon[i];  // elliptic points
  }
  c.time.dt = 0.999 * max_stable_dt(c.grid, c.true_model);
  testing::expect_energy_falls_by_thirds(c);
}

TEST(VtiModel, BadParametersAreRefusedNamingTheValueAndThePoint) {
  const SmallCase c = vti_case(9, 9, 9, 10, 4);
  VelocityModel m = c.start_model;
  m.epsilon[17] = 0.01;
  m.delta[17] = 0.2;
  EXPECT_NE(refusal(c, m).find("epsilon 0.01 < delta 0.2 at (0, 1, 8)"), std::string::npos) << refusal(c, m);
  EXPECT_NE(refusal(c, m).find("give epsilon >= delta"), std::string::npos);
  m = c.start_model;
  m.delta[3] = -0.5;
  m.epsilon[3] = 0.1;
  EXPECT_NE(refusal(c, m).find("delta -0.5 at (0, 0, 3) is invalid"), std::string::npos) << refusal(c, m);
  m = c.start_model;
  m.epsilon[5] = std::nan("");
  EXPECT_NE(refusal(c, m).find("epsilon nan at (0, 0, 5) is invalid"), std::string::npos) << refusal(c, m);
  m = c.start_model;
  m.delta.clear();
  EXPECT_NE(refusal(c, m).find("give both"), std::string::npos) << refusal(c, m);
}

TEST(VtiModel, WhatItDoesNotRunWithIsRefused) {
  SmallCase c = vti_case(9, 9, 9, 10, 4);
  Grid g = c.grid;
  c.grid.cpml = true;
  EXPECT_NE(refusal(c, c.start_model).find("the C-PML boundary (give --boundary sponge)"), std::string::npos);
  c.grid = g;
  VelocityModel m = c.start_model;
  m.density.assign(m.velocity.size(), 1000.0);
  EXPECT_NE(refusal(c, m).find("a density"), std::string::npos);
  EXPECT_THROW(check_backend_runs(Backend::cuda, m.physics()), InputError);
  EXPECT_NO_THROW(check_backend_runs(Backend::cpu, c.start_model.physics()));
  EXPECT_NO_THROW(check_backend_runs(Backend::cuda, PhysicsSpec{}));
}

// dt past the factor's bound is refused; the factor is 1 where the medium is isotropic and the
// horizontal velocity's where epsilon = delta (an elliptic medium, whose operator is c^2 (1 + 2 eps)
// on Hxy and c^2 on Hz).
TEST(VtiModel, TheStableStepFollowsTheAnisotropy) {
  SmallCase c = vti_case(9, 9, 9, 10, 4);
  VelocityModel m = c.start_model;
  add_anisotropy(m, 0.0);
  EXPECT_EQ(vti_dt_factor(c.grid, m), 1.0);
  m = homogeneous_model(c.grid.shape, 2000.0);
  m.epsilon.assign(m.velocity.size(), 0.25);
  m.delta = m.epsilon;
  // lambda = largest eigenvalue of [[2 E, sqrt2 S], [sqrt2 S, 1]] with S^2 = E = 1.5: 2E + 1 = 4 over 3.
  EXPECT_NEAR(vti_dt_factor(c.grid, m), std::sqrt(3.0 / 4.0), 1e-15);
  c.time.dt = 1.01 * max_stable_dt(c.grid, m);
  EXPECT_NE(refusal(c, m).find("is unstable"), std::string::npos) << refusal(c, m);
}

}  // namespace
}  // namespace revwave
