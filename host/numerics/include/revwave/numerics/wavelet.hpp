// The source signature: a unit-peak Ricker wavelet, sampled on the time axis.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

// Delay used by default: 1.5 / f0, so the wavelet starts at ~1e-10 of its peak.
inline double default_wavelet_delay(double f0) { return 1.5 / f0; }

// The same for an f0 the user gave (`what`: "--f0"): an InputError where the delay is no finite
// time (f0 below about 1e-308 Hz), which a record's sidecar could not hold and no run could reach.
double checked_wavelet_delay(double f0, const std::string& what);

// Far from t0 the value is (1 - 2a^2) e^{-a^2} -> -0: where a^2 is huge (an absurd f0, 1e300 Hz) that
// limit, not inf * 0 = NaN. Past a^2 = 745 e^{-a^2} is already exactly 0 and the formula -0, so every
// other value keeps the formula's bits.
inline double ricker_value(double t, double f0, double t0) {
  const double a = M_PI * f0 * (t - t0);
  if (!(a * a < 1e300)) return -0.0;
  return (1.0 - 2.0 * a * a) * std::exp(-a * a);
}

// w(n dt) for n = 0..nt-1.
inline std::vector<double> ricker_samples(double f0, double t0, double dt, index_t nt) {
  std::vector<double> w(static_cast<std::size_t>(nt));
  for (index_t n = 0; n < nt; ++n) w[n] = ricker_value(double(n) * dt, f0, t0);
  return w;
}

}  // namespace revwave
