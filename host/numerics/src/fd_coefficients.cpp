#include "revwave/numerics/fd_coefficients.hpp"

#include <cmath>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {

std::vector<double> second_derivative_weights(int space_order) {
  if (space_order < 2 || space_order > 16 || space_order % 2 != 0) {
    throw InputError("space order " + std::to_string(space_order) + " is not supported (even, 2..16)");
  }
  const int k = space_order / 2;
  // Closed form of the central 2k-order weights (Fornberg 1988):
  // c_j = 2 (-1)^(j+1) (k!)^2 / (j^2 (k-j)! (k+j)!), c_0 = -2 sum c_j.
  std::vector<double> c(k + 1, 0.0);
  auto lgam = [](int n) { return std::lgamma(static_cast<double>(n) + 1.0); };
  double sum = 0;
  for (int j = 1; j <= k; ++j) {
    const double mag = 2.0 * std::exp(2.0 * lgam(k) - lgam(k - j) - lgam(k + j)) / (double(j) * j);
    c[j] = (j % 2 == 1) ? mag : -mag;
    sum += c[j];
  }
  c[0] = -2.0 * sum;
  return c;
}

std::vector<double> staggered_first_derivative_weights(int radius) {
  if (radius < 1 || radius > 8) {
    throw InputError("staggered derivative radius " + std::to_string(radius) + " is not supported (1..8)");
  }
  // Closed form (Fornberg 1988, half-integer nodes): d_q = (-1)^(q+1) ((2r - 1)!!)^2 /
  // (2^(2r-2) (r + q - 1)! (r - q)! (2q - 1)^2), q = 1..r; f'(x) ~ sum_q d_q (f(x + q - 1/2) - f(x - q + 1/2)).
  const int r = radius;
  auto lgam = [](int n) { return std::lgamma(static_cast<double>(n) + 1.0); };
  double log_df = 0;  // log (2r - 1)!!
  for (int i = 1; i <= 2 * r - 1; i += 2) log_df += std::log(double(i));
  std::vector<double> d(static_cast<std::size_t>(r) + 1, 0.0);
  for (int q = 1; q <= r; ++q) {
    const double mag = std::exp(2 * log_df - (2 * r - 2) * std::log(2.0) - lgam(r + q - 1) - lgam(r - q)) /
                       (double(2 * q - 1) * double(2 * q - 1));
    d[static_cast<std::size_t>(q)] = q % 2 == 1 ? mag : -mag;
  }
  return d;
}

double laplacian_spectral_radius(int space_order, double spacing, int dimensions) {
  const std::vector<double> c = second_derivative_weights(space_order);
  auto symbol = [&](double theta) {
    double s = c[0];
    for (std::size_t j = 1; j < c.size(); ++j) s += 2.0 * c[j] * std::cos(double(j) * theta);
    return -s;
  };
  // The symbol is smooth on [0, pi]: a dense scan then a golden-section polish.
  const int n = 4096;
  double best = 0, best_theta = 0;
  for (int i = 0; i <= n; ++i) {
    const double t = M_PI * i / n;
    if (symbol(t) > best) {
      best = symbol(t);
      best_theta = t;
    }
  }
  double lo = std::max(0.0, best_theta - M_PI / n), hi = std::min(M_PI, best_theta + M_PI / n);
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 100; ++it) {
    const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (symbol(a) > symbol(b))
      hi = b;
    else
      lo = a;
  }
  best = std::max(best, symbol(0.5 * (lo + hi)));
  return dimensions * best / (spacing * spacing);
}

}  // namespace revwave
