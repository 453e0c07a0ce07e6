// Small variable-density cases: test_helpers.hpp's small case with a density that grows with depth
// and has a sharp layer and a bump, the same in the true and the start model (known and fixed).
#pragma once
#include <cmath>
#include <vector>

#include "revwave/driver/verification.hpp"
#include "revwave/numerics/model.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

// kg/m^3 on the model's interior: 1000 at the top to 1600 at the bottom, a layer 1.8 times denser
// below 60% of the depth, and a smooth bump near the middle.
inline std::vector<double> layered_density(const std::array<index_t, 3>& shape) {
  std::vector<double> rho(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]));
  std::size_t i = 0;
  for (index_t x = 0; x < shape[0]; ++x)
    for (index_t y = 0; y < shape[1]; ++y)
      for (index_t z = 0; z < shape[2]; ++z, ++i) {
        const double depth = double(z) / double(shape[2] - 1);
        const double r2 = std::pow(double(x) - 0.5 * double(shape[0]), 2) +
                          std::pow(double(y) - 0.4 * double(shape[1]), 2) +
                          std::pow(double(z) - 0.3 * double(shape[2]), 2);
        rho[i] = (1000.0 + 600.0 * depth) * (depth > 0.6 ? 1.8 : 1.0) + 300.0 * std::exp(-r2 / 8.0);
      }
  return rho;
}

// The stable step of c's grid for its faster model, scaled for the true model's density contrasts
// (again after the grid changes: a free surface mirrors the density).
inline double density_case_dt(const SmallCase& c) {
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  return default_dt(c.grid, vmax) * density_dt_factor(c.grid, c.true_model);
}

// small_case with the layered density in both models.
inline SmallCase density_case(index_t nx = 13, index_t ny = 11, index_t nz = 12, index_t steps = 60, int order = 4) {
  SmallCase c = small_case(nx, ny, nz, steps, order);
  c.true_model.density = layered_density(c.grid.shape);
  c.start_model.density = c.true_model.density;
  c.time.dt = density_case_dt(c);
  return c;
}

// J, dJ/dm and (with `image`) dJ/drho of c's shot in `model` on the CPU under strategy s.
template <class T>
GradientOutput density_gradient_in(const SmallCase& c, const VelocityModel& model, const std::vector<T>& observed,
                                   const StrategyOptions& s = strategy("full"), bool image = true) {
  Problem<T> p = make_problem<T>(c.grid, model, c.acq, c.time);
  if (p.density) p.density->image = image;
  CpuPropagator<T> prop(p);
  return run_gradient(prop, observed.data(), s, plan_strategy(s, c.time.steps, prop.field_bytes()));
}

// J by forward modelling alone (double) in `model` with its density moved by h drho.
inline double misfit_with_density(const SmallCase& c, VelocityModel model, const std::vector<double>& observed,
                                  const std::vector<double>& drho, double h) {
  for (std::size_t i = 0; i < drho.size(); ++i) model.density[i] += h * drho[i];
  return forward_misfit(make_problem<double>(c.grid, model, c.acq, c.time), observed.data());
}

// dJ/drho at interior point i of c's start model by central differences of J, the density moved by
// +- rel_step rho_i there.
inline double density_central_difference(const SmallCase& c, const std::vector<double>& observed, std::size_t i,
                                         double rel_step) {
  std::vector<double> unit(c.start_model.density.size(), 0.0);
  unit[i] = 1.0;
  const double eps = rel_step * c.start_model.density[i];
  return (misfit_with_density(c, c.start_model, observed, unit, eps) -
          misfit_with_density(c, c.start_model, observed, unit, -eps)) /
         (2 * eps);
}

}  // namespace revwave::testing
