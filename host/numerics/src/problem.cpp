#include "revwave/numerics/problem.hpp"

#include <cmath>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/fd_coefficients.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {

void validate(const Grid& grid) {
  for (int a = 0; a < 3; ++a) {
    if (grid.shape[a] < 2) {
      throw InputError("shape " + std::to_string(grid.shape[a]) + " on axis " + std::to_string(a) +
                       " is too small: at least 2 interior points per axis");
    }
  }
  if (grid.nbl < 0) throw InputError("nbl " + std::to_string(grid.nbl) + " is negative: it must be >= 0");
  if (!(std::isfinite(grid.spacing) && grid.spacing > 0)) {
    std::ostringstream os;
    os << "spacing " << grid.spacing << " m is invalid: it must be finite and positive";
    throw InputError(os.str());
  }
  second_derivative_weights(grid.space_order);  // throws on an unsupported order
}

double max_stable_dt(const Grid& grid, double max_velocity) {
  return 2.0 / (max_velocity * std::sqrt(laplacian_spectral_radius(grid.space_order, grid.spacing)));
}

double default_dt(const Grid& grid, double max_velocity) { return 0.9 * max_stable_dt(grid, max_velocity); }

void check_stable(double dt, const Grid& grid, double max_velocity) {
  const double limit = max_stable_dt(grid, max_velocity);
  if (!(std::isfinite(dt) && dt > 0) || dt > limit) {
    std::ostringstream os;
    os.precision(6);
    os << "dt " << dt << " s is ";
    os << ((std::isfinite(dt) && dt > 0) ? "unstable" : "invalid");
    os << ": with max velocity " << max_velocity << " m/s, space order " << grid.space_order << " and spacing "
       << grid.spacing << " m the largest stable dt is " << limit << " s";
    throw InputError(os.str());
  }
}

TimeAxis make_time_axis(double tn, double dt) {
  if (!(std::isfinite(tn) && tn > 0)) {
    std::ostringstream os;
    os << "tn " << tn << " s is invalid: the simulated time must be finite and positive";
    throw InputError(os.str());
  }
  TimeAxis t;
  t.dt = dt;
  t.steps = static_cast<index_t>(std::ceil(tn / dt - 1e-9));
  if (t.steps < 1) t.steps = 1;
  return t;
}

double damping_m0(double spacing, double dt) { return (dt / spacing) * (dt / spacing); }

std::vector<double> damping_profile(index_t interior, index_t nbl, double dt) {
  std::vector<double> k(static_cast<std::size_t>(interior + 2 * nbl), 0.0);
  if (nbl == 0) return k;
  // Quadratic ramp; the peak rate makes the two-way travel through the layer
  // attenuate by about exp(-20 C) at Courant number C, whatever nbl is.
  const double kappa_max = 60.0 / (static_cast<double>(nbl) * dt);
  for (index_t i = 0; i < interior + 2 * nbl; ++i) {
    index_t d = 0;
    if (i < nbl) d = nbl - i;
    else if (i > nbl + interior - 1) d = i - (nbl + interior - 1);
    const double x = static_cast<double>(d) / static_cast<double>(nbl);
    k[static_cast<std::size_t>(i)] = kappa_max * x * x;
  }
  return k;
}

template <class T>
Problem<T> make_problem(const Grid& grid, const VelocityModel& model, const Acquisition& acq, const TimeAxis& time) {
  validate(grid);
  validate(model);
  check_stable(time.dt, grid, max_velocity(model));
  if (!(std::isfinite(acq.f0) && acq.f0 > 0)) {
    std::ostringstream os;
    os << "f0 " << acq.f0 << " Hz is invalid: the peak frequency must be finite and positive";
    throw InputError(os.str());
  }
  if (acq.sources.empty()) throw InputError("no source given: at least one --src is needed");
  if (acq.receivers.empty()) throw InputError("no receiver given: at least one --rec is needed");
  Problem<T> p;
  p.grid = grid;
  p.time = time;
  p.acquisition = acq;
  p.coeffs.inv_dt2 = static_cast<T>(1.0 / (time.dt * time.dt));
  p.coeffs.half_inv_dt = static_cast<T>(0.5 / time.dt);
  p.coeffs.damping_m0 = static_cast<T>(damping_m0(grid.spacing, time.dt));
  p.m = padded_squared_slowness<T>(grid, model);
  for (int a = 0; a < 3; ++a) {
    const std::vector<double> k = damping_profile(grid.shape[a], grid.nbl, time.dt);
    p.kappa[a].assign(k.begin(), k.end());
  }
  const std::vector<double> c = second_derivative_weights(grid.space_order);
  const double h2 = grid.spacing * grid.spacing;
  p.weights.resize(c.size());
  p.weights[0] = static_cast<T>(3.0 * c[0] / h2);
  for (std::size_t j = 1; j < c.size(); ++j) p.weights[j] = static_cast<T>(c[j] / h2);
  p.src = trilinear_points(grid, acq.sources, "source");
  p.rec = trilinear_points(grid, acq.receivers, "receiver");
  const std::vector<double> w = ricker_samples(acq.f0, acq.t0, time.dt, time.nt());
  p.wavelet.assign(w.begin(), w.end());
  return p;
}

template Problem<float> make_problem<float>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&);
template Problem<double> make_problem<double>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&);

}  // namespace revwave
