#include "revwave/numerics/density/density_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/fd_coefficients.hpp"

namespace revwave {

void validate_density(const VelocityModel& model) {
  const index_t n = model.shape[0] * model.shape[1] * model.shape[2];
  if (static_cast<index_t>(model.density.size()) != n) {
    throw InputError("density has " + std::to_string(model.density.size()) + " values, the model's shape needs " +
                     std::to_string(n));
  }
  for (index_t ix = 0; ix < model.shape[0]; ++ix)
    for (index_t iy = 0; iy < model.shape[1]; ++iy)
      for (index_t iz = 0; iz < model.shape[2]; ++iz) {
        const double rho = model.density[static_cast<std::size_t>((ix * model.shape[1] + iy) * model.shape[2] + iz)];
        if (!(std::isfinite(rho) && rho > 0)) {
          std::ostringstream os;
          os << "density " << rho << " kg/m^3 at (" << ix << ", " << iy << ", " << iz
             << ") is invalid: densities must be finite and positive";
          throw InputError(os.str());
        }
      }
}

namespace {

// E: the interior index (C order) whose density allocated point (x, y, z) takes.
struct Extension {
  const Grid& g;
  index_t offset;  // radius + nbl: allocated x (or y) of interior 0; along z it is the layer above
  std::size_t operator()(index_t x, index_t y, index_t z) const {
    const index_t ix = std::clamp<index_t>(x - offset, 0, g.shape[0] - 1);
    const index_t iy = std::clamp<index_t>(y - offset, 0, g.shape[1] - 1);
    const index_t iz = std::clamp<index_t>(z - g.layer_lo(2), 0, g.shape[2] - 1);
    return static_cast<std::size_t>((ix * g.shape[1] + iy) * g.shape[2] + iz);
  }
};

// sqrt(rho) at every allocated point (E), in double.
std::vector<double> allocated_root_density(const Grid& g, const VelocityModel& model) {
  const Extension e{g, g.radius() + g.nbl};
  std::vector<double> out(static_cast<std::size_t>(g.alloc_points()));
  const index_t nx = g.alloc(0), ny = g.alloc(1), nz = g.alloc(2);
#pragma omp parallel for schedule(static)
  for (index_t x = 0; x < nx; ++x)
    for (index_t y = 0; y < ny; ++y)
      for (index_t z = 0; z < nz; ++z)
        out[static_cast<std::size_t>((x * ny + y) * nz + z)] = std::sqrt(model.density[e(x, y, z)]);
  return out;
}

}  // namespace

template <class T>
DensityFields make_density_fields(const Grid& grid, const VelocityModel& model) {
  validate_density(model);
  const std::vector<double> root = allocated_root_density(grid, model);
  DensityFields f;
  f.s = HostBuffer(grid.field_bytes<T>());
  f.t = HostBuffer(grid.field_bytes<T>());
  T* s = f.s.as<T>();
  T* t = f.t.as<T>();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < root.size(); ++i) {
    s[i] = static_cast<T>(1.0 / root[i]);
    t[i] = static_cast<T>(root[i]);
  }
  return f;
}

double density_dt_factor(const Grid& g, const VelocityModel& model) {
  if (!model.has_density()) return 1.0;
  validate_density(model);
  const std::vector<double> root = allocated_root_density(g, model);
  const std::vector<double> c = second_derivative_weights(g.space_order);
  const int r = static_cast<int>(g.radius());
  // A constant density's row: |sum c_i| + sum |c_i| over the 6 neighbours at each distance (4 on a
  // plane, whose y neighbours are the point itself: no pair of K).
  const int neighbours = 2 * g.dimensions();
  double plain_sum = 0, plain_abs = 0;
  for (int q = 1; q <= r; ++q) {
    plain_sum += neighbours * c[static_cast<std::size_t>(q)];
    plain_abs += neighbours * std::abs(c[static_cast<std::size_t>(q)]);
  }
  const double plain = std::abs(plain_sum) + plain_abs;
  const index_t sx = g.stride_x(), sy = g.stride_y();
  double kappa = 1.0;
#pragma omp parallel for collapse(2) schedule(static) reduction(max : kappa)
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k) {
        const index_t idx = g.index(i, j, k);
        const double centre = root[static_cast<std::size_t>(idx)];
        // K's row: off-diagonal w_i t_k s_i = w_i sqrt(rho_k / rho_i), diagonal minus their sum.
        double sum = 0, abs_sum = 0;
        for (int q = 1; q <= r; ++q)
          for (index_t stride : {index_t(1), sy, sx}) {
            if (stride == 0) continue;  // a plane's y: no neighbour
            for (index_t d : {q * stride, -q * stride}) {
              // Above a free surface the neighbour is the mirror image's (K_eff's row sums are at
              // most these: docs/physics/density.md).
              const index_t at = g.free_surface && stride == 1 && k + d < 0 ? idx - 2 * k - d : idx + d;
              const double ratio = centre / root[static_cast<std::size_t>(at)];
              sum += c[static_cast<std::size_t>(q)] * ratio;
              abs_sum += std::abs(c[static_cast<std::size_t>(q)]) * ratio;
            }
          }
        kappa = std::max(kappa, (std::abs(sum) + abs_sum) / plain);
      }
  return 1.0 / std::sqrt(kappa);
}

template <class T>
std::vector<double> fold_allocated_to_interior(const Grid& g, const T* allocated) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2];
  const index_t offset = g.radius() + g.nbl;
  // The allocated indices along an axis that E maps to interior index i (n interior, a allocated).
  auto lo = [](index_t i, index_t off) { return i == 0 ? index_t(0) : i + off; };
  auto hi = [](index_t i, index_t n, index_t a, index_t off) { return i == n - 1 ? a - 1 : i + off; };
  std::vector<double> out(static_cast<std::size_t>(nx * ny * nz));
  const index_t ax = g.alloc(0), ay = g.alloc(1), az = g.alloc(2);
#pragma omp parallel for schedule(static)
  for (index_t ix = 0; ix < nx; ++ix)
    for (index_t iy = 0; iy < ny; ++iy)
      for (index_t iz = 0; iz < nz; ++iz) {
        double sum = 0;
        for (index_t x = lo(ix, offset); x <= hi(ix, nx, ax, offset); ++x)
          for (index_t y = lo(iy, offset); y <= hi(iy, ny, ay, offset); ++y)
            for (index_t z = lo(iz, g.layer_lo(2)); z <= hi(iz, nz, az, g.layer_lo(2)); ++z)
              sum += static_cast<double>(allocated[(x * ay + y) * az + z]);
        out[static_cast<std::size_t>((ix * ny + iy) * nz + iz)] = sum;
      }
  return out;
}

template DensityFields make_density_fields<float>(const Grid&, const VelocityModel&);
template DensityFields make_density_fields<double>(const Grid&, const VelocityModel&);
template std::vector<double> fold_allocated_to_interior<float>(const Grid&, const float*);
template std::vector<double> fold_allocated_to_interior<double>(const Grid&, const double*);

}  // namespace revwave
