// What the checks need besides the drivers: the dot-product test's random inputs, the Taylor
// test's perturbed model and its rates.
#include "revwave/driver/verification.hpp"

#include <cmath>
#include <random>

#include "revwave/core/errors.hpp"

namespace revwave {

double log_log_slope(const std::vector<double>& h, const std::vector<double>& e) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!(e[i] > 0)) continue;
    const double x = std::log(h[i]), y = std::log(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    ++n;
  }
  if (n < 2) return 0;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

template <class T>
std::vector<T> randomize_dot_test(Problem<T>& p, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const index_t N = p.time.steps, nt = p.time.nt();
  for (index_t n = 0; n < nt; ++n) p.wavelet[n] = n < N ? static_cast<T>(normal(rng)) : T(0);
  std::vector<T> d(static_cast<std::size_t>(nt * p.rec.count));
  for (auto& v : d) v = static_cast<T>(normal(rng));
  return d;
}

VelocityModel perturbed_model(const VelocityModel& model, const std::vector<double>& dm, double h) {
  VelocityModel out = model;
  for (std::size_t i = 0; i < out.velocity.size(); ++i) {
    const double m = 1.0 / (model.velocity[i] * model.velocity[i]) + h * dm[i];
    if (!(m > 0)) throw InputError("the Taylor test perturbation makes m = 1/c^2 non-positive: use a smaller one");
    out.velocity[i] = 1.0 / std::sqrt(m);
  }
  return out;
}

template std::vector<float> randomize_dot_test<float>(Problem<float>&, unsigned);
template std::vector<double> randomize_dot_test<double>(Problem<double>&, unsigned);

}  // namespace revwave
