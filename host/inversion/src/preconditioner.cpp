#include "revwave/inversion/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/numerics/gaussian_smoothing.hpp"

namespace revwave {

std::vector<double> fold_counts(const Grid& grid) {
  const index_t nx = grid.shape[0], ny = grid.shape[1], nz = grid.shape[2];
  // fold_to_interior's multiplicities: an edge point copies the layer beyond it (none on a free surface).
  auto count = [&grid](int a, index_t i) {
    if (i == 0) return double(1 + grid.layer_lo(a));
    return i == grid.shape[a] - 1 ? double(1 + grid.layer_hi(a)) : 1.0;
  };
  std::vector<double> f(static_cast<std::size_t>(grid.interior_points()));
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j)
      for (index_t k = 0; k < nz; ++k)
        f[static_cast<std::size_t>((i * ny + j) * nz + k)] = count(0, i) * count(1, j) * count(2, k);
  return f;
}

std::vector<double> illumination_diagonal(const std::vector<double>& illumination, const Grid& grid) {
  if (illumination.size() != static_cast<std::size_t>(grid.interior_points())) {
    throw std::invalid_argument("illumination_diagonal: the illumination has the wrong size");
  }
  double peak = 0;
  for (double v : illumination) peak = std::max(peak, v);
  if (!(std::isfinite(peak) && peak > 0)) {
    throw InputError("the illumination is " + number_text(peak) +
                     " at its largest: the sources light nothing (check the wavelet)");
  }
  const double water = illumination_water_level * peak;
  const std::vector<double> f = fold_counts(grid);
  std::vector<double> d(illumination.size());
  const auto n = static_cast<std::int64_t>(d.size());
  double top = 0;
#pragma omp parallel for schedule(static) reduction(max : top)
  for (std::int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    d[k] = 1.0 / ((illumination[k] + water) * f[k]);
    top = std::max(top, d[k]);
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) d[static_cast<std::size_t>(i)] /= top;
  return d;
}

Preconditioner make_preconditioner(std::vector<double> diagonal, std::vector<double> weights,
                                   std::array<index_t, 3> shape, double sigma) {
  if (diagonal.empty() && weights.empty() && sigma == 0) return {};
  for (double& w : weights) w = std::sqrt(w);
  // Element-wise products (the same bits on any number of threads); the smoothing is threaded too.
  const auto scale = [](std::vector<double>& out, const std::vector<double>& by) {
    if (by.empty()) return;
    const auto n = static_cast<std::int64_t>(out.size());
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] *= by[static_cast<std::size_t>(i)];
  };
  return [d = std::move(diagonal), w = std::move(weights), shape, sigma, scale](const std::vector<double>& v) {
    std::vector<double> out = v;
    scale(out, w);
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    scale(out, d);
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    scale(out, w);
    return out;
  };
}

}  // namespace revwave
