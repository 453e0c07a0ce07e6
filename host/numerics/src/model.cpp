#include "revwave/numerics/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/density/density_model.hpp"
#include "revwave/numerics/visco/visco_model.hpp"
#include "revwave/numerics/vti/vti_model.hpp"

namespace revwave {

namespace {

// Passes over fewer values run on one thread (a team's start costs more).
constexpr std::int64_t scan_threads_from = 1 << 16;

}  // namespace

bool all_finite_positive(const std::vector<double>& v) {
  const auto n = static_cast<std::int64_t>(v.size());
  const double* p = v.data();
  const double largest = std::numeric_limits<double>::max();
  int bad = 0;
#pragma omp parallel for simd reduction(| : bad) schedule(static) if (n >= scan_threads_from)
  for (std::int64_t i = 0; i < n; ++i) bad |= (p[i] > 0 && p[i] <= largest) ? 0 : 1;
  return bad == 0;
}

ModelRange model_range(const VelocityModel& model) {
  const auto n = static_cast<std::int64_t>(model.velocity.size());
  const double* c = model.velocity.data();
  // A density of another size than the velocity is validate's to refuse: not read here.
  const double* rho =
      model.has_density() && model.density.size() == model.velocity.size() ? model.density.data() : nullptr;
  const double largest = std::numeric_limits<double>::max();
  double lo = HUGE_VAL, hi = -HUGE_VAL, klo = HUGE_VAL, khi = 0;
  int bad = 0;  // a velocity that is not finite and positive (NaN among them)
  // kappa = rho c^2, with rho = 1 without a density (the bits bulk_modulus_ratio always had).
#pragma omp parallel for simd reduction(min                                              \
                                        : lo, klo) reduction(max                         \
                                                             : hi, khi) reduction(|      \
                                                                                  : bad) \
    schedule(static) if (n >= scan_threads_from)
  for (std::int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, c[i]);
    hi = std::max(hi, c[i]);
    bad |= (c[i] > 0 && c[i] <= largest) ? 0 : 1;
    const double kappa = (rho != nullptr ? rho[i] : 1.0) * c[i] * c[i];
    klo = std::min(klo, kappa);
    khi = std::max(khi, kappa);
  }
  return {lo, hi, klo > 0 && khi >= klo ? khi / klo : 1.0, bad == 0};
}

ModelRange validated_range(const VelocityModel& model, const std::string& name) {
  const ModelRange range = model_range(model);
  validate(model, range, name);
  return range;
}

void validate(const VelocityModel& model) { (void)validated_range(model); }

void validate(const VelocityModel& model, const ModelRange& range, const std::string& name) {
  const index_t n = model.shape[0] * model.shape[1] * model.shape[2];
  if (static_cast<index_t>(model.velocity.size()) != n) {
    throw InputError("velocity model has " + std::to_string(model.velocity.size()) + " values, its shape needs " +
                     std::to_string(n));
  }
  // The threaded pass says whether to look; the first bad point is found a point at a time.
  if (!range.finite_positive)
    for (index_t ix = 0; ix < model.shape[0]; ++ix)
      for (index_t iy = 0; iy < model.shape[1]; ++iy)
        for (index_t iz = 0; iz < model.shape[2]; ++iz) {
          const double c = model.at(ix, iy, iz);
          if (!(std::isfinite(c) && c > 0)) {
            std::ostringstream os;
            if (!name.empty()) os << name << ": ";
            os << "velocity " << c << " m/s at (" << ix << ", " << iy << ", " << iz
               << ") is invalid: velocities must be finite and positive";
            throw InputError(os.str());
          }
        }
  if (model.has_density()) validate_density(model);
  if (model.has_anisotropy()) validate_vti(model);
  if (model.has_attenuation()) validate_q(model);
}

std::string point_text(const VelocityModel& model, std::size_t i) {
  const index_t n = static_cast<index_t>(i);
  const index_t nz = model.shape[2], ny = model.shape[1];
  std::ostringstream os;
  os << "(" << n / (ny * nz) << ", " << (n / nz) % ny << ", " << n % nz << ")";
  return os.str();
}

double max_velocity(const VelocityModel& model) { return model_range(model).max_velocity; }
double min_velocity(const VelocityModel& model) { return model_range(model).min_velocity; }

double bulk_modulus_ratio(const VelocityModel& model) { return model_range(model).bulk_modulus_ratio; }

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
#pragma omp parallel for schedule(static) if (shape[0] * shape[1] * shape[2] >= scan_threads_from)
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
  // A body point's velocity grows with its depth alone, and the column nearest the centre has the
  // longest chord, so the deepest body point lies in it: the columns around the centre (one of them
  // the nearest) are all there is to scan, whatever the model's size (a scan of every column that
  // meets the body took 10 s at 100000^3 before `plan` refused the size).
  const auto first = [&](double c) { return std::max<index_t>(0, static_cast<index_t>(std::floor(c / spacing))); };
  const auto last = [&](double c, index_t n) {
    return std::min<index_t>(n - 1, static_cast<index_t>(std::ceil(c / spacing)));
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
HostBuffer padded_interior_values(const Grid& grid, const std::vector<double>& values, double (*f)(double)) {
  HostBuffer buf(static_cast<std::size_t>(grid.coefficient_values()) * sizeof(T));
  T* out = buf.as<T>();
  const index_t lx = grid.layer_lo(0), ly = grid.layer_lo(1), lz = grid.layer_lo(2);
  const index_t nz = grid.shape[2], pz = grid.padded(2);
  // A z row at a time: the model's row (its nearest interior row in the layers) into the row's
  // interior, then its end values copied into the layer below and above.
#pragma omp parallel for schedule(static) if (grid.padded(0) * grid.padded(1) * pz >= scan_threads_from)
  for (index_t i = 0; i < grid.padded(0); ++i)
    for (index_t j = 0; j < grid.padded(1); ++j) {
      const index_t ix = std::clamp<index_t>(i - lx, 0, grid.shape[0] - 1);
      const index_t iy = std::clamp<index_t>(j - ly, 0, grid.shape[1] - 1);
      const double* v = &values[static_cast<std::size_t>((ix * grid.shape[1] + iy) * nz)];
      T* row = out + grid.index(i, j, 0);
      for (index_t iz = 0; iz < nz; ++iz) row[lz + iz] = static_cast<T>(f(v[iz]));
      std::fill(row, row + lz, row[lz]);
      std::fill(row + lz + nz, row + pz, row[lz + nz - 1]);
    }
  return buf;
}

template <class T>
HostBuffer padded_squared_slowness(const Grid& grid, const VelocityModel& model) {
  if (model.shape != grid.shape) {
    std::ostringstream os;
    os << "model shape (" << model.shape[0] << ", " << model.shape[1] << ", " << model.shape[2]
       << ") does not match the grid (" << grid.shape[0] << ", " << grid.shape[1] << ", " << grid.shape[2] << ")";
    throw InputError(os.str());
  }
  return padded_interior_values<T>(grid, model.velocity, [](double c) { return 1.0 / (c * c); });
}

template HostBuffer padded_interior_values<float>(const Grid&, const std::vector<double>&, double (*)(double));
template HostBuffer padded_interior_values<double>(const Grid&, const std::vector<double>&, double (*)(double));
template HostBuffer padded_squared_slowness<float>(const Grid&, const VelocityModel&);
template HostBuffer padded_squared_slowness<double>(const Grid&, const VelocityModel&);

}  // namespace revwave
