#include "revwave/numerics/lowpass.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {

ZeroPhaseLowpass::ZeroPhaseLowpass(double cutoff_hz, double dt, int order)
    : cutoff_(cutoff_hz), dt_(dt), order_(order) {
  if (!(std::isfinite(dt) && dt > 0))
    throw InputError("low-pass dt " + std::to_string(dt) + " s is invalid: a finite time step > 0");
  const double nyquist = 0.5 / dt;
  if (!(std::isfinite(cutoff_hz) && cutoff_hz > 0 && cutoff_hz < nyquist)) {
    throw InputError("low-pass cutoff " + std::to_string(cutoff_hz) + " Hz is invalid: it must lie in (0, " +
                     std::to_string(nyquist) + ") Hz, below the Nyquist frequency of dt = " + std::to_string(dt) +
                     " s");
  }
  if (order < 2 || order > 16 || order % 2 != 0) {
    throw InputError("low-pass order " + std::to_string(order) + " is invalid: an even number in [2, 16]");
  }
  // Analogue prototype poles in pairs, s = wc exp(i theta_k), through the bilinear transform
  // s = 2/dt (z - 1)/(z + 1), with wc pre-warped so that the digital cutoff is exact.
  const double k = std::tan(M_PI * cutoff_hz * dt);  // wc dt / 2
  for (int j = 0; j < order / 2; ++j) {
    const double theta = M_PI * (2.0 * j + 1.0) / (2.0 * order);
    const double q = 2 * std::sin(theta);  // 1/Q of the section
    const double norm = 1 + q * k + k * k;
    Section s;
    s.b0 = k * k / norm;
    s.b1 = 2 * s.b0;
    s.b2 = s.b0;
    s.a1 = 2 * (k * k - 1) / norm;
    s.a2 = (1 - q * k + k * k) / norm;
    sections_.push_back(s);
  }
  // Settling: the slowest pole's envelope decays as r^n; pad until it is below 1e-9 of its start.
  double r_max = 0;
  for (const Section& s : sections_) r_max = std::max(r_max, std::sqrt(std::abs(s.a2)));
  pad_ = static_cast<std::size_t>(std::ceil(std::log(1e-9) / std::log(std::max(r_max, 1e-300)))) + 1;
}

double ZeroPhaseLowpass::gain(double f) const {
  const double x = std::tan(M_PI * std::abs(f) * dt_) / std::tan(M_PI * cutoff_ * dt_);
  return 1 / (1 + std::pow(x, 2 * order_));
}

void ZeroPhaseLowpass::run(std::vector<double>& x) const {
  if (x.empty()) return;
  for (const Section& s : sections_) {
    // Each section starts in its steady state for a constant input x[0] (its DC gain is 1), so
    // the extended series starts without a step.
    double x1 = x[0], x2 = x[0], y1 = x[0], y2 = x[0];
    for (double& v : x) {
      const double y = s.b0 * v + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
      x2 = x1;
      x1 = v;
      y2 = y1;
      y1 = y;
      v = y;
    }
  }
}

void ZeroPhaseLowpass::apply(double* x, std::size_t n, std::size_t stride) const {
  if (n == 0) return;
  const std::size_t pad = std::min(pad_, n > 1 ? n - 1 : 0);
  std::vector<double> e(n + 2 * pad);
  for (std::size_t i = 0; i < n; ++i) e[pad + i] = x[i * stride];
  for (std::size_t i = 1; i <= pad; ++i) {
    e[pad - i] = 2 * x[0] - x[i * stride];
    e[pad + n - 1 + i] = 2 * x[(n - 1) * stride] - x[(n - 1 - i) * stride];
  }
  run(e);
  std::reverse(e.begin(), e.end());
  run(e);
  std::reverse(e.begin(), e.end());
  for (std::size_t i = 0; i < n; ++i) x[i * stride] = e[pad + i];
}

template <class T>
void ZeroPhaseLowpass::apply_all(std::vector<T>& traces, std::size_t nt, std::size_t ntraces) const {
  std::vector<double> column(nt);
  for (std::size_t r = 0; r < ntraces; ++r) {
    for (std::size_t n = 0; n < nt; ++n) column[n] = static_cast<double>(traces[n * ntraces + r]);
    apply(column.data(), nt);
    for (std::size_t n = 0; n < nt; ++n) traces[n * ntraces + r] = static_cast<T>(column[n]);
  }
}

template void ZeroPhaseLowpass::apply_all<float>(std::vector<float>&, std::size_t, std::size_t) const;
template void ZeroPhaseLowpass::apply_all<double>(std::vector<double>&, std::size_t, std::size_t) const;

}  // namespace revwave
