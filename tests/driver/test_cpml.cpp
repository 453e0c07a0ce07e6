// --boundary cpml: the C-PML's exact discrete adjoint (dot-product, Taylor, central differences)
// and checkpointed == full bit for bit, the auxiliary fields being part of the state a checkpoint
// holds; on its own, with the free surface, with a density (dJ/drho too), on a plane (ny = 1), and all
// together (a plane with a density under a free surface). The echo is measured by profiling/cpml_echo
// (docs/physics/boundaries.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "cpml_case.hpp"
#include "density_case.hpp"
#include "dot_product_median.hpp"
#include "error_message.hpp"
#include "precisions.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::SmallCase;

using Variant = testing::CpmlVariant;
constexpr Variant variants[] = {Variant::open, Variant::surface, Variant::density, Variant::planar, Variant::together};

bool on_a_plane(Variant v) { return v == Variant::planar || v == Variant::together; }

StrategyPlan plan_for(const StrategyOptions& s, const SmallCase& c, std::size_t value_bytes) {
  FieldLayout l = value_bytes == 4 ? field_layout<float>(c.grid) : field_layout<double>(c.grid);
  return plan_strategy(s, c.time.steps, physics_state(c.grid, c.start_model.physics()), l);
}

TEST(Cpml, ATooThinLayerIsRefusedWithOneLine) {
  SmallCase c = cpml_case(Variant::open, 10, 8);
  c.grid.nbl = 3;
  const std::string m = testing::message_of([&] { make_problem<double>(c.grid, c.true_model, c.acq, c.time); });
  EXPECT_NE(m.find("--nbl 3"), std::string::npos) << m;
  EXPECT_NE(m.find("cpml"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  c.grid.nbl = 4;
  EXPECT_NO_THROW(make_problem<double>(c.grid, c.true_model, c.acq, c.time));
}

TEST(Cpml, TheStateCountsTheAuxiliaryValues) {
  const SmallCase c = cpml_case(Variant::open);
  const Grid& g = c.grid;
  const index_t px = g.padded(0), py = g.padded(1), pz = g.padded(2), n = g.nbl;
  EXPECT_EQ(g.cpml_values(), 2 * (2 * n * py * pz + 2 * n * px * pz + 2 * n * px * py));
  EXPECT_EQ(g.field_bytes<float>(), static_cast<std::size_t>(g.alloc_points() + g.cpml_values()) * 4);
  const StrategyPlan p = plan_for(testing::strategy("revolve", 3), c, 4);
  EXPECT_EQ(p.slot_bytes, 2 * g.field_bytes<float>());
  // --checkpoint-memory buys slots of that size: three slots' bytes give three, one byte less two.
  StrategyOptions b = testing::strategy("revolve");
  b.checkpoint_memory = 3 * p.slot_bytes;
  EXPECT_EQ(plan_for(b, c, 4).snaps, 3);
  b.checkpoint_memory = 3 * p.slot_bytes - 1;
  EXPECT_EQ(plan_for(b, c, 4).snaps, 2);
  // --compress: a slot holds the two fields' encodings, each with its tail's after the grid's.
  StrategyOptions z = testing::strategy("revolve");
  z.compression = parse_compression("fp16");
  z.checkpoint_memory = 3 * p.slot_bytes;
  const StrategyPlan zp = plan_for(z, c, 4);
  const std::size_t box = 8 + 2 * static_cast<std::size_t>(px * py * pz),
                    tail = 8 + 2 * static_cast<std::size_t>(g.cpml_values());
  EXPECT_EQ(zp.slot_bytes, 2 * (((box + 7) / 8 * 8 + tail + 127) / 128 * 128));
  EXPECT_EQ(zp.snaps, std::min<index_t>(c.time.steps, static_cast<index_t>(*z.checkpoint_memory / zp.slot_bytes)));
  EXPECT_GT(zp.snaps, 3);
  Grid sponge = g;
  sponge.cpml = false;
  EXPECT_EQ(sponge.cpml_values(), 0);
}

REVWAVE_PRECISION_SUITE(CpmlAdjoint, ::testing::Test);

TYPED_TEST(CpmlAdjoint, DotProductTestHolds) {
  using T = TypeParam;
  for (Variant v : variants) {
    const SmallCase c = cpml_case(v, 50, v == Variant::open ? 8 : 4);
    const double median = testing::median_dot_product_error<T>(c);
    std::cout << name(v) << ": median dot-product relative error " << median << "\n";
    EXPECT_LT(median, testing::dot_product_tolerance<T>()) << name(v);
  }
}

TEST(CpmlGradient, TaylorTestIsSecondOrder) {
  for (Variant v : variants) {
    const SmallCase c = cpml_case(v, 50);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const std::vector<double> dm = testing::towards_true_model(c);
    const StrategyOptions s = testing::strategy(v == Variant::open ? "revolve" : "full", v == Variant::open ? 4 : 0);
    const TaylorResult t = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, s, 5);
    std::cout << name(v) << ": Taylor rates " << t.rate_first << ", " << t.rate_second << "\n";
    EXPECT_GE(t.rate_second, 1.9) << name(v);
  }
}

TEST(CpmlGradient, ComponentsMatchCentralDifferences) {
  for (Variant v : variants) {
    const SmallCase c = cpml_case(v, 50);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<double> prop(p);
    const StrategyOptions full = testing::strategy("full");
    const GradientOutput g = run_gradient(prop, d.data(), full, plan_for(full, c, 8));
    const auto& s = c.grid.shape;
    // Near the source's depth: on the x = 0 face (the layer's share folded onto it), one point
    // inside it, on the far x face (on the plane, whose far face the wave barely reaches, two points
    // inside the near one); and under the top face (a layer, or the free surface's rows).
    const index_t zs = on_a_plane(v) ? 1 : 2, ym = s[1] / 2;
    for (const std::array<index_t, 3> ijk :
         {std::array<index_t, 3>{0, ym, zs}, std::array<index_t, 3>{1, ym, zs + 1},
          std::array<index_t, 3>{on_a_plane(v) ? 2 : s[0] - 1, ym, 3}, std::array<index_t, 3>{s[0] / 2, ym, 1}}) {
      const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
      const double fd = testing::central_difference_in_m(c, d, i);
      std::cout << name(v) << " " << ijk[0] << "," << ijk[1] << "," << ijk[2] << ": gradient " << g.gradient[i]
                << " central difference " << fd << " relative " << std::abs(g.gradient[i] - fd) / std::abs(fd) << "\n";
      EXPECT_NE(fd, 0.0);
      EXPECT_NEAR(g.gradient[i], fd, 1e-4 * std::abs(fd)) << name(v) << " " << ijk[0] << "," << ijk[1] << "," << ijk[2];
    }
  }
}

REVWAVE_PRECISION_SUITE(CpmlCheckpointed, ::testing::Test);

TYPED_TEST(CpmlCheckpointed, EveryStrategyIsBitwiseEqualToFull) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cpml-test");
  for (Variant v : variants) {
    const SmallCase c = cpml_case(v, 41, 8);
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> prop(p);
    const StrategyOptions full = testing::strategy("full");
    const GradientOutput ref = run_gradient(prop, d.data(), full, plan_for(full, c, sizeof(T)));
    for (const auto& [what, s] : testing::checkpointed_strategies(dir.path().string())) {
      const GradientOutput g = run_gradient(prop, d.data(), s, plan_for(s, c, sizeof(T)));
      EXPECT_TRUE(testing::same_bits(g.gradient, ref.gradient)) << name(v) << " " << what;
      EXPECT_EQ(g.stats.objective, ref.stats.objective) << name(v) << " " << what;
    }
    double norm = 0;
    for (double x : ref.gradient) norm += x * x;
    EXPECT_GT(norm, 0.0) << name(v);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// A stored history keeps what the reverse step reads (StateShape::history_layer_values): u[n] alone
// a step under the C-PML, which the reverse reads u[n+1] from instead of recomputing it from the
// layer's values, and u[n] with its layer values under a variable density (the layer's share of
// dJ/drho reads psi[n]); the plan counts the same bytes the propagator holds. (Full's gradient
// equals every checkpointed one bit for bit: EveryStrategyIsBitwiseEqualToFull.)
TEST(CpmlHistory, KeepsOneWavefieldAStepButWhereTheDensityReadsTheLayer) {
  for (Variant v : variants) {
    const SmallCase c = cpml_case(v, 41, 8);
    const std::vector<float> d = testing::observed_in<float>(c, c.true_model);
    const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
    ASSERT_EQ(physics_of(p), c.start_model.physics()) << name(v) << ": the problem declares its model's physics";
    CpuPropagator<float> prop(p);
    const StrategyOptions full = testing::strategy("full");
    const StrategyPlan plan = plan_for(full, c, sizeof(float));
    const GradientOutput g = run_gradient(prop, d.data(), full, plan);
    const std::size_t u_bytes = static_cast<std::size_t>(c.grid.alloc_points()) * sizeof(float);
    const std::size_t step = c.start_model.has_density() ? prop.field_bytes() : u_bytes;
    ASSERT_GT(prop.field_bytes(), u_bytes) << name(v) << ": the fields carry the layer's values";
    EXPECT_EQ(g.stats.wavefield_storage_bytes, std::size_t(c.time.steps + 1) * step) << name(v);
    EXPECT_EQ(plan.storage_bytes, g.stats.wavefield_storage_bytes) << name(v);
  }
}

// dJ/drho under the C-PML: testing::density_cpml_case (open, under a free surface, all together).
using testing::density_cpml_case;
using testing::density_cpml_cases;
using testing::DensityCpml;

TEST(CpmlDensityGradient, TaylorTestInRhoIsSecondOrder) {
  for (DensityCpml w : density_cpml_cases) {
    const SmallCase c = density_cpml_case(w);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const std::vector<double>& rho = c.start_model.density;
    std::vector<double> drho(rho.size());
    for (std::size_t i = 0; i < rho.size(); ++i) drho[i] = 0.03 * rho[i] * std::sin(0.37 * double(i));
    const GradientOutput g = testing::density_gradient_in<double>(c, c.start_model, d, testing::strategy("revolve", 4));
    double directional = 0;
    for (std::size_t i = 0; i < drho.size(); ++i) directional += g.density_gradient[i] * drho[i];
    std::vector<double> h, second;
    for (double step = 1.0; step > 1.0 / 128; step *= 0.5) {
      h.push_back(step);
      second.push_back(std::abs(testing::misfit_with_density(c, c.start_model, d, drho, step) - g.stats.objective -
                                step * directional));
    }
    const double rate = log_log_slope(h, second);
    std::cout << name(w) << ": Taylor rate in rho " << rate << "\n";
    EXPECT_GE(rate, 1.9) << name(w);
    EXPECT_NE(directional, 0.0);
  }
}

// At points the C-PML completes (within R of a layer: the x faces, the top's rows, a y face) and
// one it does not, dJ/drho and dJ/dm against central differences of J. On the plane, the far x face
// (which the wave barely reaches) gives way to a point inside the near one, and every y is 0.
TEST(CpmlDensityGradient, ComponentsMatchCentralDifferences) {
  for (DensityCpml w : density_cpml_cases) {
    const SmallCase c = density_cpml_case(w);
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    const GradientOutput g = testing::density_gradient_in<double>(c, c.start_model, d);
    const auto& s = c.grid.shape;
    const bool plane = w == DensityCpml::together;
    const index_t ym = s[1] / 2, y0 = 0, y5 = plane ? 0 : 5;
    for (const std::array<index_t, 3> ijk :
         {std::array<index_t, 3>{0, ym, 2}, std::array<index_t, 3>{1, ym, 4},
          std::array<index_t, 3>{plane ? 2 : s[0] - 1, ym, 5}, std::array<index_t, 3>{6, ym, 1},
          std::array<index_t, 3>{6, y0, 3}, std::array<index_t, 3>{6, y5, 6}}) {
      const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
      const std::string where = std::string(name(w)) + " " + std::to_string(ijk[0]) + "," + std::to_string(ijk[1]) +
                                "," + std::to_string(ijk[2]);
      const double fd_rho = testing::density_central_difference(c, d, i, 1e-3);
      std::cout << where << ": dJ/drho " << g.density_gradient[i] << " central difference " << fd_rho << "\n";
      EXPECT_NE(fd_rho, 0.0) << where;
      EXPECT_NEAR(g.density_gradient[i], fd_rho, 1e-4 * std::abs(fd_rho)) << "dJ/drho at " << where;
      std::vector<double> unit(c.start_model.velocity.size(), 0.0);
      unit[i] = 1.0;
      const double eps = 1e-3 / std::pow(c.start_model.velocity[i], 2);
      const auto J = [&](double e) {
        return forward_misfit(make_problem<double>(c.grid, perturbed_model(c.start_model, unit, e), c.acq, c.time),
                              d.data());
      };
      const double fd_m = (J(eps) - J(-eps)) / (2 * eps);
      EXPECT_NEAR(g.gradient[i], fd_m, 1e-4 * std::abs(fd_m)) << "dJ/dm at " << where;
    }
  }
}

REVWAVE_PRECISION_SUITE(CpmlDensityCheckpointed, ::testing::Test);

TYPED_TEST(CpmlDensityCheckpointed, EveryStrategyGivesFullsDensityGradient) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cpml-density-test");
  for (DensityCpml w : density_cpml_cases) {
    const SmallCase c = density_cpml_case(w, 31);
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const GradientOutput ref = testing::density_gradient_in<T>(c, c.start_model, d);
    for (const auto& [what, s] : testing::checkpointed_strategies(dir.path().string())) {
      const GradientOutput g = testing::density_gradient_in<T>(c, c.start_model, d, s);
      EXPECT_TRUE(testing::same_bits(g.density_gradient, ref.density_gradient)) << name(w) << " " << what;
      EXPECT_TRUE(testing::same_bits(g.gradient, ref.gradient)) << name(w) << " " << what;
      EXPECT_EQ(g.stats.objective, ref.stats.objective) << name(w) << " " << what;
    }
    double norm = 0;
    for (double x : ref.density_gradient) norm += x * x;
    EXPECT_GT(norm, 0.0) << name(w);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

}  // namespace
}  // namespace revwave
