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
  if (!all_finite_positive(model.density))  // the first bad point, a point at a time
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
  const auto [lo, hi] = std::minmax_element(model.density.begin(), model.density.end());
  if (!model.density.empty() && !(*hi / *lo <= max_density_contrast)) {
    std::ostringstream os;
    os << "density contrast " << *hi << " / " << *lo << " kg/m^3 is beyond " << max_density_contrast
       << ": the largest density may be at most " << max_density_contrast << " times the smallest";
    throw InputError(os.str());
  }
}

double density_reference(const VelocityModel& model) {
  const auto [lo, hi] = std::minmax_element(model.density.begin(), model.density.end());
  return *lo * std::sqrt(*hi / *lo);  // exactly *lo when all are equal
}

namespace {

// The scaled density rho / reference at padded coordinates (i, j, k), any of them past the padded
// grid: each axis clamped to the padded range, then E; past a free surface (k < 0) its mirror.
struct PaddedDensity {
  const Grid& g;
  const VelocityModel& model;
  double reference;
  double operator()(index_t i, index_t j, index_t k) const {
    if (g.free_surface && k < 0) k = -k;
    const index_t ix = std::clamp<index_t>(i - g.layer_lo(0), 0, g.shape[0] - 1);
    const index_t iy = std::clamp<index_t>(j - g.layer_lo(1), 0, g.shape[1] - 1);
    const index_t iz = std::clamp<index_t>(k - g.layer_lo(2), 0, g.shape[2] - 1);
    return model.density[static_cast<std::size_t>((ix * g.shape[1] + iy) * g.shape[2] + iz)] / reference;
  }
  // Clamped to the padded range (the density an end of a half point past the grid takes).
  double clamped(index_t i, index_t j, index_t k) const {
    return (*this)(std::clamp<index_t>(i, 0, g.padded(0) - 1), std::clamp<index_t>(j, 0, g.padded(1) - 1),
                   g.free_surface && k < 0 ? k : std::clamp<index_t>(k, 0, g.padded(2) - 1));
  }
};

// Axis a's unit step in padded coordinates.
constexpr index_t step_of(int a, int axis) { return a == axis ? 1 : 0; }

}  // namespace

template <class T>
DensityFields make_density_fields(const Grid& grid, const VelocityModel& model) {
  validate_density(model);
  const Grid& g = grid;
  DensityFields f;
  f.reference = density_reference(model);
  const PaddedDensity rho{g, model, f.reference};
  const int rd = (static_cast<int>(g.radius()) + 1) / 2;
  f.stagger = staggered_first_derivative_weights(rd);
  for (double& d : f.stagger) d /= g.spacing;
  f.s = HostBuffer(grid.field_bytes<T>());
  f.t = HostBuffer(grid.field_bytes<T>());
  T* s = f.s.as<T>();
  T* t = f.t.as<T>();
  const index_t r = g.radius();
  const index_t ax = g.alloc(0), ay = g.alloc(1), az = g.alloc(2);
  const index_t py = g.planar() ? 0 : r;  // a plane has no y halo
  // s and t at every allocated point: E (a gap takes its own row's last value).
#pragma omp parallel for schedule(static)
  for (index_t x = 0; x < ax; ++x)
    for (index_t y = 0; y < ay; ++y)
      for (index_t z = 0; z < az; ++z) {
        const double root = std::sqrt(rho.clamped(x - r, y - py, std::min<index_t>(z, g.padded(2) - 1)));
        const std::size_t i = static_cast<std::size_t>((x * ay + y) * az + z);
        s[i] = static_cast<T>(1.0 / root);
        t[i] = static_cast<T>(root);
      }
  // B per axis at the half points each padded row reads: lower ends -RD .. n + RD - 2 along the
  // axis, both ends' densities clamped to the padded range (a free surface's z: mirrored, unread).
  const index_t n[3] = {g.padded(0), g.padded(1), g.padded(2)};
  for (int a = 0; a < 3; ++a) {  // 0: z, 1: y, 2: x (the formulas' order)
    f.b[a] = HostBuffer(grid.field_bytes<T>());
    T* b = f.b[a].as<T>();
    std::fill(b, b + grid.alloc_points(), T(1));
    const int axis = 2 - a;                 // padded coordinate index
    if (axis == 1 && g.planar()) continue;  // no y derivative on a plane
    const index_t lo[3] = {axis == 0 ? -rd : 0, axis == 1 ? -rd : 0, axis == 2 ? -rd : 0};
    const index_t hi[3] = {n[0] + (axis == 0 ? rd - 1 : 0), n[1] + (axis == 1 ? rd - 1 : 0),
                           n[2] + (axis == 2 ? rd - 1 : 0)};
#pragma omp parallel for schedule(static)
    for (index_t i = lo[0]; i < hi[0]; ++i)
      for (index_t j = lo[1]; j < hi[1]; ++j)
        for (index_t k = lo[2]; k < hi[2]; ++k) {
          const double s0 = 1.0 / std::sqrt(rho.clamped(i, j, k));
          const double s1 =
              1.0 / std::sqrt(rho.clamped(i + step_of(0, axis), j + step_of(1, axis), k + step_of(2, axis)));
          b[g.index(i, j, k)] = static_cast<T>(s0 * s1);
        }
  }
  return f;
}

namespace {

// The bound on the largest eigenvalue of -diag(sqrt(rho)) A diag(sqrt(rho)) = -(P + T D^T B D T)
// (P = L + D^T D, T = diag(t)): P's is dims (l(pi) - d(pi)) for the symbols l of -L and d of D^T D
// along an axis (both largest at pi); T D^T B D T's is at most Gershgorin's on B^(1/2) D T^2 D^T
// B^(1/2) over the half points: sqrt(B_h) sum_k |D_hk| rho_k S_k, S_k = sum_h' |D_h'k| sqrt(B_h')
// over every axis. A constant density gives dims d(pi) there: the sum is dims l(pi), kappa 1.
double density_kappa(const Grid& g, const PaddedDensity& rho) {
  const int r = static_cast<int>(g.radius()), rd = (r + 1) / 2;
  const std::vector<double> c = second_derivative_weights(g.space_order);
  const std::vector<double> d = staggered_first_derivative_weights(rd);
  double l_pi = -c[0], d_sum = 0;
  for (int q = 1; q <= r; ++q) l_pi += 2 * std::abs(c[static_cast<std::size_t>(q)]);
  for (int q = 1; q <= rd; ++q) d_sum += 2 * std::abs(d[static_cast<std::size_t>(q)]);
  const double d_pi = d_sum * d_sum;
  const int dims = g.dimensions();
  const index_t n[3] = {g.padded(0), g.padded(1), g.padded(2)};
  // The axes with a derivative, and sqrt(B) of the half point between (i, j, k) and its next along `axis`.
  std::vector<int> axes = {0, 2};
  if (!g.planar()) axes.insert(axes.begin() + 1, 1);
  auto root_b = [&](int axis, index_t i, index_t j, index_t k) {
    const double a = rho.clamped(i, j, k);
    const double b = rho.clamped(i + step_of(0, axis), j + step_of(1, axis), k + step_of(2, axis));
    return std::pow(a * b, -0.25);
  };
  const index_t z0 = g.free_surface ? -(2 * rd) : 0;  // the mirror's rows that the top rows read
  const index_t nz = n[2] - z0;
  std::vector<double> sk(static_cast<std::size_t>(n[0] * n[1] * nz), 0.0);
  auto at = [&](index_t i, index_t j, index_t k) { return static_cast<std::size_t>((i * n[1] + j) * nz + (k - z0)); };
  // S_k, a chunk of x planes and an axis at a time: sqrt(B) of the half points the chunk's sums
  // read is taken once into `rb` (pow dominated the set-up when each point took its 2 RD per
  // axis), then added in the order of the sum over axes and q, so every S_k has the same bits.
  constexpr index_t chunk = 16;
  std::vector<double> rb;
  for (index_t i0 = 0; i0 < n[0]; i0 += chunk) {
    const index_t i1 = std::min(n[0], i0 + chunk);
    for (int axis : axes) {
      // The half points' box: the chunk's points, rd before and rd - 1 after along the axis.
      const index_t b0[3] = {i0 - rd * step_of(0, axis), -rd * step_of(1, axis), z0 - rd * step_of(2, axis)};
      const index_t e0[3] = {i1 + (rd - 1) * step_of(0, axis), n[1] + (rd - 1) * step_of(1, axis),
                             n[2] + (rd - 1) * step_of(2, axis)};
      const index_t ey = e0[1] - b0[1], ez = e0[2] - b0[2];
      rb.resize(static_cast<std::size_t>((e0[0] - b0[0]) * ey * ez));
      auto rb_at = [&](index_t i, index_t j, index_t k) {
        return static_cast<std::size_t>(((i - b0[0]) * ey + (j - b0[1])) * ez + (k - b0[2]));
      };
#pragma omp parallel for collapse(2) schedule(static)
      for (index_t i = b0[0]; i < e0[0]; ++i)
        for (index_t j = b0[1]; j < e0[1]; ++j)
          for (index_t k = b0[2]; k < e0[2]; ++k) rb[rb_at(i, j, k)] = root_b(axis, i, j, k);
      const index_t si = step_of(0, axis), sj = step_of(1, axis), sz = step_of(2, axis);
#pragma omp parallel for collapse(2) schedule(static)
      for (index_t i = i0; i < i1; ++i)
        for (index_t j = 0; j < n[1]; ++j)
          for (index_t k = z0; k < n[2]; ++k) {
            double sum = sk[at(i, j, k)];
            for (int q = 1; q <= rd; ++q) {
              const double w = std::abs(d[static_cast<std::size_t>(q)]);
              const index_t lo = q, hi = q - 1;  // the half points k - q and k + q - 1
              sum += w * (rb[rb_at(i - lo * si, j - lo * sj, k - lo * sz)] +
                          rb[rb_at(i + hi * si, j + hi * sj, k + hi * sz)]);
            }
            sk[at(i, j, k)] = sum;
          }
    }
  }
  auto inside = [&](index_t i, index_t j, index_t k) {
    return i >= 0 && i < n[0] && j >= 0 && j < n[1] && k >= z0 && k < n[2];
  };
  double g_max = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(max : g_max)
  for (index_t i = -rd; i < n[0] + rd; ++i)
    for (index_t j = -rd; j < n[1] + rd; ++j)
      for (index_t k = z0 - rd; k < n[2] + rd; ++k)
        for (int axis : axes) {
          double sum = 0;
          for (int q = 1; q <= rd; ++q) {
            const double w = std::abs(d[static_cast<std::size_t>(q)]);
            // the points a + q and a + 1 - q of half point a = (i, j, k)
            const index_t up = q, down = 1 - q;
            const index_t i1 = i + up * step_of(0, axis), j1 = j + up * step_of(1, axis),
                          k1 = k + up * step_of(2, axis);
            const index_t i2 = i + down * step_of(0, axis), j2 = j + down * step_of(1, axis),
                          k2 = k + down * step_of(2, axis);
            if (inside(i1, j1, k1)) sum += w * rho.clamped(i1, j1, k1) * sk[at(i1, j1, k1)];
            if (inside(i2, j2, k2)) sum += w * rho.clamped(i2, j2, k2) * sk[at(i2, j2, k2)];
          }
          g_max = std::max(g_max, root_b(axis, i, j, k) * sum);
        }
  return (dims * (l_pi - d_pi) + g_max) / (dims * l_pi);
}

}  // namespace

double density_dt_factor(const Grid& g, const VelocityModel& model) {
  if (!model.has_density()) return 1.0;
  validate_density(model);
  const PaddedDensity rho{g, model, density_reference(model)};
  const double kappa = density_kappa(g, rho);
  return kappa <= 1.0 ? 1.0 : 1.0 / std::sqrt(kappa);
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
