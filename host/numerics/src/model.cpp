#include "revwave/numerics/model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/density/density_model.hpp"

namespace revwave {

void validate(const VelocityModel& model) {
  const index_t n = model.shape[0] * model.shape[1] * model.shape[2];
  if (static_cast<index_t>(model.velocity.size()) != n) {
    throw InputError("velocity model has " + std::to_string(model.velocity.size()) + " values, its shape needs " +
                     std::to_string(n));
  }
  for (index_t ix = 0; ix < model.shape[0]; ++ix)
    for (index_t iy = 0; iy < model.shape[1]; ++iy)
      for (index_t iz = 0; iz < model.shape[2]; ++iz) {
        const double c = model.at(ix, iy, iz);
        if (!(std::isfinite(c) && c > 0)) {
          std::ostringstream os;
          os << "velocity " << c << " m/s at (" << ix << ", " << iy << ", " << iz
             << ") is invalid: velocities must be finite and positive";
          throw InputError(os.str());
        }
      }
  if (model.has_density()) validate_density(model);
}

double max_velocity(const VelocityModel& model) {
  return *std::max_element(model.velocity.begin(), model.velocity.end());
}
double min_velocity(const VelocityModel& model) {
  return *std::min_element(model.velocity.begin(), model.velocity.end());
}

double bulk_modulus_ratio(const VelocityModel& model) {
  double lo = HUGE_VAL, hi = 0;
  for (std::size_t i = 0; i < model.velocity.size(); ++i) {
    const double rho = model.has_density() ? model.density[i] : 1.0;
    const double kappa = rho * model.velocity[i] * model.velocity[i];
    lo = std::min(lo, kappa);
    hi = std::max(hi, kappa);
  }
  return lo > 0 && hi >= lo ? hi / lo : 1.0;
}

VelocityModel homogeneous_model(const std::array<index_t, 3>& shape, double velocity) {
  VelocityModel m{shape, std::vector<double>(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]), velocity)};
  return m;
}

namespace {

// The built-in model's geometry: a gradient in depth and a fast body at 0.55 of the depth.
struct DefaultModel {
  double spacing, cx, cy, cz, radius, depth;
  DefaultModel(const std::array<index_t, 3>& shape, double h)
      : spacing(h),
        cx(0.5 * (shape[0] - 1) * h),
        cy(0.5 * (shape[1] - 1) * h),
        cz(0.55 * (shape[2] - 1) * h),
        // 0.15 of the smallest side (on a plane, ny = 1, of x and z: a disc).
        radius(0.15 *
               static_cast<double>(shape[1] == 1 ? std::min(shape[0], shape[2])
                                                 : std::min({shape[0], shape[1], shape[2]})) *
               h),
        depth((shape[2] - 1) * h) {}
  double at(index_t ix, index_t iy, index_t iz) const {
    const double x = ix * spacing, y = iy * spacing, z = iz * spacing;
    double c = 1800.0 + 700.0 * (depth > 0 ? z / depth : 0.0);
    const double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
    if (r2 <= radius * radius) c += 400.0;
    return c;
  }
};

}  // namespace

VelocityModel default_true_model(const std::array<index_t, 3>& shape, double spacing) {
  VelocityModel m = homogeneous_model(shape, 0);
  const DefaultModel d(shape, spacing);
  for (index_t ix = 0; ix < shape[0]; ++ix)
    for (index_t iy = 0; iy < shape[1]; ++iy)
      for (index_t iz = 0; iz < shape[2]; ++iz)
        m.velocity[static_cast<std::size_t>((ix * shape[1] + iy) * shape[2] + iz)] = d.at(ix, iy, iz);
  return m;
}

double default_true_model_max_velocity(const std::array<index_t, 3>& shape, double spacing) {
  const DefaultModel d(shape, spacing);
  // Velocity grows with depth in every column and the body adds a constant: a column's fastest
  // point is its bottom or the deepest of its points in the body, found scanning up from the
  // bottom of the body's chord in that column (a point or two).
  // Outside the body every column's bottom is the same value: one column's stands for them.
  double fastest = d.at(0, 0, shape[2] - 1);
  // Only the columns within the radius of the centre meet the body.
  const auto first = [&](double c) {
    return std::max<index_t>(0, static_cast<index_t>(std::floor((c - d.radius) / spacing)));
  };
  const auto last = [&](double c, index_t n) {
    return std::min<index_t>(n - 1, static_cast<index_t>(std::ceil((c + d.radius) / spacing)));
  };
  for (index_t ix = first(d.cx); ix <= last(d.cx, shape[0]); ++ix)
    for (index_t iy = first(d.cy); iy <= last(d.cy, shape[1]); ++iy) {
      fastest = std::max(fastest, d.at(ix, iy, shape[2] - 1));
      const double x = ix * spacing - d.cx, y = iy * spacing - d.cy;
      if (x * x + y * y > d.radius * d.radius) continue;  // the column misses the body
      // Its body points lie within the chord's half-length of cz; a point of margin for rounding.
      const double chord = std::sqrt(d.radius * d.radius - (x * x + y * y));
      const auto top = static_cast<index_t>(std::ceil((d.cz + chord) / spacing)) + 1;
      for (index_t iz = std::min(shape[2] - 1, top); iz >= 0; --iz) {
        const double z = iz * spacing - d.cz;
        if (x * x + y * y + z * z <= d.radius * d.radius) {
          fastest = std::max(fastest, d.at(ix, iy, iz));
          break;
        }
        if (z < 0) break;  // above the centre the column's body points lie deeper
      }
    }
  return fastest;
}

VelocityModel smoothed(const VelocityModel& model, int radius, int passes) {
  VelocityModel out = model;
  std::vector<double> tmp(out.velocity.size());
  const auto& s = model.shape;
  const index_t stride[3] = {s[1] * s[2], s[2], 1};
  for (int p = 0; p < passes; ++p) {
    for (int axis = 0; axis < 3; ++axis) {
      for (index_t ix = 0; ix < s[0]; ++ix)
        for (index_t iy = 0; iy < s[1]; ++iy)
          for (index_t iz = 0; iz < s[2]; ++iz) {
            const index_t idx[3] = {ix, iy, iz};
            const index_t base = ix * stride[0] + iy * stride[1] + iz;
            double sum = 0;
            int count = 0;
            for (int d = -radius; d <= radius; ++d) {
              const index_t q = std::clamp<index_t>(idx[axis] + d, 0, s[axis] - 1);
              sum += out.velocity[static_cast<std::size_t>(base + (q - idx[axis]) * stride[axis])];
              ++count;
            }
            tmp[static_cast<std::size_t>(base)] = sum / count;
          }
      out.velocity.swap(tmp);
    }
  }
  return out;
}

template <class T>
HostBuffer padded_squared_slowness(const Grid& grid, const VelocityModel& model) {
  if (model.shape != grid.shape) {
    std::ostringstream os;
    os << "model shape (" << model.shape[0] << ", " << model.shape[1] << ", " << model.shape[2]
       << ") does not match the grid (" << grid.shape[0] << ", " << grid.shape[1] << ", " << grid.shape[2] << ")";
    throw InputError(os.str());
  }
  HostBuffer buf(grid.field_bytes<T>());
  T* m = buf.as<T>();
  const index_t lx = grid.layer_lo(0), ly = grid.layer_lo(1), lz = grid.layer_lo(2);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < grid.padded(0); ++i)
    for (index_t j = 0; j < grid.padded(1); ++j)
      for (index_t k = 0; k < grid.padded(2); ++k) {
        const index_t ix = std::clamp<index_t>(i - lx, 0, grid.shape[0] - 1);
        const index_t iy = std::clamp<index_t>(j - ly, 0, grid.shape[1] - 1);
        const index_t iz = std::clamp<index_t>(k - lz, 0, grid.shape[2] - 1);
        const double c = model.at(ix, iy, iz);
        m[grid.index(i, j, k)] = static_cast<T>(1.0 / (c * c));
      }
  return buf;
}

template HostBuffer padded_squared_slowness<float>(const Grid&, const VelocityModel&);
template HostBuffer padded_squared_slowness<double>(const Grid&, const VelocityModel&);

}  // namespace revwave
