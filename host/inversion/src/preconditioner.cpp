#include "revwave/inversion/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/numerics/gaussian_smoothing.hpp"

namespace revwave {

std::vector<double> fold_counts(const Grid& grid) {
  const index_t nx = grid.shape[0], ny = grid.shape[1], nz = grid.shape[2];
  auto count = [&grid](index_t i, index_t n) { return (i == 0 || i == n - 1) ? double(1 + grid.nbl) : 1.0; };
  std::vector<double> f(static_cast<std::size_t>(grid.interior_points()));
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j)
      for (index_t k = 0; k < nz; ++k) f[static_cast<std::size_t>((i * ny + j) * nz + k)] = count(i, nx) * count(j, ny) * count(k, nz);
  return f;
}

std::vector<double> illumination_diagonal(const std::vector<double>& illumination, const Grid& grid) {
  if (illumination.size() != static_cast<std::size_t>(grid.interior_points())) {
    throw std::invalid_argument("illumination_diagonal: the illumination has the wrong size");
  }
  double peak = 0;
  for (double v : illumination) peak = std::max(peak, v);
  if (!(std::isfinite(peak) && peak > 0)) {
    throw InputError("the illumination is " + number_text(peak) + " at its largest: the sources light nothing (check the wavelet)");
  }
  const double water = illumination_water_level * peak;
  const std::vector<double> f = fold_counts(grid);
  std::vector<double> d(illumination.size());
  double top = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] = 1.0 / ((illumination[i] + water) * f[i]);
    top = std::max(top, d[i]);
  }
  for (double& v : d) v /= top;
  return d;
}

Preconditioner make_preconditioner(std::vector<double> diagonal, std::vector<double> weights, std::array<index_t, 3> shape,
                                   double sigma) {
  if (diagonal.empty() && weights.empty() && sigma == 0) return {};
  for (double& w : weights) w = std::sqrt(w);
  return [d = std::move(diagonal), w = std::move(weights), shape, sigma](const std::vector<double>& v) {
    std::vector<double> out = v;
    if (!w.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= w[i];
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    if (!d.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= d[i];
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    if (!w.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= w[i];
    return out;
  };
}

}  // namespace revwave
