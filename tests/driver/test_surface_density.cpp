// --free-surface with --density: K and K^T read the rows above z = 0 from the mirror image (u and
// lam odd, s and t even; density/cpu_sweep.cpp). A constant density gives the free surface's bits;
// the adjoint is exact (dot-product test); dJ/dm and dJ/drho pass the Taylor test and central
// differences at the surface and in the rows whose stencils reach across it; every checkpointed
// strategy equals `full` bit for bit; the stable step counts the mirrored contrasts; the same on a
// plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <utility>

#include "density_case.hpp"
#include "dot_product_median.hpp"
#include "precisions.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::density_gradient_in;
using testing::misfit_with_density;
using testing::same_bits;
using testing::SmallCase;

// The layered density case (its density varies from the surface down) with a free surface, a
// receiver on the surface and one between it and the first row; the source lies in the rows whose
// stencils reach across z = 0. ny = 1 gives the plane.
SmallCase surface_density_case(index_t ny = 11, index_t steps = 60, int order = 4) {
  SmallCase c = testing::density_case(13, ny, 12, steps, order);
  c.grid.free_surface = true;
  const double y = ny == 1 ? 0.0 : 0.5 * c.grid.extent(1);
  c.acq.sources = {{0.45 * c.grid.extent(0), y, 13.0}};
  c.acq.receivers.push_back({0.3 * c.grid.extent(0), y, 0.0});
  c.acq.receivers.push_back({0.6 * c.grid.extent(0), y, 4.0});
  c.time.dt = testing::density_case_dt(c);
  return c;
}

// The open-topped grid twice as deep as a free surface's (its middle row is the surface, nz - 1
// rows down) and the model mirrored about that row, density included.
std::pair<Grid, VelocityModel> mirrored_about_the_surface(const Grid& g, const VelocityModel& model) {
  const index_t nz = g.shape[2];
  Grid twice = g;
  twice.free_surface = false;
  twice.shape[2] = 2 * nz - 1;
  VelocityModel mirrored;
  mirrored.shape = twice.shape;
  for (index_t xy = 0; xy < g.shape[0] * g.shape[1]; ++xy)
    for (index_t z = 0; z < twice.shape[2]; ++z) {
      const auto from = static_cast<std::size_t>(xy * nz + std::abs(z - (nz - 1)));
      mirrored.velocity.push_back(model.velocity[from]);
      if (model.has_density()) mirrored.density.push_back(model.density[from]);
    }
  return {twice, mirrored};
}

std::vector<double> forward_traces(const Problem<double>& p) {
  CpuPropagator<double> prop(p);
  return run_forward(prop).traces;
}

// The method of images, on the grid: the field below a free surface is the field of an open grid
// twice as deep, whose density and velocity are mirrored about its middle row, driven by the
// source and its image of opposite sign (by linearity: two runs, subtracted). The open grid has
// no surface code at all; its top layer is the mirror of the bottom one. Traces agree to rounding.
double image_method_difference(int order, bool density) {
  SmallCase c = surface_density_case(9, 70, order);
  if (!density) c.start_model.density.clear();
  const VelocityModel& model = c.start_model;
  const auto open = mirrored_about_the_surface(c.grid, model);  // the grid twice as deep, its model
  const double plane = c.grid.extent(2);                        // the surface's depth in the open grid
  const auto traces = [&](double source_z) {
    const auto& [twice, mirrored] = open;
    Acquisition acq = c.acq;
    acq.sources[0][2] = source_z;
    for (Vec3& r : acq.receivers) r[2] += plane;
    return forward_traces(make_problem<double>(twice, mirrored, acq, c.time));
  };
  const std::vector<double> surface = forward_traces(make_problem<double>(c.grid, model, c.acq, c.time));
  const std::vector<double> source = traces(plane + c.acq.sources[0][2]);
  const std::vector<double> image = traces(plane - c.acq.sources[0][2]);
  double peak = 0, worst = 0;
  for (std::size_t i = 0; i < surface.size(); ++i) {
    peak = std::max(peak, std::abs(surface[i]));
    worst = std::max(worst, std::abs(surface[i] - (source[i] - image[i])));
  }
  EXPECT_GT(peak, 0.0);
  return worst / peak;
}

TEST(SurfaceDensityPhysics, EqualsTheOpenGridWithTheMirroredModelAndAnImageSource) {
  for (int order : {4, 8})
    for (bool density : {true, false}) {
      const double d = image_method_difference(order, density);
      std::cout << "order " << order << (density ? ", density" : ", constant density")
                << ": largest trace difference / peak " << d << "\n";
      EXPECT_LT(d, 1e-12) << "order " << order << (density ? ", density" : "");
    }
}

REVWAVE_PRECISION_SUITE(SurfaceDensity, ::testing::Test);

// The pairs (s_i - s_k)(...) vanish exactly, mirrored or not: the free surface's own bits.
TYPED_TEST(SurfaceDensity, AConstantDensityGivesTheFreeSurfacesBits) {
  using T = TypeParam;
  for (int order : {4, 8}) {
    SmallCase c = surface_density_case(11, 40, order);
    c.true_model.density.clear();
    c.start_model.density.clear();
    c.time.dt = default_dt(c.grid, std::max(max_velocity(c.true_model), max_velocity(c.start_model)));
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    VelocityModel truth = c.true_model, start = c.start_model;
    truth.density.assign(truth.velocity.size(), 1234.567);
    start.density = truth.density;
    EXPECT_EQ(density_dt_factor(c.grid, truth), 1.0);
    EXPECT_TRUE(same_bits(testing::observed_in<T>(c, truth), d)) << "traces, order " << order;
    const GradientOutput plain = density_gradient_in<T>(c, c.start_model, d);
    const GradientOutput dense = density_gradient_in<T>(c, start, d);
    EXPECT_EQ(plain.stats.objective, dense.stats.objective) << order;
    EXPECT_TRUE(same_bits(plain.gradient, dense.gradient)) << "dJ/dm, order " << order;
    EXPECT_EQ(dense.density_gradient.size(), dense.gradient.size());
  }
}

TYPED_TEST(SurfaceDensity, DotProductTestHolds) {
  using T = TypeParam;
  for (index_t ny : {11, 1})
    for (int order : {2, 8}) {
      const SmallCase c = surface_density_case(ny, 60, order);
      EXPECT_LT(testing::median_dot_product_error<T>(c, {7u, 8u, 9u}), testing::dot_product_tolerance<T>())
          << "ny " << ny << ", order " << order;
    }
}

TEST(SurfaceDensityGradient, TaylorTestsInMAndRhoAreSecondOrder) {
  SmallCase c = surface_density_case();
  const std::vector<double> rho = c.start_model.density;
  std::vector<double> drho(rho.size());
  for (std::size_t i = 0; i < rho.size(); ++i) drho[i] = 0.03 * rho[i] * std::sin(0.37 * double(i));
  c.true_model.density = rho;
  for (std::size_t i = 0; i < rho.size(); ++i) c.true_model.density[i] += 2.0 * drho[i];
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  std::vector<double> dm(rho.size());
  for (std::size_t i = 0; i < dm.size(); ++i) dm[i] = 3e-9 * std::cos(0.23 * double(i));
  for (const char* name : {"full", "revolve"}) {
    const StrategyOptions s = testing::strategy(name, std::string(name) == "full" ? 0 : 4);
    const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
    EXPECT_GE(t.rate_second, 1.9) << "m, " << name;
    const GradientOutput g = density_gradient_in<double>(c, c.start_model, d, s);
    double directional = 0;
    for (std::size_t i = 0; i < drho.size(); ++i) directional += g.density_gradient[i] * drho[i];
    EXPECT_NE(directional, 0.0);
    std::vector<double> h, second;
    for (double step = 1.0; step > 1.0 / 128; step *= 0.5) {
      h.push_back(step);
      second.push_back(
          std::abs(misfit_with_density(c, c.start_model, d, drho, step) - g.stats.objective - step * directional));
    }
    EXPECT_GE(log_log_slope(h, second), 1.9) << "rho, " << name;
  }
}

// Depth 0 (the surface: its density enters the rows below once, not also through its own
// mirror), depths 1 .. R - 1 (the rows whose z pairs reach across z = 0 into the mirror), depth R,
// an x edge at the surface (the layer folds in) and the bottom (the row gap below it folds in, and
// the next row's surface rows no longer read that gap), for space orders 4 and 8.
TEST(SurfaceDensityGradient, ComponentsMatchCentralDifferencesAtAndBelowTheSurface) {
  for (int order : {4, 8}) {
    SmallCase c = surface_density_case(11, 90, order);  // long enough for the bottom to matter
    const std::vector<double> rho = c.start_model.density;
    for (std::size_t i = 0; i < rho.size(); ++i)
      c.true_model.density[i] = rho[i] * (1.0 + 0.05 * std::cos(0.21 * double(i)));
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const GradientOutput g = density_gradient_in<double>(c, c.start_model, d);
    const auto& s = c.grid.shape;
    const index_t r = c.grid.radius();
    std::vector<std::array<index_t, 3>> points = {{6, 5, 0}, {0, 5, 0}, {5, 5, r}, {6, 4, s[2] - 1}};
    for (index_t z = 1; z < r; ++z) points.push_back({6, 5, z});
    for (const auto& ijk : points) {
      const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
      const std::string where = "order " + std::to_string(order) + " at " + std::to_string(ijk[0]) + "," +
                                std::to_string(ijk[1]) + "," + std::to_string(ijk[2]);
      const double fd_rho = testing::density_central_difference(c, d, i, 1e-4);
      EXPECT_NE(fd_rho, 0.0) << where;
      EXPECT_NEAR(g.density_gradient[i], fd_rho, 1e-4 * std::abs(fd_rho)) << "dJ/drho " << where;
      if (ijk[2] == 0) continue;  // m at the surface: u = 0 there, dJ/dm is 0 (the free surface's test)
      std::vector<double> unit(rho.size(), 0.0);
      unit[i] = 1.0;
      const double m0 = 1.0 / std::pow(c.start_model.velocity[i], 2), eps_m = 1e-3 * m0;
      const auto misfit_m = [&](double h) {
        return forward_misfit(make_problem<double>(c.grid, perturbed_model(c.start_model, unit, h), c.acq, c.time),
                              d.data());
      };
      const double fd_m = (misfit_m(eps_m) - misfit_m(-eps_m)) / (2 * eps_m);
      EXPECT_NEAR(g.gradient[i], fd_m, 1e-4 * std::abs(fd_m)) << "dJ/dm " << where;
    }
  }
}

// A grid shallower than the stencil (nz 3, no layer, order 8: 3 padded rows, R = 4): the top
// rows' mirror images reach past the padded rows into the row gap, whose density (the bottom
// row's, by extension) folds into the bottom row. Central differences at every depth.
TEST(SurfaceDensityGradient, AGridShallowerThanTheStencilImagesItsGapThroughTheMirror) {
  SmallCase c = testing::case_on({10, 1, 3}, 0, 8, 60);
  c.grid.free_surface = true;
  c.true_model.density = testing::layered_density(c.grid.shape);
  c.start_model.density = c.true_model.density;
  for (std::size_t i = 0; i < c.true_model.density.size(); ++i)
    c.true_model.density[i] *= 1.0 + 0.05 * std::cos(0.7 * double(i));
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.0, 13.0}};
  c.acq.receivers = {{0.2 * c.grid.extent(0), 0.0, 6.0}, {0.8 * c.grid.extent(0), 0.0, 20.0}};
  c.time.dt = 0.9 * std::min(max_stable_dt(c.grid, c.true_model), max_stable_dt(c.grid, c.start_model));
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const GradientOutput g = density_gradient_in<double>(c, c.start_model, d);
  for (index_t z = 0; z < 3; ++z) {
    const auto i = static_cast<std::size_t>(4 * 3 + z);
    const double fd = testing::density_central_difference(c, d, i, 1e-4);
    EXPECT_NE(fd, 0.0) << "depth " << z;
    EXPECT_NEAR(g.density_gradient[i], fd, 1e-4 * std::abs(fd)) << "dJ/drho at depth " << z;
  }
}

REVWAVE_PRECISION_SUITE(SurfaceDensityCheckpointed, ::testing::Test);

TYPED_TEST(SurfaceDensityCheckpointed, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-surface-density");
  for (index_t ny : {9, 1}) {
    const SmallCase c = surface_density_case(ny, 31, 4);
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const GradientOutput ref = density_gradient_in<T>(c, c.start_model, d);
    ASSERT_EQ(ref.density_gradient.size(), ref.gradient.size());
    for (const auto& [what, s] : testing::checkpointed_strategies(dir.path().string())) {
      const GradientOutput g = density_gradient_in<T>(c, c.start_model, d, s);
      EXPECT_EQ(g.stats.objective, ref.stats.objective) << what << ", ny " << ny;
      EXPECT_TRUE(same_bits(g.gradient, ref.gradient)) << "dJ/dm, " << what << ", ny " << ny;
      EXPECT_TRUE(same_bits(g.density_gradient, ref.density_gradient)) << "dJ/drho, " << what << ", ny " << ny;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// The surface's rows sum their mirrored neighbours' ratios: the bound is that of the same density
// mirrored into an open-topped grid twice as deep (the rows below its middle see what the surface's
// rows see). A skin ten times denser in the top two rows makes the mirror matter; the bound holds
// over a long run and a step beyond it is refused.
TEST(SurfaceDensityModel, TheStableStepIsTheMirroredDensitys) {
  const SmallCase c = surface_density_case(9, 10, 8);
  EXPECT_LT(density_dt_factor(c.grid, c.true_model), 1.0);
  VelocityModel skin = c.true_model;
  const index_t nz = c.grid.shape[2];
  for (std::size_t i = 0; i < skin.density.size(); ++i)
    if (static_cast<index_t>(i) % nz < 2) skin.density[i] *= 10.0;
  const auto [twice, mirrored] = mirrored_about_the_surface(c.grid, skin);
  const double factor = density_dt_factor(c.grid, skin);
  EXPECT_NEAR(factor, density_dt_factor(twice, mirrored), 1e-12 * factor);
  EXPECT_LT(factor, density_dt_factor(c.grid, c.true_model)) << "the skin shortens the step";
  SmallCase run = c;
  run.true_model = skin;
  run.time.steps = 1500;
  run.time.dt = 0.99 * max_stable_dt(c.grid, skin);
  double peak = 0;
  for (double v : testing::observed_in<double>(run, skin)) peak = std::max(peak, std::abs(v));
  EXPECT_TRUE(std::isfinite(peak));
  EXPECT_LT(peak, 1.0);
  run.time.dt = 1.01 * max_stable_dt(c.grid, skin);
  EXPECT_THROW(make_problem<double>(run.grid, skin, run.acq, run.time), InputError);
}

// The top face has no layer, so interior depth 0 is padded depth 0: every interior point's
// coefficient is its own (scaled) density's, and a dJ/drho sums to its interior points.
TEST(SurfaceDensityModel, EachPointCarriesItsOwnDensity) {
  const SmallCase c = surface_density_case(9, 10, 4);
  const Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  const double* t = p.density->t.as<double>();
  const double reference = p.density->reference;
  const auto& n = c.grid.shape;
  for (index_t x = 0; x < n[0]; ++x)
    for (index_t y = 0; y < n[1]; ++y)
      for (index_t z = 0; z < n[2]; ++z)
        ASSERT_EQ(t[c.grid.interior_index(x, y, z)],
                  std::sqrt(c.true_model.density[static_cast<std::size_t>((x * n[1] + y) * n[2] + z)] / reference))
            << x << "," << y << "," << z;
}

}  // namespace
}  // namespace revwave
