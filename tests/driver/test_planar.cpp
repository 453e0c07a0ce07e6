// 2D (ny = 1): a homogeneous plane against the analytic 2D Green's function, the layout (one row per
// plane, no y layer, a plane's bytes), the exact discrete adjoint (dot-product, Taylor, central
// differences) with and without the free surface, checkpointed == full bit for bit, surveys'
// windows on the plane, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "analytic_run.hpp"
#include "density_case.hpp"
#include "dot_product_median.hpp"
#include "error_message.hpp"
#include "precisions.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/acoustic/cpu_sweep.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_reference.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::SmallCase;

// The small case on a plane: an anomaly, a source near the top, a line of receivers, all at y = 0.
SmallCase planar_case(index_t nx = 31, index_t nz = 23, index_t steps = 70, int order = 4, bool surface = false) {
  SmallCase c = testing::case_on({nx, 1, nz}, 6, order, steps);
  c.grid.free_surface = surface;
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.0, 13.0}};
  for (int i = 0; i < 7; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 7.0, 0.0, 21.0});
  if (surface) c.acq.receivers.push_back({0.3 * c.grid.extent(0), 0.0, 0.0});
  return c;
}

// The 2D Green's function of m u_tt - lap u = delta(x) delta(z) delta(t), H(t - r/c) /
// (2 pi sqrt(t^2 - r^2/c^2)), convolved with the wavelet w: with tau = (r/c) cosh s the integral
// (1/2pi) int_{r/c}^t w(t - tau) / sqrt(tau^2 - r^2/c^2) dtau is (1/2pi) int_0^S w(t - (r/c) cosh s)
// ds, S = acosh(c t / r), whose integrand is smooth: the trapezoidal rule, fine in s.
double green_2d(double t, double r, double c, double f0, double t0) {
  if (c * t <= r) return 0.0;
  const double S = std::acosh(c * t / r);
  const int n = std::max(2000, static_cast<int>(S / 2e-4));
  const double ds = S / n;
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double v = ricker_value(t - (r / c) * std::cosh(i * ds), f0, t0);
    sum += (i == 0 || i == n) ? 0.5 * v : v;
  }
  return sum * ds / (2 * M_PI);
}

// Relative L2 errors of two receivers' traces (100 m and 100 m diagonally from the source) at h.
// The window ends before anything reflected from the absorbing layer can arrive (400 m away).
std::vector<double> plane_errors(double h) {
  const testing::AnalyticRun run(800, h, true, false, {{400, 0, 400}}, {{500, 0, 400}, {470, 0, 470}}, 0.4);
  std::vector<double> errors;
  for (index_t r = 0; r < 2; ++r) {
    const double dist = std::hypot(run.acq.receivers[r][0] - 400, run.acq.receivers[r][2] - 400);
    errors.push_back(run.error(r, [&](double t) { return green_2d(t, dist, run.c, run.f0, run.acq.t0); }));
  }
  return errors;
}

// With the free surface: the 2D Green's function of the source minus that of its image in z = 0.
TEST(Planar, HalfPlaneTraceMatchesTheImageSourceSolution) {
  const testing::AnalyticRun run(800, 10, true, true, {{400, 0, 60}}, {{500, 0, 60}, {450, 0, 130}, {460, 0, 0}}, 0.4);
  for (index_t r = 0; r < 2; ++r) {
    const double dx = run.acq.receivers[r][0] - 400;
    const double direct = std::hypot(dx, run.acq.receivers[r][2] - 60),
                 image = std::hypot(dx, run.acq.receivers[r][2] + 60);
    const double error = run.error(r, [&](double t) {
      return green_2d(t, direct, run.c, run.f0, run.acq.t0) - green_2d(t, image, run.c, run.f0, run.acq.t0);
    });
    std::cout << "half-plane receiver " << r << ": relative L2 error " << error << "\n";
    EXPECT_LT(error, 0.05) << "receiver " << r;
  }
  for (index_t k = 0; k < run.time.nt(); ++k) ASSERT_EQ(run.sample(2, k), 0.0) << k;
}

TEST(Planar, HomogeneousTraceMatchesThe2DGreensFunctionAndConvergesUnderRefinement) {
  const std::vector<double> coarse = plane_errors(20.0), fine = plane_errors(10.0);
  for (std::size_t r = 0; r < fine.size(); ++r) {
    std::cout << "receiver " << r << ": relative L2 error " << coarse[r] << " at h = 20 m, " << fine[r] << " at 10 m\n";
    // The issue asks for 5%.
    EXPECT_LT(fine[r], 0.05) << "receiver " << r;
    EXPECT_GT(std::log2(coarse[r] / fine[r]), 1.6) << "receiver " << r;
  }
}

TEST(Planar, AFieldIsOneRowPerPlaneWithoutALayerInY) {
  const SmallCase c = planar_case(31, 23, 10, 8);
  const Grid& g = c.grid;
  EXPECT_TRUE(g.planar());
  EXPECT_EQ(g.dimensions(), 2);
  EXPECT_EQ(g.padded(1), 1);
  EXPECT_EQ(g.alloc(1), 1);
  EXPECT_EQ(g.stride_y(), 0);
  EXPECT_EQ(g.alloc_points(), g.alloc(0) * g.alloc(2)) << "a field costs a plane";
  Grid thick = g;
  thick.shape[1] = 2;
  EXPECT_EQ(thick.alloc_points(), thick.alloc(1) * g.alloc_points()) << "a 3D grid holds alloc(1) such planes";
  for (index_t i : {index_t(0), g.padded(0) - 1})
    for (index_t k : {index_t(0), g.padded(2) - 1}) {
      const auto ijk = g.coordinates(g.index(i, 0, k));
      EXPECT_EQ(ijk, (std::array<index_t, 3>{i, 0, k}));
    }
  const Problem<double> p = make_problem<double>(g, c.true_model, c.acq, c.time);
  ASSERT_EQ(p.kappa[1].size(), 1u);
  EXPECT_EQ(p.kappa[1][0], 0.0) << "no layer in y";
  // The plane's time step bound is sqrt(3/2) times the 3D one's: the operator is the 2D Laplacian.
  EXPECT_NEAR(max_stable_dt(g, 2000.0) / max_stable_dt(thick, 2000.0), std::sqrt(1.5), 1e-12);
}

// The operator is the plane's: one sweep over a field that does not vary in y equals, bit for bit,
// the 3D sweep's middle row of a slab with the same (x, z) field and model, thick enough (2R + 1
// rows, no layer) that the middle row's stencil sees no edge: there the y pairs add u + u, as the
// plane's, whose y neighbours are the point itself, do.
TEST(Planar, OneStepEqualsTheMiddleRowOfAYInvariantSlab) {
  SmallCase c = planar_case(25, 21, 1, 8);
  c.grid.nbl = 0;
  Grid slab = c.grid;
  slab.shape[1] = 2 * slab.radius() + 1;
  const index_t middle = slab.radius();
  VelocityModel slab_model = homogeneous_model(slab.shape, 2000);
  for (index_t i = 0; i < slab.shape[0]; ++i)
    for (index_t j = 0; j < slab.shape[1]; ++j)
      for (index_t k = 0; k < slab.shape[2]; ++k)
        slab_model.velocity[static_cast<std::size_t>((i * slab.shape[1] + j) * slab.shape[2] + k)] =
            c.true_model.velocity[static_cast<std::size_t>(i * c.grid.shape[2] + k)];
  c.time.dt = default_dt(slab, max_velocity(c.true_model));  // stable in 3D too
  const Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  Acquisition slab_acq = c.acq;
  for (auto* list : {&slab_acq.sources, &slab_acq.receivers})
    for (Vec3& x : *list) x[1] = static_cast<double>(middle) * slab.spacing;
  const Problem<double> q = make_problem<double>(slab, slab_model, slab_acq, c.time);
  const auto value = [](index_t i, index_t k) {
    return std::sin(0.37 * static_cast<double>(i)) * std::cos(0.23 * static_cast<double>(k)) +
           0.01 * static_cast<double>(i + k);
  };
  std::vector<double> u(static_cast<std::size_t>(c.grid.alloc_points())), up = u, next = u;
  std::vector<double> su(static_cast<std::size_t>(slab.alloc_points())), sup = su, snext = su;
  for (index_t i = 0; i < c.grid.padded(0); ++i)
    for (index_t k = 0; k < c.grid.padded(2); ++k) {
      u[static_cast<std::size_t>(c.grid.index(i, 0, k))] = value(i, k);
      up[static_cast<std::size_t>(c.grid.index(i, 0, k))] = 0.5 * value(i, k);
      for (index_t j = 0; j < slab.padded(1); ++j) {
        su[static_cast<std::size_t>(slab.index(i, j, k))] = value(i, k);
        sup[static_cast<std::size_t>(slab.index(i, j, k))] = 0.5 * value(i, k);
      }
    }
  cpu_leapfrog_sweep<double>(p, SweepFields<double>{u.data(), up.data(), next.data()});
  cpu_leapfrog_sweep<double>(q, SweepFields<double>{su.data(), sup.data(), snext.data()});
  double scale = 0;
  for (index_t i = 0; i < c.grid.padded(0); ++i)
    for (index_t k = 0; k < c.grid.padded(2); ++k) {
      const double a = next[static_cast<std::size_t>(c.grid.index(i, 0, k))];
      const double b = snext[static_cast<std::size_t>(slab.index(i, middle, k))];
      ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a)) << i << ",0," << k << ": " << a << " against " << b;
      scale = std::max(scale, std::abs(b));
    }
  EXPECT_GT(scale, 0.0);
}

// The built-in true model's anomaly is 0.15 of the smallest side: on a plane of x and z, not of y's
// one point (a radius of 1.5 m at h = 10 m, which no grid point fell inside).
TEST(Planar, TheBuiltInModelKeepsItsAnomalyOnAPlane) {
  const std::array<index_t, 3> shape{60, 1, 40};
  const VelocityModel m = default_true_model(shape, 10.0);
  const index_t k = static_cast<index_t>(0.55 * 39);  // the anomaly's depth
  const double centre = m.at(30, 0, k), edge = m.at(0, 0, k);
  EXPECT_GT(centre, edge) << "the faster anomaly in the middle";
  index_t inside = 0;
  for (index_t i = 0; i < shape[0]; ++i)
    for (index_t z = 0; z < shape[2]; ++z) inside += m.at(i, 0, z) > m.at(0, 0, z) ? 1 : 0;
  EXPECT_GT(inside, 50);
}

TEST(Planar, RefusalsNameTheValue) {
  SmallCase c = planar_case();
  c.acq.sources = {{50, 5, 13}};
  std::string m = testing::message_of([&] { make_problem<double>(c.grid, c.true_model, c.acq, c.time); });
  EXPECT_NE(m.find("source 0 at (50, 5, 13) m lies outside the grid"), std::string::npos) << m;
  EXPECT_NE(m.find("x [0, 0] x"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;

  c = planar_case();
  for (int axis : {0, 2}) {
    Grid g = c.grid;
    g.shape[axis] = 1;
    m = testing::message_of([&] { validate(g); });
    EXPECT_NE(m.find("shape 1 on axis " + std::to_string(axis) + " is too small"), std::string::npos) << m;
    EXPECT_NE(m.find("ny = 1 makes a 2D model"), std::string::npos) << m;
  }
}

REVWAVE_PRECISION_SUITE(PlanarAdjoint, ::testing::Test);

TYPED_TEST(PlanarAdjoint, DotProductTestHolds) {
  using T = TypeParam;
  for (bool surface : {false, true})
    for (int order : {2, 8}) {
      const SmallCase c = planar_case(31, 23, 70, order, surface);
      const double median = testing::median_dot_product_error<T>(c);
      std::cout << "surface " << surface << " order " << order << ": median dot-product error " << median << "\n";
      EXPECT_LT(median, testing::dot_product_tolerance<T>()) << "surface " << surface << " order " << order;
    }
}

TEST(PlanarGradient, TaylorTestIsSecondOrder) {
  for (bool surface : {false, true}) {
    const SmallCase c = planar_case(31, 23, 70, 4, surface);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    std::vector<double> dm(c.start_model.velocity.size());
    for (std::size_t i = 0; i < dm.size(); ++i)
      dm[i] = 1.0 / std::pow(c.true_model.velocity[i], 2) - 1.0 / std::pow(c.start_model.velocity[i], 2);
    double dm_max = 0;
    for (double v : dm) dm_max = std::max(dm_max, std::abs(v));
    ASSERT_GT(dm_max, 0.0);
    for (double& v : dm) v *= 0.02 / (2500.0 * 2500.0) / dm_max;
    for (const char* name : {"full", "revolve"}) {
      const StrategyOptions s = testing::strategy(name, std::string(name) == "revolve" ? 4 : 0);
      const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 6);
      std::cout << name << (surface ? " with the surface" : "") << ": Taylor rates " << t.rate_first << ", "
                << t.rate_second << "\n";
      EXPECT_NEAR(t.rate_first, 1.0, 0.1) << name;
      EXPECT_GE(t.rate_second, 1.9) << name;
    }
  }
}

TEST(PlanarGradient, ComponentsMatchCentralDifferences) {
  const SmallCase c = planar_case(31, 23, 70, 4, true);
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  const StrategyOptions full = testing::strategy("full");
  const GradientOutput g = run_gradient(prop, d.data(), full, plan_strategy(full, c.time.steps, prop.field_bytes()));
  const index_t nz = c.grid.shape[2];
  // In the middle, in the surface's mirror rows, and at both x edges (where the layer folds in).
  for (const std::array<index_t, 2> ik : {std::array<index_t, 2>{14, 9}, std::array<index_t, 2>{12, 1},
                                          std::array<index_t, 2>{0, 7}, std::array<index_t, 2>{30, 3}}) {
    const std::size_t i = static_cast<std::size_t>(ik[0] * nz + ik[1]);
    const double fd = testing::central_difference_in_m(c, d, i);
    EXPECT_NE(fd, 0.0);
    std::cout << ik[0] << ",0," << ik[1] << ": gradient " << g.gradient[i] << " central difference " << fd
              << " relative " << std::abs(g.gradient[i] - fd) / std::abs(fd) << "\n";
    EXPECT_NEAR(g.gradient[i], fd, 1e-4 * std::abs(fd)) << ik[0] << ",0," << ik[1];
  }
}

REVWAVE_PRECISION_SUITE(PlanarCheckpointed, ::testing::Test);

TYPED_TEST(PlanarCheckpointed, EveryStrategyIsBitwiseEqualToFull) {
  const testing::TempDir dir("revwave-planar-test");
  for (bool surface : {false, true}) {
    testing::CpuGradientCase<TypeParam> b(planar_case(23, 19, 41, 8, surface));
    const GradientOutput& ref = b.ref;
    const auto runs = testing::checkpointed_strategies(dir.path().string());
    for (const auto& [what, s] : runs) {
      const GradientOutput g = b.run(s);
      ASSERT_EQ(g.gradient.size(), ref.gradient.size()) << what;
      EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)))
          << what << (surface ? " with the surface" : "");
      EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
    }
    double norm = 0;
    for (double v : ref.gradient) norm += v * v;
    EXPECT_GT(norm, 0.0);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// Compressed checkpoints on the plane: ZFP encodes a plane as a 2D field (its 4 x 4 x 4 blocks
// would be three quarters padding on one row), so zfp-rate:16 stores a quarter of double's bytes;
// fp16 a quarter too. Each gradient within its mode's error of full's.
TEST(PlanarCheckpointed, CompressedSlotsStoreAPlaneAtTheModesRate) {
  testing::CpuGradientCase<double> b(planar_case(31, 23, 60, 8));
  for (const auto& [mode, bound] : {std::pair<const char*, double>{"fp16", 1e-2}, {"zfp-rate:16", 1e-3}}) {
    StrategyOptions s = testing::strategy("revolve", 4);
    s.compression = parse_compression(mode);
    const GradientOutput g = b.run(s);
    double e2 = 0, r2 = 0;
    for (std::size_t i = 0; i < g.gradient.size(); ++i) {
      e2 += (g.gradient[i] - b.ref.gradient[i]) * (g.gradient[i] - b.ref.gradient[i]);
      r2 += b.ref.gradient[i] * b.ref.gradient[i];
    }
    std::cout << mode << ": ratio " << g.stats.compression.ratio() << ", relative L2 gradient error "
              << std::sqrt(e2 / r2) << "\n";
    EXPECT_GT(g.stats.compression.fields_compressed, 0u) << mode;
    // A quarter, less the 2D blocks' padding (4 x 4 cells over 43 x 35 padded points: 3.80 for ZFP);
    // ZFP's 3D blocks on one row gave 1.0.
    EXPECT_GT(g.stats.compression.ratio(), 3.7) << mode;
    EXPECT_GT(e2, 0.0) << mode;
    EXPECT_LT(std::sqrt(e2 / r2), bound) << mode;
  }
}

// A survey on the plane with --aperture windows (each window keeps the plane's one row) through the
// resident shot engine: the bits of the per-shot path, which makes each window's problem afresh.
TEST(PlanarSurvey, WindowedShotsGiveThePerShotPathsBits) {
  using T = double;
  for (bool surface : {false, true}) {
    SmallCase c = planar_case(41, 30, 30, 4, surface);
    Survey survey;
    for (int k = 0; k < 3; ++k) {
      Shot shot;
      shot.name = "shot " + std::to_string(k);
      const double x = (0.2 + 0.3 * k) * c.grid.extent(0), z = 12.0 + 40.0 * k;
      shot.acquisition = c.acq;
      shot.acquisition.sources = {{x, 0.0, z}};
      shot.acquisition.receivers = {{x + 20, 0.0, z + 10}, {x - 10, 0.0, z - 8}};
      shot.time = c.time;
      const Problem<T> truth = make_problem<T>(c.grid, c.true_model, shot.acquisition, c.time);
      CpuPropagator<T> prop(truth);
      const std::vector<T> d = run_forward(prop).traces;
      shot.data.assign(d.begin(), d.end());
      survey.shots.push_back(shot);
    }
    SurveyRunOptions o;
    o.strategy = testing::strategy("revolve", 4);
    o.aperture = 40.0;
    SerialShotRunner runner;
    const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
    ASSERT_EQ(sum.shots.size(), 3u);
    for (const auto& s : sum.shots) {  // window: first point, then shape
      EXPECT_EQ(s.window[4], 1) << "a window on the plane holds its one row";
      EXPECT_LT(s.window[3], c.grid.shape[0]) << "a window, not the whole model";
    }
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
    EXPECT_EQ(sum.objective, objective);
    ASSERT_EQ(sum.gradient.size(), gradient.size());
    EXPECT_EQ(std::memcmp(sum.gradient.data(), gradient.data(), gradient.size() * sizeof(double)), 0);
    double norm = 0;
    for (double v : gradient) norm += v * v;
    EXPECT_GT(norm, 0.0);
  }
}

// The variable-density equation on a plane: K's y pairs (s_k - s_k)(u_k - u_k) vanish, and what
// images dJ/drho (y, C's neighbours) and the time-step bound leave the plane's y out.
SmallCase planar_density_case(index_t steps = 60, int order = 4) {
  SmallCase c = testing::density_case(19, 1, 14, steps, order);
  EXPECT_TRUE(c.grid.planar());
  return c;
}

TEST(PlanarDensity, AConstantDensityGivesTheConstantDensityBits) {
  const SmallCase c = planar_case(31, 23, 50, 8);
  VelocityModel dense = c.true_model;
  dense.density.assign(dense.velocity.size(), 1700.0);
  EXPECT_EQ(density_dt_factor(c.grid, dense), 1.0);
  EXPECT_EQ(testing::observed_in<double>(c, dense), testing::observed_in<double>(c, c.true_model));
}

REVWAVE_PRECISION_SUITE(PlanarDensityAdjoint, ::testing::Test);

TYPED_TEST(PlanarDensityAdjoint, DotProductTestHolds) {
  using T = TypeParam;
  for (int order : {2, 8}) {
    const SmallCase c = planar_density_case(60, order);
    EXPECT_LT(testing::median_dot_product_error<T>(c, {5u, 6u, 7u}), testing::dot_product_tolerance<T>())
        << "order " << order;
  }
}

TEST(PlanarDensity, TheStableStepIsThePlanesAndCountsTheContrasts) {
  const SmallCase c = planar_density_case();
  const double factor = density_dt_factor(c.grid, c.true_model);
  EXPECT_LT(factor, 1.0) << "the density's contrasts shorten the step";
  EXPECT_GT(factor, 0.5);
  // Beyond the plane's bound the step is refused; at it, 3000 steps stay bounded.
  const double dt = max_stable_dt(c.grid, c.true_model);
  for (const auto& [scale, stable] : {std::pair<double, bool>{1.1, false}, {0.999, true}}) {
    SmallCase run = c;
    run.time.dt = dt * scale;
    run.time.steps = 3000;
    run.acq.receivers = {{0.5 * c.grid.extent(0), 0.0, 0.5 * c.grid.extent(2)}};
    if (!stable) {
      EXPECT_THROW(make_problem<double>(run.grid, run.true_model, run.acq, run.time), InputError);
      continue;
    }
    const std::vector<double> d = testing::observed_in<double>(run, run.true_model);
    double peak = 0;
    for (double v : d) peak = std::max(peak, std::abs(v));
    EXPECT_TRUE(std::isfinite(peak));
    EXPECT_LT(peak, 1.0);
  }
}

TEST(PlanarDensity, GradientsMatchCentralDifferences) {
  SmallCase c = planar_density_case();
  const std::vector<double> rho = c.start_model.density;
  for (std::size_t i = 0; i < rho.size(); ++i)
    c.true_model.density[i] = rho[i] * (1.0 + 0.05 * std::cos(0.21 * double(i)));
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const GradientOutput g = testing::density_gradient_in<double>(c, c.start_model, d);
  ASSERT_EQ(g.density_gradient.size(), rho.size());
  const index_t nz = c.grid.shape[2];
  // Between source and receivers, by the sharp layer, and at an x edge (the layer folds in).
  for (const std::array<index_t, 2> ik :
       {std::array<index_t, 2>{9, 3}, std::array<index_t, 2>{8, 8}, std::array<index_t, 2>{0, 2}}) {
    const std::size_t i = static_cast<std::size_t>(ik[0] * nz + ik[1]);
    std::vector<double> unit(rho.size(), 0.0);
    unit[i] = 1.0;
    // 1e-4: at the edge point J's curvature in rho leaves 2e-4 at 1e-3 (the difference falls as
    // eps^2: 2e-2, 2e-4, 2e-6 at 1e-2, 1e-3, 1e-4).
    const double fd_rho = testing::density_central_difference(c, d, i, 1e-4);
    EXPECT_NE(fd_rho, 0.0);
    EXPECT_NEAR(g.density_gradient[i], fd_rho, 1e-4 * std::abs(fd_rho)) << "dJ/drho at " << ik[0] << ",0," << ik[1];
    const double m0 = 1.0 / std::pow(c.start_model.velocity[i], 2), eps_m = 1e-3 * m0;
    const double fd_m =
        (forward_misfit(make_problem<double>(c.grid, perturbed_model(c.start_model, unit, eps_m), c.acq, c.time),
                        d.data()) -
         forward_misfit(make_problem<double>(c.grid, perturbed_model(c.start_model, unit, -eps_m), c.acq, c.time),
                        d.data())) /
        (2 * eps_m);
    EXPECT_NEAR(g.gradient[i], fd_m, 1e-4 * std::abs(fd_m)) << "dJ/dm at " << ik[0] << ",0," << ik[1];
  }
}

REVWAVE_PRECISION_SUITE(PlanarDensityCheckpointed, ::testing::Test);

TYPED_TEST(PlanarDensityCheckpointed, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-planar-density");
  const SmallCase c = planar_density_case(31, 4);
  const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
  const GradientOutput ref = testing::density_gradient_in<T>(c, c.start_model, d);
  const auto runs = testing::checkpointed_strategies(dir.path().string());
  for (const auto& [what, s] : runs) {
    const GradientOutput g = testing::density_gradient_in<T>(c, c.start_model, d, s);
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what;
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double))) << what;
    ASSERT_EQ(g.density_gradient.size(), ref.density_gradient.size()) << what;
    EXPECT_EQ(0, std::memcmp(g.density_gradient.data(), ref.density_gradient.data(),
                             ref.density_gradient.size() * sizeof(double)))
        << "dJ/drho, " << what;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

}  // namespace
}  // namespace revwave
