// The checks every physics added beside the acoustic one runs on the CPU (tests/driver/test_vti.cpp,
// test_visco.cpp): a gradient on a case's propagator, equality value for value, a refusal's text,
// dJ/dm against central differences at four telling points, every checkpointed strategy against
// `full`, and the energy of a long run falling from each third to the next.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

template <class T>
GradientOutput gradient_in(const SmallCase& c, const VelocityModel& model, const std::vector<T>& observed,
                           const StrategyOptions& s = strategy("full")) {
  const Problem<T> p = make_problem<T>(c.grid, model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  return run_gradient(prop, observed.data(), s,
                      plan_strategy(s, c.time.steps, physics_state(p.grid, physics_of(p)), field_layout<T>(p.grid)));
}

// Equal value for value (a zero's sign aside: a physics' corrections there are signed zeros), and
// enough nonzero values for that to mean something.
template <class T>
void expect_same_values(const std::vector<T>& a, const std::vector<T>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  std::size_t differ = 0, nonzero = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    differ += a[i] == b[i] ? 0 : 1;
    nonzero += a[i] != 0 ? 1 : 0;
  }
  EXPECT_EQ(differ, 0u) << what;
  EXPECT_GT(nonzero, a.size() / 4) << what << ": too few nonzero values to compare";
}

// make_problem's refusal of the model on the case, or "accepted".
inline std::string refusal(const SmallCase& c, const VelocityModel& m) {
  try {
    make_problem<float>(c.grid, m, c.acq, c.time);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// dJ/dm in double against central differences of J within 1e-4 at a point between the source and
// the receivers, one by the anomaly, an edge point that carries the layer's share, and the
// source's own point (where the propagator and a physics share the imaging).
inline void expect_gradient_matches_central_differences(const SmallCase& c, const std::string& label) {
  const std::vector<double> d = observed_in<double>(c, c.true_model);
  const GradientOutput g = gradient_in<double>(c, c.start_model, d);
  const auto& s = c.grid.shape;
  const auto at = [&](int axis) { return static_cast<index_t>(std::lround(c.acq.sources[0][axis] / c.grid.spacing)); };
  const index_t edge = c.grid.free_surface ? 1 : 0;  // the surface's plane itself is u = 0: dJ/dm is 0 there
  for (const std::array<index_t, 3> ijk :
       {std::array<index_t, 3>{6, 5, 3}, std::array<index_t, 3>{6, 4, 7}, std::array<index_t, 3>{0, 5, edge},
        std::array<index_t, 3>{at(0), at(1), at(2)}}) {
    const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
    const double fd = central_difference_in_m(c, d, i);
    EXPECT_NE(fd, 0.0);
    EXPECT_NEAR(g.gradient[i], fd, 1e-4 * std::abs(fd))
        << "dJ/dm at " << ijk[0] << "," << ijk[1] << "," << ijk[2] << ", " << label;
  }
}

// Every checkpointed strategy's J and dJ/dm are full's bits, and no checkpoint file is left.
template <class T>
void expect_every_strategy_equals_full(const SmallCase& c, const std::string& label) {
  const TempDir dir("revwave-physics-ckpt");
  const std::vector<T> d = observed_in<T>(c, c.true_model);
  const GradientOutput ref = gradient_in<T>(c, c.start_model, d);
  for (const auto& [what, s] : checkpointed_strategies(dir.path().string())) {
    const GradientOutput g = gradient_in<T>(c, c.start_model, d, s);
    EXPECT_EQ(g.stats.objective, ref.stats.objective) << what << ", " << label;
    EXPECT_TRUE(same_bits(g.gradient, ref.gradient)) << "dJ/dm, " << what << ", " << label;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// The forward run of the case's true model in double for all its steps: every sum of u^2 finite,
// and the largest in each third of the run below the one before.
inline void expect_energy_falls_by_thirds(const SmallCase& c) {
  const Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  prop.reset_forward();
  std::array<double, 3> most{};
  for (index_t n = 0; n < c.time.steps; ++n) {
    prop.forward_step(n);
    const double e = prop.wavefield_energy();
    ASSERT_TRUE(std::isfinite(e)) << "step " << n;
    auto& m = most[static_cast<std::size_t>(3 * n / c.time.steps)];
    m = std::max(m, e);
  }
  EXPECT_GT(most[0], 0.0);
  EXPECT_LT(most[1], most[0]);
  EXPECT_LT(most[2], most[1]);
}

}  // namespace revwave::testing
