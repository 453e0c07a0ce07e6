#include "revwave/driver/window_problem.hpp"

#include <algorithm>
#include <stdexcept>

#include "revwave/core/errors.hpp"

namespace revwave {

template <class T>
void make_resident(ResidentModel<T>& out, const Grid& grid, const VelocityModel& model) {
  validate(model);
  if (model.shape != grid.shape) throw std::logic_error("make_resident: the model's shape is not the grid's");
  check_physics_supported(grid, model);
  out.grid = grid;
  out.grid.extra_fields = model.physics().extra_fields();
  out.epsilon = model.epsilon;  // validate() checked them
  out.delta = model.delta;
  out.q = model.q;
  out.q_frequency = model.q_frequency;
  out.q_f0 = model.q_f0;
  out.vmin = min_velocity(model);
  out.vmax = max_velocity(model);
  out.density = model.density;  // validate() checked it
  out.physics_factor = physics_dt_factor(grid, model);
  out.bulk_modulus_ratio = bulk_modulus_ratio(model);
  out.m.resize(model.velocity.size());
  const auto n = static_cast<std::int64_t>(out.m.size());
  const double* c = model.velocity.data();
  T* m = out.m.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) m[i] = static_cast<T>(1.0 / (c[i] * c[i]));
}

template <class T>
void check_resident(const ResidentModel<T>& model, const TimeAxis& time, double f0) {
  // The smallest problem make_problem accepts, holding the model's slowest and fastest velocities
  // (planar if the model is: its time step's bound is the plane's).
  Grid g = model.grid;
  g.shape = {2, model.grid.planar() ? 1 : 2, 2};
  g.free_surface = false;  // its points sit at the origin; the surface changes no coefficient
  VelocityModel extremes{g.shape, std::vector<double>(static_cast<std::size_t>(g.interior_points()), model.vmax)};
  extremes.velocity[0] = model.vmin;
  Acquisition a;
  a.sources = {{0, 0, 0}};
  a.receivers = {{0, 0, 0}};
  a.f0 = f0;
  TimeAxis t = time;
  t.steps = 1;
  make_problem<T>(g, extremes, a, t);
  if (model.physics_factor < 1.0) check_stable(time.dt, model.grid, model.vmax, model.physics_factor);
}

namespace {

// The values of a whole-model interior field (C order, the model's grid) in the window at `first` of
// `shape` points, as window_model cuts them.
std::vector<double> window_values(const std::vector<double>& whole, const Grid& grid,
                                  const std::array<index_t, 3>& first, const std::array<index_t, 3>& shape) {
  std::vector<double> out(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]));
  const index_t NY = grid.shape[1], NZ = grid.shape[2];
  std::size_t i = 0;
  for (index_t x = 0; x < shape[0]; ++x)
    for (index_t y = 0; y < shape[1]; ++y) {
      const double* column = whole.data() + ((first[0] + x) * NY + first[1] + y) * NZ + first[2];
      std::copy(column, column + shape[2], out.begin() + static_cast<std::ptrdiff_t>(i));
      i += static_cast<std::size_t>(shape[2]);
    }
  return out;
}

// The window's density, epsilon, delta and Q as window_model cuts them, and their coefficients as
// make_problem makes them (none where the model has none).
template <class T>
void fill_window_parameters(Problem<T>& p, const ResidentModel<T>& model, const std::array<index_t, 3>& first,
                            const std::array<index_t, 3>& shape) {
  p.density.reset();
  p.vti.reset();
  p.visco.reset();
  if (!model.density.empty()) {
    VelocityModel w;
    w.shape = shape;
    w.density = window_values(model.density, model.grid, first, shape);
    p.density = make_density_fields<T>(p.grid, w);
  }
  if (!model.epsilon.empty()) {
    p.vti = make_vti_fields<T>(p.grid, window_values(model.epsilon, model.grid, first, shape),
                               window_values(model.delta, model.grid, first, shape));
  }
  if (!model.q.empty()) {
    p.visco = make_visco_fields<T>(p.grid, window_values(model.q, model.grid, first, shape), model.q_frequency,
                                   model.q_f0, p.time.dt);
  }
}

}  // namespace

template <class T>
void fill_window_problem(Problem<T>& p, const ResidentModel<T>& model, const std::array<index_t, 3>& first,
                         const std::array<index_t, 3>& shape, const Acquisition& acq, const TimeAxis& time,
                         const std::vector<double>& wavelet, bool with_m) {
  const Grid& whole = model.grid;
  for (int a = 0; a < 3; ++a)
    if (first[a] < 0 || shape[a] < std::min<index_t>(2, whole.shape[a]) || first[a] + shape[a] > whole.shape[a])
      throw std::logic_error("fill_window_problem: the window leaves the model");
  Grid window = whole;
  window.shape = shape;
  window.free_surface = whole.free_surface && first[2] == 0;  // as window_grid keeps it
  assign_operator(p, window, time, acq, wavelet);
  const Grid& g = p.grid;
  const index_t lx = g.layer_lo(0), ly = g.layer_lo(1), lz = g.layer_lo(2), NY = whole.shape[1], NZ = whole.shape[2];
  const std::size_t m_bytes = static_cast<std::size_t>(g.coefficient_values()) * sizeof(T);
  if (with_m && p.m.bytes() < m_bytes) p.m = HostBuffer(m_bytes);
  // padded_squared_slowness: the layer copies the nearest interior edge point.
  T* m = p.m.template as<T>();
  const T* src = model.m.data();
#pragma omp parallel for schedule(static) if (with_m)
  for (index_t i = 0; i < (with_m ? g.padded(0) : 0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j) {
      const index_t ix = first[0] + std::clamp<index_t>(i - lx, 0, shape[0] - 1);
      const index_t iy = first[1] + std::clamp<index_t>(j - ly, 0, shape[1] - 1);
      const T* column = src + (ix * NY + iy) * NZ + first[2];
      T* out = m + g.index(i, j, 0);
      for (index_t k = 0; k < lz; ++k) out[k] = column[0];
      std::copy(column, column + shape[2], out + lz);
      for (index_t k = lz + shape[2]; k < g.padded(2); ++k) out[k] = column[shape[2] - 1];
    }
  fill_window_parameters(p, model, first, shape);
  p.bulk_modulus_ratio = model.bulk_modulus_ratio;
}

template <class T>
T window_a_at(const Problem<T>& p, const ResidentModel<T>& model, const std::array<index_t, 3>& first, index_t idx) {
  const auto [i, j, k] = p.grid.coordinates(idx);
  const Grid& g = p.grid;
  const index_t ix = first[0] + std::clamp<index_t>(i - g.layer_lo(0), 0, g.shape[0] - 1);
  const index_t iy = first[1] + std::clamp<index_t>(j - g.layer_lo(1), 0, g.shape[1] - 1);
  const index_t iz = first[2] + std::clamp<index_t>(k - g.layer_lo(2), 0, g.shape[2] - 1);
  const T m = model.m[static_cast<std::size_t>((ix * model.grid.shape[1] + iy) * model.grid.shape[2] + iz)];
  const T eta = damping_eta(p.coeffs, p.kappa[0][i], p.kappa[1][j], p.kappa[2][k]);
  return leapfrog_a(p.coeffs, m, eta);
}

#define REVWAVE_INSTANTIATE(T)                                                                              \
  template void make_resident<T>(ResidentModel<T>&, const Grid&, const VelocityModel&);                     \
  template void check_resident<T>(const ResidentModel<T>&, const TimeAxis&, double);                        \
  template void fill_window_problem<T>(Problem<T>&, const ResidentModel<T>&, const std::array<index_t, 3>&, \
                                       const std::array<index_t, 3>&, const Acquisition&, const TimeAxis&,  \
                                       const std::vector<double>&, bool);                                   \
  template T window_a_at<T>(const Problem<T>&, const ResidentModel<T>&, const std::array<index_t, 3>&, index_t);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
