#include "revwave/inversion/masks.hpp"

#include <cmath>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {

std::vector<double> depth_mask(const Grid& grid, double depth) {
  if (!(std::isfinite(depth) && depth >= 0)) {
    throw InputError("--mask-depth " + number_text(depth) + " m is invalid: a finite depth >= 0");
  }
  if (depth > grid.extent(2)) {
    throw InputError("--mask-depth " + number_text(depth) + " m is below the model's bottom at " +
                     number_text(grid.extent(2)) + " m: nothing would be updated");
  }
  const index_t nz = grid.shape[2];
  std::vector<double> w(static_cast<std::size_t>(grid.interior_points()));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double z = static_cast<double>(static_cast<index_t>(i) % nz) * grid.spacing;
    w[i] = z < depth ? 0.0 : 1.0;
  }
  return w;
}

void check_mask(const std::vector<double>& w, const std::vector<std::int64_t>& shape, const Grid& grid,
                const std::string& path) {
  if (shape.size() != 3 || shape[0] != grid.shape[0] || shape[1] != grid.shape[1] || shape[2] != grid.shape[2]) {
    std::string got;
    for (std::size_t i = 0; i < shape.size(); ++i) got += (i ? ", " : "") + std::to_string(shape[i]);
    throw InputError("--mask " + path + " has shape (" + got + "), the grid is (" + std::to_string(grid.shape[0]) +
                     ", " + std::to_string(grid.shape[1]) + ", " + std::to_string(grid.shape[2]) + ")");
  }
  bool any = false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!(std::isfinite(w[i]) && w[i] >= 0 && w[i] <= 1)) {
      throw InputError("--mask " + path + ": weight " + number_text(w[i]) + " at index " + std::to_string(i) +
                       " is invalid: weights lie in [0, 1]");
    }
    any = any || w[i] > 0;
  }
  if (!any) throw InputError("--mask " + path + " is zero everywhere: nothing would be updated");
}

Bounds velocity_bounds(const Grid& grid, const std::vector<double>& start, double vmin, double vmax,
                       const std::vector<double>& weights) {
  if (!(std::isfinite(vmin) && vmin > 0))
    throw InputError("--vmin " + number_text(vmin) + " m/s is invalid: a finite velocity > 0");
  if (!(std::isfinite(vmax) && vmax > vmin)) {
    throw InputError("--vmax " + number_text(vmax) + " m/s is invalid: a finite velocity above --vmin " +
                     number_text(vmin));
  }
  const index_t ny = grid.shape[1], nz = grid.shape[2];
  for (std::size_t i = 0; i < start.size(); ++i) {
    if (start[i] < vmin || start[i] > vmax) {
      const auto k = static_cast<index_t>(i);
      throw InputError("the starting model's velocity " + number_text(start[i]) + " m/s at point (" +
                       std::to_string(k / (ny * nz)) + ", " + std::to_string((k / nz) % ny) + ", " +
                       std::to_string(k % nz) + ") lies outside [--vmin, --vmax] = [" + number_text(vmin) + ", " +
                       number_text(vmax) + "] m/s");
    }
  }
  Bounds b = Bounds::uniform(start.size(), vmin, vmax);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] == 0) b.lower[i] = b.upper[i] = start[i];
  }
  return b;
}

}  // namespace revwave
