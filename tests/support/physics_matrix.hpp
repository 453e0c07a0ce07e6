// One test body for every physics x boundary, run by each backend's suite on its own propagator
// (tests/driver/test_physics_matrix.cpp on the CPU, tests/cuda/test_cuda_physics_matrix.cpp on
// cudasim and on a GPU): constant or variable density, under a sponge or a C-PML, with or without a
// free surface. Each cell is checked against independent truth on the backend itself: every
// checkpointed strategy equals full bit for bit (dJ/drho too), the dot-product test of the
// linearised operator, a second-order Taylor test of J, and gradient components against central
// differences of J (dJ/drho's too). A new physics adds a Medium and its case; the body is unchanged.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "density_case.hpp"
#include "dot_product_median.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/verification.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

enum class Medium { constant, density };
enum class Layer { sponge, cpml };

struct PhysicsCell {
  Medium medium;
  Layer layer;
  bool free_surface;
};

constexpr PhysicsCell physics_cells[] = {
    {Medium::constant, Layer::sponge, false}, {Medium::constant, Layer::sponge, true},
    {Medium::constant, Layer::cpml, false},   {Medium::constant, Layer::cpml, true},
    {Medium::density, Layer::sponge, false},  {Medium::density, Layer::sponge, true},
    {Medium::density, Layer::cpml, false},    {Medium::density, Layer::cpml, true},
};

inline std::string name(const PhysicsCell& cell) {
  return std::string(cell.medium == Medium::density ? "density" : "constant density") +
         (cell.layer == Layer::cpml ? ", C-PML" : ", sponge") + (cell.free_surface ? ", free surface" : "");
}

// A small case of the cell (13 x 11 x 12, a 6-point layer): a source near the top and a line of
// receivers; with a density, the layered one in the start model and 5% more or less in the true
// one (so that dJ/drho is not zero), the step stable for both (mirrored about a free surface).
inline SmallCase physics_case(const PhysicsCell& cell, index_t steps, int order = 4) {
  SmallCase c =
      cell.medium == Medium::density ? density_case(13, 11, 12, steps, order) : small_case(13, 11, 12, steps, order);
  c.grid.cpml = cell.layer == Layer::cpml;
  c.grid.free_surface = cell.free_surface;
  if (cell.medium == Medium::density) {
    for (std::size_t i = 0; i < c.true_model.density.size(); ++i)
      c.true_model.density[i] = c.start_model.density[i] * (1.0 + 0.05 * std::cos(0.21 * double(i)));
    c.time.dt = density_case_dt(c);
  }
  return c;
}

// J, dJ/dm and (with a density) dJ/drho of c's shot in its start model on `backend` under s.
template <class T>
GradientOutput gradient_on(Backend backend, const SmallCase& c, const std::vector<T>& observed,
                           const StrategyOptions& s) {
  Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  if (p.density) p.density->image = true;
  const StrategyPlan plan =
      plan_strategy(s, c.time.steps, physics_state(c.grid, physics_of(p)), field_layout<T>(c.grid));
  const Misfit<T>& misfit = l2_misfit<T>();
  return run_on_backend(backend, p, DeviceBudgets{}, GradientCall<T>{&misfit, observed.data(), &s, &plan, {}, nullptr});
}

// J (double) by forward modelling alone on `backend` in `model`.
inline double misfit_on(Backend backend, const SmallCase& c, const VelocityModel& model,
                        const std::vector<double>& observed) {
  return forward_misfit(make_problem<double>(c.grid, model, c.acq, c.time), observed.data(), backend);
}

// Every checkpointed strategy's dJ/dm, dJ/drho and J equal to full's, bit for bit, on `backend`.
template <class T>
void every_strategy_equals_full(Backend backend) {
  const TempDir dir("revwave-physics-matrix");
  for (const PhysicsCell& cell : physics_cells) {
    const SmallCase c = physics_case(cell, 31);
    const std::vector<T> d = observed_in<T>(c, c.true_model);
    const GradientOutput full = gradient_on<T>(backend, c, d, strategy("full"));
    double norm = 0;
    for (double g : full.gradient) norm += g * g;
    EXPECT_GT(norm, 0.0) << name(cell);
    EXPECT_EQ(full.density_gradient.empty(), cell.medium != Medium::density) << name(cell);
    for (const auto& [what, s] : checkpointed_strategies(dir.path().string())) {
      const GradientOutput g = gradient_on<T>(backend, c, d, s);
      EXPECT_EQ(g.stats.objective, full.stats.objective) << name(cell) << ", " << what;
      EXPECT_TRUE(same_bits(g.gradient, full.gradient)) << name(cell) << ", " << what;
      EXPECT_TRUE(same_bits(g.density_gradient, full.density_gradient)) << name(cell) << ", dJ/drho, " << what;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// The linearised operator's adjoint: the median relative error of three draws within the
// precision's bound (dot_product_median.hpp says why the median).
template <class T>
void dot_product_holds(Backend backend) {
  for (const PhysicsCell& cell : physics_cells) {
    const SmallCase c = physics_case(cell, 30);
    std::vector<double> errors;
    for (unsigned seed : {99u, 100u, 101u}) {
      const DotProductResult r = dot_product_test<T>(c.grid, c.true_model, c.acq, c.time, seed, backend);
      EXPECT_GT(std::abs(r.forward_product), 0.0) << name(cell) << ", seed " << seed;
      errors.push_back(r.relative_error);
    }
    std::nth_element(errors.begin(), errors.begin() + 1, errors.end());
    EXPECT_LT(errors[1], dot_product_tolerance<T>()) << name(cell);
  }
}

// J(m + h dm) - J(m) - h <g, dm> falls as h^2 (double).
inline void taylor_is_second_order(Backend backend) {
  for (const PhysicsCell& cell : physics_cells) {
    const SmallCase c = physics_case(cell, 40);
    const std::vector<double> d = observed_in<double>(c, c.true_model);
    const TaylorResult t = taylor_test<double>(c.grid, c.start_model, towards_true_model(c), c.acq, c.time, d,
                                               strategy("revolve", 4), 5, backend);
    EXPECT_GE(t.rate_second, 1.9) << name(cell) << " (first-order rate " << t.rate_first << ")";
  }
}

// dJ/dm and dJ/drho at points near the source, near the x = 0 face and one row under the top (a
// free surface holds u = 0 on its row, where m moves nothing) against
// central differences of J (double), to 1e-4 of the difference.
inline void components_match_central_differences(Backend backend) {
  for (const PhysicsCell& cell : physics_cells) {
    const SmallCase c = physics_case(cell, 40);
    const std::vector<double> d = observed_in<double>(c, c.true_model);
    const GradientOutput g = gradient_on<double>(backend, c, d, strategy("full"));
    const auto& s = c.grid.shape;
    for (const std::array<index_t, 3> ijk :
         {std::array<index_t, 3>{6, 5, 3}, std::array<index_t, 3>{0, 5, 2}, std::array<index_t, 3>{6, 4, 1}}) {
      const std::size_t i = static_cast<std::size_t>((ijk[0] * s[1] + ijk[1]) * s[2] + ijk[2]);
      const std::string where =
          name(cell) + " at " + std::to_string(ijk[0]) + "," + std::to_string(ijk[1]) + "," + std::to_string(ijk[2]);
      const double fd_m = central_difference_in_m(c, d, i, l2_misfit<double>(), backend);
      EXPECT_NE(fd_m, 0.0) << where;
      EXPECT_NEAR(g.gradient[i], fd_m, 1e-4 * std::abs(fd_m)) << "dJ/dm, " << where;
      if (cell.medium != Medium::density) continue;
      const double eps_rho = 1e-3 * c.start_model.density[i];
      VelocityModel up = c.start_model, down = c.start_model;
      up.density[i] += eps_rho;
      down.density[i] -= eps_rho;
      const double fd_rho = (misfit_on(backend, c, up, d) - misfit_on(backend, c, down, d)) / (2 * eps_rho);
      EXPECT_NE(fd_rho, 0.0) << where;
      EXPECT_NEAR(g.density_gradient[i], fd_rho, 1e-4 * std::abs(fd_rho)) << "dJ/drho, " << where;
    }
  }
}

}  // namespace revwave::testing
