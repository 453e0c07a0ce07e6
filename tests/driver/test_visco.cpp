// The visco-acoustic physics (numerics/visco/) through the drivers on the CPU: Q = infinity gives
// the acoustic field value for value; the exact discrete adjoint (dot-product test, 3D and 2D,
// under a free surface too); dJ/dm against the Taylor test and central differences; every
// checkpointed strategy equal to `full` bit for bit (the memory variables are part of the state);
// long-time stability at the bound; what it refuses, with the value and the rule.
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
#include "visco_case.hpp"

namespace revwave {
namespace {

using testing::add_attenuation;
using testing::expect_same_values;
using testing::gradient_in;
using testing::refusal;
using testing::same_bits;
using testing::SmallCase;
using testing::visco_case;

// The same case on a plane (x, z).
SmallCase visco_plane_case(index_t steps = 80, bool surface = false) {
  SmallCase c = testing::case_on({23, 1, 19}, 6, 8, steps);
  c.grid.free_surface = surface;
  c.acq.sources = {{0.45 * c.grid.extent(0), 0, 23.0}};
  for (int i = 0; i < 6; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 6.0, 0, 31.0});
  add_attenuation(c.true_model, c.acq.f0);
  add_attenuation(c.start_model, c.acq.f0);
  testing::set_visco_dt(c);
  return c;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  return std::sqrt(diff / norm);
}

REVWAVE_PRECISION_SUITE(Visco, ::testing::Test);

// Where Q is infinite e1 = 1 and e2 = beta = 0: the operator is L u plus signed zeros and the
// memory variables stay zero, so traces, J and dJ/dm are the acoustic values (3D and a plane).
TYPED_TEST(Visco, InfiniteQGivesTheAcousticValues) {
  using T = TypeParam;
  for (bool plane : {false, true}) {
    SmallCase c = plane ? visco_plane_case() : testing::small_case(13, 11, 12, 60, 8);
    c.true_model.q.clear();
    c.start_model.q.clear();
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const GradientOutput acoustic = gradient_in<T>(c, c.start_model, d);
    const std::string where = plane ? "plane" : "3D";
    for (VelocityModel* m : {&c.true_model, &c.start_model}) {
      m->q.assign(m->velocity.size(), INFINITY);
      m->q_frequency = m->q_f0 = c.acq.f0;
    }
    expect_same_values(testing::observed_in<T>(c, c.true_model), d, "traces, " + where);
    const GradientOutput visco = gradient_in<T>(c, c.start_model, d);
    EXPECT_EQ(visco.stats.objective, acoustic.stats.objective) << where;
    expect_same_values(visco.gradient, acoustic.gradient, "dJ/dm, " + where);
  }
}

// Under a free surface the completed rows round in another order (the mirror's share added to L u
// before the update rather than after it): the same field to rounding.
TEST(ViscoForward, InfiniteQUnderAFreeSurfaceIsTheAcousticFieldToRounding) {
  SmallCase c = testing::small_case(13, 11, 12, 60, 8);
  c.grid.free_surface = true;
  c.true_model.q.clear();
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  c.true_model.q.assign(c.true_model.velocity.size(), INFINITY);
  c.true_model.q_frequency = c.true_model.q_f0 = c.acq.f0;
  EXPECT_LT(relative_difference(testing::observed_in<double>(c, c.true_model), d), 1e-13);
}

// Attenuation takes energy from the traces (a test of the others' power).
TEST(ViscoForward, AttenuationWeakensTheTraces) {
  const SmallCase c = visco_case(13, 11, 12, 90);
  VelocityModel elastic = c.true_model;
  elastic.q.clear();
  const std::vector<double> a = testing::observed_in<double>(c, c.true_model);
  const std::vector<double> b = testing::observed_in<double>(c, elastic);
  double ea = 0, eb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ea += a[i] * a[i], eb += b[i] * b[i];
  EXPECT_LT(ea, 0.95 * eb);
  EXPECT_GT(relative_difference(a, b), 0.02);
}

TYPED_TEST(Visco, DotProductTestHoldsToThePrecisionsTolerance) {
  using T = TypeParam;
  for (int order : {2, 8})
    for (bool surface : {false, true}) {
      SmallCase c = visco_case(13, 11, 12, 60, order, surface);
      c.acq.sources.push_back({33.3, 44.4, 55.5});
      EXPECT_LT(testing::median_dot_product_error<T>(c, {7u, 8u, 9u}), testing::dot_product_tolerance<T>())
          << "order " << order << (surface ? ", free surface" : "");
    }
}

TEST(ViscoAdjoint, DotProductTestHoldsOnAPlane) {
  for (bool surface : {false, true})
    EXPECT_LT(testing::median_dot_product_error<double>(visco_plane_case(80, surface), {7u, 8u, 9u}),
              testing::dot_product_tolerance<double>())
        << (surface ? "free surface" : "");
}

TEST(ViscoGradient, TaylorTestInMIsSecondOrder) {
  for (int run = 0; run < 3; ++run) {
    const bool plane = run == 1;
    const SmallCase c = plane ? visco_plane_case() : visco_case(13, 11, 12, 60, 4, run == 2);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const std::vector<double> dm = testing::towards_true_model(c);
    for (const char* name : {"full", "revolve"}) {
      const StrategyOptions s = testing::strategy(name, std::string(name) == "full" ? 0 : 4);
      const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
      EXPECT_GE(t.rate_second, 1.9) << name << " run " << run;
    }
  }
}

// A point between the source and the receivers, one by the anomaly, an edge point that carries the
// layer's share, and the source's own point.
TEST(ViscoGradient, ComponentsMatchCentralDifferences) {
  for (bool surface : {false, true})
    testing::expect_gradient_matches_central_differences(visco_case(13, 11, 12, 60, 4, surface),
                                                         surface ? "free surface" : "");
}

// The memory variables ride in each field's tail, so a checkpoint and a stored history step hold
// them as they hold u: every strategy's bits are full's.
TYPED_TEST(Visco, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  for (bool surface : {false, true})
    testing::expect_every_strategy_equals_full<T>(visco_case(11, 9, 10, 31, 4, surface), surface ? "free surface" : "");
}

// Its state is two fields of u and three memory variables each: a slot is four times the acoustic
// one, and a stored history step keeps u and its memory variables.
TEST(ViscoState, TheMemoryVariablesQuadrupleTheSlotAndTheHistoryStep) {
  const SmallCase c = visco_case(11, 9, 10, 8, 4);
  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  EXPECT_EQ(p.grid.extra_fields, 3);
  const std::size_t field = static_cast<std::size_t>(c.grid.alloc_points()) * sizeof(float);
  EXPECT_EQ(p.grid.field_bytes<float>(), 4 * field);
  const StateShape state = physics_state(p.grid, physics_of(p));
  EXPECT_EQ(state.bytes(field, sizeof(float)), 8 * field);
  EXPECT_EQ(history_step_bytes<float>(p.grid, physics_of(p)), 4 * field);
  CpuPropagator<float> prop(p);
  EXPECT_EQ(prop.history_step_bytes(), 4 * field);
}

// The strongest attenuation a run accepts (Q 5) varying from point to point beside points without
// any (Q infinite), at 0.999 of the largest stable dt its factor gives, for 3000 steps: the energy
// falls from one third of the run to the next and stays finite.
TEST(ViscoStability, StrongVaryingAttenuationStaysBoundedForLong) {
  SmallCase c = visco_plane_case(3000);
  c.true_model = homogeneous_model(c.grid.shape, 2500.0);
  add_attenuation(c.true_model, c.acq.f0, min_quality);
  for (std::size_t i = 0; i < c.true_model.q.size(); i += 5) c.true_model.q[i] = INFINITY;
  c.time.dt = 0.999 * max_stable_dt(c.grid, c.true_model);
  testing::expect_energy_falls_by_thirds(c);
}

TEST(ViscoModel, BadQualityFactorsAreRefusedNamingTheValueAndThePoint) {
  const SmallCase c = visco_case(9, 9, 9, 10, 4);
  VelocityModel m = c.start_model;
  m.q[17] = 4.5;
  EXPECT_NE(refusal(c, m).find("Q 4.5 at (0, 1, 8) is invalid: Q must be a number of at least 5"), std::string::npos)
      << refusal(c, m);
  m = c.start_model;
  m.q[5] = std::nan("");
  EXPECT_NE(refusal(c, m).find("Q nan at (0, 0, 5) is invalid"), std::string::npos) << refusal(c, m);
  m = c.start_model;
  m.q.pop_back();
  EXPECT_NE(refusal(c, m).find("Q has 728 values, the model's shape needs 729"), std::string::npos) << refusal(c, m);
  m = c.start_model;
  m.q_frequency = 0;
  EXPECT_NE(refusal(c, m).find("the Q reference frequency 0 Hz is invalid"), std::string::npos) << refusal(c, m);
}

TEST(ViscoModel, WhatItDoesNotRunWithIsRefused) {
  SmallCase c = visco_case(9, 9, 9, 10, 4);
  Grid g = c.grid;
  c.grid.cpml = true;
  EXPECT_NE(refusal(c, c.start_model).find("Q (the visco-acoustic physics) does not run with the C-PML boundary"),
            std::string::npos)
      << refusal(c, c.start_model);
  c.grid = g;
  VelocityModel m = c.start_model;
  m.density.assign(m.velocity.size(), 1000.0);
  EXPECT_NE(refusal(c, m).find("a density"), std::string::npos);
  m = c.start_model;
  m.epsilon.assign(m.velocity.size(), 0.1);
  m.delta.assign(m.velocity.size(), 0.0);
  EXPECT_NE(refusal(c, m).find("do not run with Q (attenuation)"), std::string::npos) << refusal(c, m);
  EXPECT_THROW(check_backend_runs(Backend::cuda, c.start_model.physics()), InputError);
  EXPECT_NO_THROW(check_backend_runs(Backend::cpu, c.start_model.physics()));
}

// The factor is 1 without attenuation; with it, the unrelaxed (infinite-frequency) velocity
// sqrt(e1) v bounds the step: above the reference frequency's v, so the factor is below 1, by
// more for a lower Q, and a dt past it is refused.
TEST(ViscoModel, TheStableStepFollowsTheUnrelaxedVelocity) {
  SmallCase c = visco_case(9, 9, 9, 10, 4);
  VelocityModel m = homogeneous_model(c.grid.shape, 2000.0);
  EXPECT_EQ(visco_dt_factor(m), 1.0);
  m.q_frequency = m.q_f0 = c.acq.f0;
  m.q.assign(m.velocity.size(), INFINITY);
  EXPECT_EQ(visco_dt_factor(m), 1.0);
  m.q.assign(m.velocity.size(), 100.0);
  const double f100 = visco_dt_factor(m);
  m.q.assign(m.velocity.size(), 10.0);
  const double f10 = visco_dt_factor(m);
  EXPECT_LT(f100, 1.0);
  EXPECT_LT(f10, f100);
  EXPECT_GT(f10, 0.8);
  c.time.dt = 1.01 * max_stable_dt(c.grid, m);
  EXPECT_NE(refusal(c, m).find("is unstable"), std::string::npos) << refusal(c, m);
}

}  // namespace
}  // namespace revwave
