// Small visco-acoustic cases (numerics/visco/): test_helpers.hpp's small case with Q varying on
// every axis, the same in the true and the start model (known and fixed), at the dt its factor asks.
#pragma once
#include <algorithm>
#include <cmath>

#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

// Q from 8 to 60 over the model, varying on every axis (strong attenuation: the memory variables
// matter at every point); f0 the source's peak frequency, which centres the fitted band.
inline void add_attenuation(VelocityModel& m, double f0, double q_min = 8.0) {
  const auto& s = m.shape;
  m.q.resize(m.velocity.size());
  std::size_t i = 0;
  for (index_t x = 0; x < s[0]; ++x)
    for (index_t y = 0; y < s[1]; ++y)
      for (index_t z = 0; z < s[2]; ++z, ++i) {
        const double a = 0.5 + 0.5 * std::sin(0.6 * double(x) + 0.35 * double(y) + 0.5 * double(z));
        m.q[i] = q_min + (60.0 - q_min) * a;
      }
  m.q_frequency = f0;
  m.q_f0 = f0;
}

// The dt the slower of both models' bounds asks for.
inline void set_visco_dt(SmallCase& c) {
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt = default_dt(c.grid, vmax) * std::min(visco_dt_factor(c.true_model), visco_dt_factor(c.start_model));
}

// small_case with the attenuation above in both models.
inline SmallCase visco_case(index_t nx = 13, index_t ny = 11, index_t nz = 12, index_t steps = 60, int order = 4,
                            bool surface = false) {
  SmallCase c = small_case(nx, ny, nz, steps, order);
  c.grid.free_surface = surface;
  add_attenuation(c.true_model, c.acq.f0);
  add_attenuation(c.start_model, c.acq.f0);
  set_visco_dt(c);
  return c;
}

}  // namespace revwave::testing
