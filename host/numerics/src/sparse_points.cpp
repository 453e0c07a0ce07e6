#include "revwave/numerics/sparse_points.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "revwave/core/errors.hpp"

namespace revwave {

void check_sources_below_free_surface(const Grid& grid, const std::vector<Vec3>& sources, const std::string& what) {
  if (!grid.free_surface) return;
  for (std::size_t p = 0; p < sources.size(); ++p) {
    const double z = sources[p][2];
    if (!(std::isfinite(z) && z <= 0)) continue;
    std::ostringstream os;
    os.precision(17);
    os << what << " " << p << " at (" << sources[p][0] << ", " << sources[p][1] << ", " << z << ") m lies "
       << (z < 0 ? "above" : "on") << " the free surface z = 0, where the pressure is zero: with --free-surface "
       << "a source must lie below it (z > 0)";
    throw InputError(os.str());
  }
}

SparsePoints trilinear_points(const Grid& grid, const std::vector<Vec3>& coords, const std::string& what) {
  SparsePoints pts;
  pts.count = static_cast<index_t>(coords.size());
  pts.index.reserve(coords.size() * 8);
  pts.weight.reserve(coords.size() * 8);
  for (std::size_t p = 0; p < coords.size(); ++p) {
    index_t base[3];
    double frac[3];
    for (int a = 0; a < 3; ++a) {
      const double x = coords[p][a];
      if (!(std::isfinite(x) && x >= 0 && x <= grid.extent(a))) {
        std::ostringstream os;
        os.precision(17);
        os << what << " " << p << " at (" << coords[p][0] << ", " << coords[p][1] << ", " << coords[p][2]
           << ") m lies outside the grid: coordinates must be within [0, " << grid.extent(0) << "] x [0, "
           << grid.extent(1) << "] x [0, " << grid.extent(2) << "] m";
        throw InputError(os.str());
      }
      // The cell [i0, i0 + 1] holding x, with i0 <= n - 2: a point on the far face x = (n-1) h
      // takes the last cell with weight 1 on its upper corner, so all 8 corners are interior
      // points and nothing outside the box is read, whatever nbl is (with nbl 0 the next point
      // out is the zero halo, where m = 0 and the stencil's 1/a would be infinite).
      // A plane's one row (extent 0, so y = 0): weight 1 on it; the upper corner's weight 0 falls on
      // the same point (a plane's y stride is 0).
      const double s = x / grid.spacing;
      const index_t i0 =
          std::clamp<index_t>(static_cast<index_t>(std::floor(s)), 0, std::max<index_t>(grid.shape[a] - 2, 0));
      base[a] = i0 + grid.layer_lo(a);
      frac[a] = grid.shape[a] == 1 ? 0.0 : std::clamp(s - static_cast<double>(i0), 0.0, 1.0);
    }
    for (int c = 0; c < 8; ++c) {
      const int dx = (c >> 2) & 1, dy = (c >> 1) & 1, dz = c & 1;
      double w = (dx ? frac[0] : 1 - frac[0]) * (dy ? frac[1] : 1 - frac[1]) * (dz ? frac[2] : 1 - frac[2]);
      // The free surface's plane z = 0 holds no unknown (u = 0 there): nothing is injected into it
      // or read from it, so a receiver on it records zero and injection stays sampling's adjoint.
      if (grid.free_surface && base[2] + dz == 0) w = 0;
      pts.index.push_back(grid.index(base[0] + dx, base[1] + dy, base[2] + dz));
      pts.weight.push_back(w);
    }
  }
  return pts;
}

template <class T>
void sample_points(const SparsePoints& pts, const T* field, T* out) {
  // Each receiver is independent (same sum order whatever the threads); a dense receiver
  // grid (128 x 128) costs a tenth of a 128^3 step when sampled on one thread.
#pragma omp parallel for schedule(static) if (pts.count > 1024)
  for (index_t p = 0; p < pts.count; ++p) {
    T s = 0;
    for (int c = 0; c < 8; ++c) s += static_cast<T>(pts.weight[8 * p + c]) * field[pts.index[8 * p + c]];
    out[p] = s;
  }
}

template <class T>
void inject_points(const SparsePoints& pts, const T* values, const T* scale, T* field) {
  for (index_t p = 0; p < pts.count; ++p)
    for (int c = 0; c < 8; ++c) {
      const index_t k = 8 * p + c;
      field[pts.index[k]] += static_cast<T>(pts.weight[k]) * values[p] * scale[k];
    }
}

template void sample_points<float>(const SparsePoints&, const float*, float*);
template void sample_points<double>(const SparsePoints&, const double*, double*);
template void inject_points<float>(const SparsePoints&, const float*, const float*, float*);
template void inject_points<double>(const SparsePoints&, const double*, const double*, double*);

}  // namespace revwave
