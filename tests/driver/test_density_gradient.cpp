// The variable-density physics (numerics/density/) through the drivers on the CPU: a constant
// density gives the constant-density bits; the exact discrete adjoint (dot-product test); dJ/dm and
// dJ/drho against the Taylor test and central differences; every checkpointed strategy equal to
// `full` bit for bit, dJ/drho included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "density_case.hpp"
#include "dot_product_median.hpp"
#include "precisions.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/survey/model_window.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::density_case;
using testing::density_gradient_in;
using testing::misfit_with_density;
using testing::observed_in;
using testing::same_bits;
using testing::SmallCase;

// J in `model` by forward modelling alone.
double misfit_in(const SmallCase& c, const VelocityModel& model, const std::vector<double>& observed) {
  return forward_misfit(make_problem<double>(c.grid, model, c.acq, c.time), observed.data());
}

REVWAVE_PRECISION_SUITE(Density, ::testing::Test);

// A constant density, scaled by itself, is 1: s = t = B = 1, the fluxes are exactly zero and K u is
// L u to the bit, whatever the value (1e-300 and 1e300 included: any constant density is the
// constant-density equation, in float too).
TYPED_TEST(Density, AConstantDensityGivesTheConstantDensityBits) {
  using T = TypeParam;
  const SmallCase c = testing::small_case(13, 11, 12, 40, 8);
  const std::vector<T> d = observed_in<T>(c, c.true_model);
  for (double rho : {1000.0, 1234.567, 1e-300, 1e300}) {
    VelocityModel truth = c.true_model, start = c.start_model;
    truth.density.assign(truth.velocity.size(), rho);
    start.density = truth.density;
    EXPECT_TRUE(same_bits(observed_in<T>(c, truth), d)) << "forward traces, rho " << rho;
    const GradientOutput plain = density_gradient_in<T>(c, c.start_model, d);
    const GradientOutput dense = density_gradient_in<T>(c, start, d);
    EXPECT_EQ(plain.stats.objective, dense.stats.objective) << rho;
    EXPECT_TRUE(same_bits(plain.gradient, dense.gradient)) << "dJ/dm, rho " << rho;
    EXPECT_TRUE(plain.density_gradient.empty());
    EXPECT_EQ(dense.density_gradient.size(), dense.gradient.size());
  }
}

TYPED_TEST(Density, DotProductTestHoldsToThePrecisionsTolerance) {
  using T = TypeParam;
  for (int order : {2, 8}) {
    SmallCase c = density_case(13, 11, 12, 60, order);
    c.acq.sources.push_back({33.3, 44.4, 55.5});
    EXPECT_LT(testing::median_dot_product_error<T>(c, {7u, 8u, 9u}), testing::dot_product_tolerance<T>())
        << "order " << order;
  }
}

TEST(DensityGradient, TaylorTestInMIsSecondOrder) {
  const SmallCase c = density_case();
  const std::vector<double> d = observed_in<double>(c, c.true_model);
  std::vector<double> dm(c.start_model.velocity.size());
  double dm_max = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) {
    dm[i] = 1.0 / std::pow(c.true_model.velocity[i], 2) - 1.0 / std::pow(c.start_model.velocity[i], 2);
    dm_max = std::max(dm_max, std::abs(dm[i]));
  }
  for (double& v : dm) v *= 0.02 / (2500.0 * 2500.0) / dm_max;
  for (const char* name : {"full", "revolve"}) {
    const StrategyOptions s = testing::strategy(name, std::string(name) == "full" ? 0 : 4);
    const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
    EXPECT_NEAR(t.rate_first, 1.0, 0.1) << name;
    EXPECT_GE(t.rate_second, 1.9) << name;
  }
}

// J(rho + h drho) - J(rho) - h <dJ/drho, drho> falls as h^2.
TEST(DensityGradient, TaylorTestInRhoIsSecondOrder) {
  SmallCase c = density_case();
  const std::vector<double> rho = c.start_model.density;
  std::vector<double> drho(rho.size());
  for (std::size_t i = 0; i < rho.size(); ++i) drho[i] = 0.03 * rho[i] * std::sin(0.37 * double(i));
  for (std::size_t i = 0; i < rho.size(); ++i) c.true_model.density[i] = rho[i] + 2.0 * drho[i];
  const std::vector<double> d = observed_in<double>(c, c.true_model);
  for (const char* name : {"full", "revolve"}) {
    const GradientOutput g =
        density_gradient_in<double>(c, c.start_model, d, testing::strategy(name, std::string(name) == "full" ? 0 : 4));
    double directional = 0;
    for (std::size_t i = 0; i < drho.size(); ++i) directional += g.density_gradient[i] * drho[i];
    std::vector<double> h, second;
    for (double step = 1.0; step > 1.0 / 128; step *= 0.5) {
      const double j = misfit_with_density(c, c.start_model, d, drho, step);
      h.push_back(step);
      second.push_back(std::abs(j - g.stats.objective - step * directional));
    }
    EXPECT_GE(log_log_slope(h, second), 1.9) << name;
    EXPECT_NE(directional, 0.0);
  }
}

// A point between source and receivers, one by the sharp layer, and an interior edge point that
// carries the absorbing layer's and the halo's shares (E^T).
TEST(DensityGradient, ComponentsMatchCentralDifferences) {
  SmallCase c = density_case();
  const std::vector<double> rho = c.start_model.density;
  for (std::size_t i = 0; i < rho.size(); ++i)
    c.true_model.density[i] = rho[i] * (1.0 + 0.05 * std::cos(0.21 * double(i)));
  const std::vector<double> d = observed_in<double>(c, c.true_model);
  const GradientOutput g = density_gradient_in<double>(c, c.start_model, d);
  const auto& s = c.grid.shape;
  for (const std::array<index_t, 3> ijk :
       {std::array<index_t, 3>{6, 5, 3}, std::array<index_t, 3>{6, 4, 7}, std::array<index_t, 3>{0, 5, 0}}) {
    const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
    const std::string where = std::to_string(ijk[0]) + "," + std::to_string(ijk[1]) + "," + std::to_string(ijk[2]);
    std::vector<double> unit(rho.size(), 0.0);
    unit[i] = 1.0;
    const double fd_rho = testing::density_central_difference(c, d, i, 1e-3);
    EXPECT_NEAR(g.density_gradient[i], fd_rho, 1e-4 * std::abs(fd_rho)) << "dJ/drho at " << where;
    EXPECT_NE(fd_rho, 0.0) << where;
    const double m0 = 1.0 / std::pow(c.start_model.velocity[i], 2), eps_m = 1e-3 * m0;
    const double fd_m = (misfit_in(c, perturbed_model(c.start_model, unit, eps_m), d) -
                         misfit_in(c, perturbed_model(c.start_model, unit, -eps_m), d)) /
                        (2 * eps_m);
    EXPECT_NEAR(g.gradient[i], fd_m, 1e-4 * std::abs(fd_m)) << "dJ/dm at " << where;
  }
}

TYPED_TEST(Density, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-density-ckpt");
  const SmallCase c = density_case(11, 9, 10, 31, 4);
  const std::vector<T> d = observed_in<T>(c, c.true_model);
  const GradientOutput ref = density_gradient_in<T>(c, c.start_model, d);
  ASSERT_EQ(ref.density_gradient.size(), ref.gradient.size());
  const std::string where = dir.path().string();
  std::vector<std::pair<std::string, StrategyOptions>> runs;
  for (index_t snaps : {1, 3, 50})
    for (const char* store : {"memory", "disk"})
      runs.push_back(
          {"revolve S=" + std::to_string(snaps) + " " + store, testing::strategy("revolve", snaps, store, where)});
  StrategyOptions ml = testing::strategy("multilevel", 0, "memory", where);
  ml.tiers = {"memory:2", "disk:3"};
  runs.push_back({"multilevel", ml});
  for (index_t snaps : {1, 4})
    for (const char* store : {"memory", "disk"})
      runs.push_back(
          {"online S=" + std::to_string(snaps) + " " + store, testing::strategy("online", snaps, store, where)});
  for (const auto& [what, s] : runs) {
    const GradientOutput g = density_gradient_in<T>(c, c.start_model, d, s);
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
    EXPECT_TRUE(same_bits(g.gradient, ref.gradient)) << "dJ/dm, " << what;
    EXPECT_TRUE(same_bits(g.density_gradient, ref.density_gradient)) << "dJ/drho, " << what;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

TEST(DensityGradient, IsNotImagedUnlessAskedAndLeavesDJdmAsItIs) {
  const SmallCase c = density_case(13, 11, 12, 30, 4);
  const std::vector<float> d = observed_in<float>(c, c.true_model);
  const GradientOutput with = density_gradient_in<float>(c, c.start_model, d);
  const GradientOutput without = density_gradient_in<float>(c, c.start_model, d, testing::strategy("full"), false);
  EXPECT_TRUE(without.density_gradient.empty());
  EXPECT_TRUE(same_bits(with.gradient, without.gradient));
}

TEST(DensityModel, BadDensitiesAreRefusedNamingTheValue) {
  SmallCase c = density_case(9, 9, 9, 10, 4);
  VelocityModel m = c.start_model;
  m.density[17] = 0;
  EXPECT_THROW(validate(m), InputError);
  try {
    make_problem<float>(c.grid, m, c.acq, c.time);
    FAIL() << "a zero density was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("density 0 kg/m^3 at (0, 1, 8) is invalid"), std::string::npos) << e.what();
  }
  m.density[17] = std::nan("");
  EXPECT_THROW(validate(m), InputError);
  // Contrasts past max_density_contrast: the precision cannot hold the fluxes' range.
  m.density = c.start_model.density;
  m.density[17] = m.density[16] * 2e12;
  try {
    make_problem<float>(c.grid, m, c.acq, c.time);
    FAIL() << "a contrast of 2e12 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("density contrast"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at most 1e+12 times the smallest"), std::string::npos) << e.what();
  }
  m.density[17] = m.density[16] * 1e6;  // 1 over 1e6 and the like run (DensityStability's cases)
  EXPECT_NO_THROW(validate_density(m));
  m.density.pop_back();
  EXPECT_THROW(validate(m), InputError);
}

// The density's contrasts shrink the stable dt; a constant density leaves it exactly as it was.
TEST(DensityModel, TheStableStepAccountsForTheContrasts) {
  const SmallCase c = density_case(9, 9, 9, 10, 8);
  VelocityModel constant = c.start_model;
  constant.density.assign(constant.velocity.size(), 1777.0);
  EXPECT_EQ(density_dt_factor(c.grid, constant), 1.0);
  EXPECT_EQ(max_stable_dt(c.grid, constant), max_stable_dt(c.grid, max_velocity(constant)));
  const double factor = density_dt_factor(c.grid, c.start_model);
  EXPECT_LT(factor, 1.0);
  EXPECT_GT(factor, 0.7);
  // Within the bound a long run stays bounded; beyond it the problem is refused.
  SmallCase run = c;
  run.time.steps = 1500;
  run.time.dt = 0.99 * max_stable_dt(c.grid, c.start_model);
  double peak = 0;
  for (double v : observed_in<double>(run, run.start_model)) peak = std::max(peak, std::abs(v));
  EXPECT_TRUE(std::isfinite(peak));
  EXPECT_LT(peak, 1.0);
  run.time.dt = 1.01 * max_stable_dt(c.grid, c.start_model);
  EXPECT_THROW(make_problem<double>(run.grid, run.start_model, run.acq, run.time), InputError);
}

// --aperture: a shot's window cuts the density with the velocities.
TEST(DensityModel, AWindowCarriesItsDensity) {
  const SmallCase c = density_case(13, 11, 12, 10, 4);
  ModelWindow w;
  w.first = {2, 3, 1};
  w.shape = {5, 4, 6};
  const VelocityModel cut = window_model(c.start_model, w);
  ASSERT_EQ(cut.density.size(), cut.velocity.size());
  for (index_t x = 0; x < 5; ++x)
    for (index_t y = 0; y < 4; ++y)
      for (index_t z = 0; z < 6; ++z)
        EXPECT_EQ(cut.density[static_cast<std::size_t>((x * 4 + y) * 6 + z)],
                  c.start_model.density[static_cast<std::size_t>(((2 + x) * 11 + 3 + y) * 12 + 1 + z)]);
  EXPECT_TRUE(window_model(homogeneous_model(c.grid.shape, 2000), w).density.empty());
}

}  // namespace
}  // namespace revwave
