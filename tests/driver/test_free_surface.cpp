// --free-surface: the homogeneous half-space against the image-source solution, the exact discrete
// adjoint (dot-product, Taylor, central differences) and checkpointed == full bit for bit with the
// surface, receivers on the surface record zero, and a source on or above it is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "analytic_run.hpp"
#include "dot_product_median.hpp"
#include "error_message.hpp"
#include "precisions.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::SmallCase;

// The small case with a free surface, a receiver on it and one between it and the first row.
SmallCase surface_case(index_t nx = 19, index_t ny = 17, index_t nz = 15, index_t steps = 60, int order = 4) {
  SmallCase c = testing::small_case(nx, ny, nz, steps, order);
  c.grid.free_surface = true;
  c.acq.receivers.push_back({0.3 * c.grid.extent(0), 0.5 * c.grid.extent(1), 0.0});
  c.acq.receivers.push_back({0.6 * c.grid.extent(0), 0.5 * c.grid.extent(1), 4.0});
  return c;
}

// Relative L2 errors of two receivers' traces against the direct wave minus its image in z = 0.
std::vector<double> half_space_errors(double h, double* surface_peak) {
  const testing::AnalyticRun run(400, h, false, true, {{200, 200, 60}},
                                 {{300, 200, 60}, {200, 280, 120}, {260, 200, 0}}, 0.32);
  const auto& acq = run.acq;
  std::vector<double> errors;
  for (index_t r = 0; r < 2; ++r) {
    double direct = 0, image = 0;
    for (int a = 0; a < 3; ++a) {
      const double s = acq.sources[0][a] * (a == 2 ? -1 : 1);  // the image source at z = -60
      direct += std::pow(acq.receivers[r][a] - acq.sources[0][a], 2);
      image += std::pow(acq.receivers[r][a] - s, 2);
    }
    direct = std::sqrt(direct);
    image = std::sqrt(image);
    errors.push_back(run.error(r, [&](double t) {
      return ricker_value(t - direct / run.c, run.f0, acq.t0) / (4 * M_PI * direct) -
             ricker_value(t - image / run.c, run.f0, acq.t0) / (4 * M_PI * image);
    }));
  }
  *surface_peak = 0;
  for (index_t k = 0; k < run.time.nt(); ++k) *surface_peak = std::max(*surface_peak, std::abs(run.sample(2, k)));
  return errors;
}

TEST(FreeSurface, HalfSpaceTraceMatchesTheImageSourceSolution) {
  double surface_peak = 1;
  const std::vector<double> errors = half_space_errors(10.0, &surface_peak);
  for (std::size_t r = 0; r < errors.size(); ++r) {
    std::cout << "half-space receiver " << r << ": relative L2 error " << errors[r] << "\n";
    // The issue asks for 5%. Measured: 1.4% and 1.0%; without the mirror's share (zeros read above
    // z = 0) 4.4% and 4.2%, so the bound is the measured error's, with room, to notice that.
    EXPECT_LT(errors[r], 0.025) << "receiver " << r;
  }
  EXPECT_EQ(surface_peak, 0.0) << "a receiver on the free surface records zero";
}

TEST(FreeSurface, ASourceOnOrAboveTheSurfaceIsRefusedWithOneLine) {
  SmallCase c = surface_case();
  for (double z : {0.0, -5.0}) {
    c.acq.sources = {{50, 50, z}};
    const std::string m = testing::message_of([&] { make_problem<double>(c.grid, c.true_model, c.acq, c.time); });
    EXPECT_NE(m.find("free surface"), std::string::npos) << m;
    EXPECT_NE(m.find(z == 0 ? " on " : " above "), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  c.grid.free_surface = false;
  c.acq.sources = {{50, 50, 0.0}};
  EXPECT_NO_THROW(make_problem<double>(c.grid, c.true_model, c.acq, c.time));
}

TEST(FreeSurface, TheTopFaceHasNoLayer) {
  SmallCase c = surface_case();
  EXPECT_EQ(c.grid.padded(2), c.grid.shape[2] + c.grid.nbl);
  EXPECT_EQ(c.grid.padded(0), c.grid.shape[0] + 2 * c.grid.nbl);
  const Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  EXPECT_EQ(p.kappa[2][0], 0.0) << "the top face does not absorb";
  EXPECT_GT(p.kappa[2].back(), 0.0);
}

REVWAVE_PRECISION_SUITE(FreeSurfaceAdjoint, ::testing::Test);

TYPED_TEST(FreeSurfaceAdjoint, DotProductTestHolds) {
  using T = TypeParam;
  for (int order : {2, 8}) {
    SmallCase c = surface_case(19, 17, 15, 70, order);
    c.acq.sources.push_back({33.3, 44.4, 5.5});  // between the surface and the first row
    const double median = testing::median_dot_product_error<T>(c);
    std::cout << "order " << order << ": median dot-product relative error of three draws " << median << "\n";
    EXPECT_LT(median, testing::dot_product_tolerance<T>()) << "order " << order;
  }
}

TEST(FreeSurfaceGradient, TaylorTestIsSecondOrder) {
  const SmallCase c = surface_case();
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  std::vector<double> dm(c.start_model.velocity.size());
  for (std::size_t i = 0; i < dm.size(); ++i)
    dm[i] = 1.0 / std::pow(c.true_model.velocity[i], 2) - 1.0 / std::pow(c.start_model.velocity[i], 2);
  double dm_max = 0;
  for (double v : dm) dm_max = std::max(dm_max, std::abs(v));
  for (double& v : dm) v *= 0.02 / (2500.0 * 2500.0) / dm_max;
  for (const char* name : {"full", "revolve"}) {
    const StrategyOptions s = testing::strategy(name, std::string(name) == "revolve" ? 4 : 0);
    const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
    std::cout << name << ": Taylor rates " << t.rate_first << ", " << t.rate_second << "\n";
    EXPECT_NEAR(t.rate_first, 1.0, 0.1) << name;
    EXPECT_GE(t.rate_second, 1.9) << name;
  }
}

TEST(FreeSurfaceGradient, ComponentsMatchCentralDifferences) {
  const SmallCase c = surface_case();
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  const StrategyOptions full = testing::strategy("full");
  const GradientOutput g = run_gradient(prop, d.data(), full, plan_strategy(full, c.time.steps, prop.field_bytes()));
  const auto& s = c.grid.shape;
  // On the surface (no unknown: zero), in the mirror's rows (z = 1, 2) and below, and at an edge.
  for (const std::array<index_t, 3> ijk : {std::array<index_t, 3>{9, 7, 1}, std::array<index_t, 3>{8, 8, 2},
                                           std::array<index_t, 3>{9, 7, 5}, std::array<index_t, 3>{0, 7, 1}}) {
    const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
    const double fd = testing::central_difference_in_m(c, d, i);
    EXPECT_NE(fd, 0.0);
    std::cout << ijk[0] << "," << ijk[1] << "," << ijk[2] << ": gradient " << g.gradient[i] << " central difference "
              << fd << " relative " << std::abs(g.gradient[i] - fd) / std::abs(fd) << "\n";
    EXPECT_NEAR(g.gradient[i], fd, 1e-4 * std::abs(fd)) << ijk[0] << "," << ijk[1] << "," << ijk[2];
  }
  EXPECT_EQ(g.gradient[static_cast<std::size_t>((9 * s[1] + 7) * s[2])], 0.0) << "u = 0 on the surface";
}

REVWAVE_PRECISION_SUITE(FreeSurfaceCheckpointed, ::testing::Test);

TYPED_TEST(FreeSurfaceCheckpointed, EveryStrategyIsBitwiseEqualToFull) {
  const testing::TempDir dir("revwave-fs-test");
  testing::CpuGradientCase<TypeParam> b(surface_case(13, 11, 9, 41, 8));
  const GradientOutput& ref = b.ref;
  const auto runs = testing::checkpointed_strategies(dir.path().string());
  for (const auto& [what, s] : runs) {
    const GradientOutput g = b.run(s);
    ASSERT_EQ(g.gradient.size(), ref.gradient.size()) << what;
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
  }
  double norm = 0;
  for (double v : ref.gradient) norm += v * v;
  EXPECT_GT(norm, 0.0);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

}  // namespace
}  // namespace revwave
