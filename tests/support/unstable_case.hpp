// Runs for the growth guard's tests (tests/driver/test_growth_guard.cpp, tests/cuda/): a problem made
// unstable behind make_problem's back, and stable ones with long records. No built-in physics is
// unstable below its CFL limit, which make_problem enforces: the unstable problem is a stable one
// whose m is then divided by 1.3^2, as if every velocity were 30% faster than dt allows.
#pragma once
#include <cmath>
#include <vector>

#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

// A short pulse: w[n] = exp(-((n - 4) / 1.5)^2) up to n = 8 (where it falls below 1e-4 of its peak:
// the source has ended after sample 8), then silence.
inline std::vector<double> short_pulse(index_t nt) {
  std::vector<double> w(static_cast<std::size_t>(nt), 0.0);
  for (index_t n = 0; n < nt && n <= 8; ++n) {
    const double x = (static_cast<double>(n) - 4.0) / 1.5;
    w[static_cast<std::size_t>(n)] = std::exp(-x * x);
  }
  return w;
}

// A homogeneous 2000 m/s case of `steps` steps at the model's default dt, sources and receivers as
// small_case's, the short pulse as its signature.
inline SmallCase pulse_case(index_t steps, int order = 4) {
  SmallCase c = small_case(19, 17, 15, steps, order);
  c.true_model = homogeneous_model(c.grid.shape, 2000.0);
  c.start_model = c.true_model;
  c.time.dt = default_dt(c.grid, 2000.0);
  c.acq.wavelet = short_pulse(c.time.nt());
  return c;
}

// The case's problem with every m divided by speedup^2: dt is then speedup x 0.9 of the stable bound.
template <class T>
Problem<T> unstable_problem(const SmallCase& c, double speedup = 1.3) {
  Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  T* m = p.m.template as<T>();
  const auto n = static_cast<std::size_t>(p.grid.alloc_points());
  for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<T>(static_cast<double>(m[i]) / (speedup * speedup));
  return p;
}

}  // namespace revwave::testing
