// The correlation and envelope misfits through the wave equation: dJ/dm against central
// differences of J (1e-4, double), the Taylor test's second-order rate, every checkpointing strategy
// equal to `full` bit for bit in float and double, and the correlation's J and g unchanged when the
// observed data are multiplied by a constant.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "precisions.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/misfit/misfit.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::small_case;
using testing::SmallCase;

const MisfitKind kNew[] = {MisfitKind::correlation, MisfitKind::envelope};

template <class T>
GradientOutput gradient_with(const SmallCase& c, const Misfit<T>& misfit, const std::vector<T>& d,
                             const StrategyOptions& s = testing::strategy("full")) {
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  return run_gradient(prop, misfit, d.data(), s, plan_strategy(s, c.time.steps, field_layout<T>(c.grid)), {}, nullptr);
}

TEST(MisfitGradients, OneComponentMatchesACentralDifference) {
  const SmallCase c = small_case();
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const auto& s = c.grid.shape;
  for (MisfitKind kind : kNew) {
    const Misfit<double>& misfit = builtin_misfit<double>(kind);
    const GradientOutput g = gradient_with<double>(c, misfit, d, testing::strategy("revolve", 5));
    // A point between source and receivers, and an edge point that carries the layer's share.
    for (const std::array<index_t, 3> ijk : {std::array<index_t, 3>{9, 7, 2}, std::array<index_t, 3>{0, 7, 0}}) {
      const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
      const double fd = testing::central_difference_in_m(c, d, i, misfit);
      EXPECT_NE(fd, 0.0) << to_string(kind);
      EXPECT_NEAR(g.gradient[i], fd, 1e-4 * std::abs(fd))
          << to_string(kind) << " at " << ijk[0] << "," << ijk[1] << "," << ijk[2];
    }
  }
}

TEST(MisfitGradients, TaylorTestIsSecondOrderInDouble) {
  const SmallCase c = small_case();
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  std::vector<double> dm(c.start_model.velocity.size());
  double dm_max = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) {
    dm[i] = 1.0 / std::pow(c.true_model.velocity[i], 2) - 1.0 / std::pow(c.start_model.velocity[i], 2);
    dm_max = std::max(dm_max, std::abs(dm[i]));
  }
  for (double& v : dm) v *= 0.02 / (2500.0 * 2500.0) / dm_max;  // 2% of m at most: h = 1 is in the Taylor regime
  for (MisfitKind kind : kNew) {
    const TaylorResult t =
        taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, testing::strategy("revolve", 4), 6,
                            Backend::cpu, {}, builtin_misfit<double>(kind));
    EXPECT_NEAR(t.rate_first, 1.0, 0.1) << to_string(kind);
    EXPECT_GE(t.rate_second, 1.9) << to_string(kind);
  }
}

REVWAVE_PRECISION_SUITE(MisfitStrategies, ::testing::Test);

TYPED_TEST(MisfitStrategies, EveryStrategyIsBitwiseEqualToFullStorage) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-misfit-test");
  const SmallCase c = small_case(13, 11, 9, 47, 4);
  const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
  const std::string path = dir.path().string();
  StrategyOptions multilevel = testing::strategy("multilevel", 0, "memory", path);
  multilevel.tiers = {"memory:2:0.1:0.1", "disk:3:1:1"};
  const std::vector<std::pair<std::string, StrategyOptions>> strategies = {
      {"revolve S=3", testing::strategy("revolve", 3)},
      {"revolve S=3 disk", testing::strategy("revolve", 3, "disk", path)},
      {"online S=4", testing::strategy("online", 4)},
      {"multilevel", multilevel}};
  for (MisfitKind kind : kNew) {
    const Misfit<T>& misfit = builtin_misfit<T>(kind);
    const GradientOutput ref = gradient_with<T>(c, misfit, d);
    EXPECT_TRUE(std::isfinite(ref.stats.objective));
    for (const auto& [name, s] : strategies) {
      const GradientOutput g = gradient_with<T>(c, misfit, d, s);
      ASSERT_EQ(g.gradient.size(), ref.gradient.size());
      EXPECT_EQ(0, std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)))
          << to_string(kind) << " " << name;
      EXPECT_EQ(g.stats.objective, ref.stats.objective) << to_string(kind) << " " << name;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

TYPED_TEST(MisfitStrategies, CorrelationIgnoresTheScaleOfTheObservedData) {
  using T = TypeParam;
  const SmallCase c = small_case(13, 11, 9, 47, 4);
  const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
  std::vector<T> d4(d), d37(d);
  for (T& v : d4) v *= T(4);
  for (T& v : d37) v *= T(3.7);
  const Misfit<T>& misfit = builtin_misfit<T>(MisfitKind::correlation);
  const GradientOutput g = gradient_with<T>(c, misfit, d, testing::strategy("revolve", 4));
  const GradientOutput g4 = gradient_with<T>(c, misfit, d4, testing::strategy("revolve", 4));
  const GradientOutput g37 = gradient_with<T>(c, misfit, d37, testing::strategy("revolve", 4));
  // A power of two scales every intermediate exactly: the same bits.
  EXPECT_EQ(g4.stats.objective, g.stats.objective);
  EXPECT_EQ(0, std::memcmp(g4.gradient.data(), g.gradient.data(), g.gradient.size() * sizeof(double)));
  // Any other constant: the same to rounding (the adjoint source rounds once to T, then the adjoint is linear in it).
  const double tol = sizeof(T) == 8 ? 1e-12 : 1e-5;
  EXPECT_NEAR(g37.stats.objective, g.stats.objective, tol * std::abs(g.stats.objective));
  double norm = 0, diff = 0;
  for (std::size_t i = 0; i < g.gradient.size(); ++i) {
    norm += g.gradient[i] * g.gradient[i];
    diff += (g37.gradient[i] - g.gradient[i]) * (g37.gradient[i] - g.gradient[i]);
  }
  EXPECT_GT(norm, 0.0);
  EXPECT_LT(std::sqrt(diff / norm), tol);
}

}  // namespace
}  // namespace revwave
