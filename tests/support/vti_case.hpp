// Small VTI cases (numerics/vti/): test_helpers.hpp's small case with epsilon and delta varying on
// every axis, the same in the true and the start model (known and fixed), at the dt their factor asks.
#pragma once
#include <algorithm>
#include <cmath>

#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

// epsilon from 0.05 to 0.35 and delta from 0 to 0.15 over the model, varying on every axis
// (epsilon >= delta everywhere); `scale` 0 gives the isotropic medium.
inline void add_anisotropy(VelocityModel& m, double scale = 1.0) {
  const auto& s = m.shape;
  m.epsilon.resize(m.velocity.size());
  m.delta.resize(m.velocity.size());
  std::size_t i = 0;
  for (index_t x = 0; x < s[0]; ++x)
    for (index_t y = 0; y < s[1]; ++y)
      for (index_t z = 0; z < s[2]; ++z, ++i) {
        const double a = 0.5 + 0.5 * std::sin(0.7 * double(x) + 0.3 * double(y) + 0.45 * double(z));
        m.epsilon[i] = scale * (0.05 + 0.3 * a);
        m.delta[i] = scale * (0.15 * a * a);
      }
}

// small_case with the anisotropy above in both models and the dt its factor asks for.
inline SmallCase vti_case(index_t nx = 13, index_t ny = 11, index_t nz = 12, index_t steps = 60, int order = 4,
                          bool surface = false) {
  SmallCase c = small_case(nx, ny, nz, steps, order);
  c.grid.free_surface = surface;
  add_anisotropy(c.true_model);
  add_anisotropy(c.start_model);
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt =
      default_dt(c.grid, vmax) * std::min(vti_dt_factor(c.grid, c.true_model), vti_dt_factor(c.grid, c.start_model));
  return c;
}

}  // namespace revwave::testing
