#include "revwave/numerics/gaussian_smoothing.hpp"

#include <cmath>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

// Convolves every line along `axis` with the kernel w[-r..r] (zero outside).
void smooth_axis(std::vector<double>& f, const std::array<index_t, 3>& shape, int axis, const std::vector<double>& w) {
  const index_t r = static_cast<index_t>(w.size() / 2);
  const index_t n = shape[axis];
  const index_t stride = axis == 0 ? shape[1] * shape[2] : axis == 1 ? shape[2] : 1;
  const index_t lines = shape[0] * shape[1] * shape[2] / n;
#pragma omp parallel
  {
    std::vector<double> line(static_cast<std::size_t>(n));
#pragma omp for schedule(static)
    for (index_t l = 0; l < lines; ++l) {
      // The l-th line's first point: l enumerates the other two axes in C order.
      index_t first = 0;
      if (axis == 0)
        first = l;
      else if (axis == 1)
        first = (l / shape[2]) * shape[1] * shape[2] + l % shape[2];
      else
        first = l * shape[2];
      for (index_t i = 0; i < n; ++i) line[i] = f[first + i * stride];
      for (index_t i = 0; i < n; ++i) {
        double s = 0;
        for (index_t k = std::max<index_t>(-r, -i); k <= std::min<index_t>(r, n - 1 - i); ++k)
          s += w[k + r] * line[i + k];
        f[first + i * stride] = s;
      }
    }
  }
}

}  // namespace

void gaussian_smooth(std::vector<double>& field, const std::array<index_t, 3>& shape, double sigma) {
  if (!(std::isfinite(sigma) && sigma >= 0)) {
    throw InputError("smoothing length " + std::to_string(sigma) + " grid points is invalid: a finite number >= 0");
  }
  if (static_cast<index_t>(field.size()) != shape[0] * shape[1] * shape[2]) {
    throw InputError("a field of " + std::to_string(field.size()) + " values cannot be smoothed on a grid of " +
                     std::to_string(shape[0] * shape[1] * shape[2]) + " points");
  }
  if (sigma == 0) return;
  const index_t r = static_cast<index_t>(std::ceil(4 * sigma));
  std::vector<double> w(static_cast<std::size_t>(2 * r + 1));
  double total = 0;
  for (index_t k = -r; k <= r; ++k) total += w[k + r] = std::exp(-0.5 * double(k * k) / (sigma * sigma));
  for (double& v : w) v /= total;
  for (int axis = 0; axis < 3; ++axis)
    if (shape[axis] > 1) smooth_axis(field, shape, axis, w);
}

}  // namespace revwave
