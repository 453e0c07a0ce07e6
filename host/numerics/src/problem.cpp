#include "revwave/numerics/problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/numerics/fd_coefficients.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {

void validate(const Grid& grid) {
  for (int a = 0; a < 3; ++a) {
    if (grid.shape[a] < (a == 1 ? 1 : 2)) {  // ny = 1 is a plane
      throw InputError("shape " + std::to_string(grid.shape[a]) + " on axis " + std::to_string(a) +
                       " is too small: at least 2 interior points per axis (ny = 1 makes a 2D model in x and z)");
    }
  }
  if (grid.nbl < 0) throw InputError("nbl " + std::to_string(grid.nbl) + " is negative: it must be >= 0");
  if (!(std::isfinite(grid.spacing) && grid.spacing > 0)) {
    std::ostringstream os;
    os << "spacing " << grid.spacing << " m is invalid: it must be finite and positive";
    throw InputError(os.str());
  }
  // The grid's extent, its layers included, must be a finite length (--spacing 1e308 made the
  // sources' and receivers' coordinates infinite, and the model's velocities NaN).
  const double extent = grid.spacing * (static_cast<double>(std::max({grid.shape[0], grid.shape[1], grid.shape[2]})) +
                                        2.0 * static_cast<double>(grid.nbl));
  if (!std::isfinite(extent)) {
    std::ostringstream os;
    os << "spacing " << grid.spacing << " m is invalid: the grid's extent, " << grid.spacing << " m times its points, "
       << "is no finite length (is it in another unit?)";
    throw InputError(os.str());
  }
  second_derivative_weights(grid.space_order);                  // throws on an unsupported order
  if (grid.cpml && grid.nbl > 0 && grid.nbl < grid.radius()) {  // nbl 0: no layer, the faces reflect
    throw InputError("--nbl " + std::to_string(grid.nbl) +
                     " is too thin for --boundary cpml: the C-PML needs at least " +
                     "the stencil's radius, space order / 2 = " + std::to_string(grid.radius()) +
                     " layer points per face (use --nbl " + std::to_string(grid.radius()) +
                     " or more, 10 for an echo below 0.1%, 0 for no layer, or --boundary sponge)");
  }
  // The allocated grid (interior, two layers, two halos per axis) must be countable in bytes.
  index_t alloc[3];
  for (int a = 0; a < 3; ++a) {
    index_t side = 0, margin = 0;
    if (__builtin_add_overflow(grid.nbl, grid.radius(), &side) || __builtin_mul_overflow(side, index_t(2), &margin) ||
        __builtin_add_overflow(grid.shape[a], margin, &alloc[a])) {
      throw InputError("shape " + std::to_string(grid.shape[a]) + " with nbl " + std::to_string(grid.nbl) +
                       " on axis " + std::to_string(a) + " exceeds the limit of 2^63 - 1 points per axis");
    }
  }
  const index_t points =
      checked_product({alloc[0], alloc[1], alloc[2]}, "the allocated grid (interior, absorbing layers and halos)");
  checked_bytes({static_cast<std::size_t>(points), sizeof(double)}, "one wavefield of the allocated grid");
}

double max_stable_dt(const Grid& grid, double max_velocity) {
  return 2.0 / (max_velocity * std::sqrt(laplacian_spectral_radius(grid.space_order, grid.spacing, grid.dimensions())));
}

double default_dt(const Grid& grid, double max_velocity) { return 0.9 * max_stable_dt(grid, max_velocity); }

void check_stable(double dt, const Grid& grid, double max_velocity) { check_stable(dt, grid, max_velocity, 1.0); }

void check_stable(double dt, const Grid& grid, double max_velocity, double physics_factor) {
  const double limit = max_stable_dt(grid, max_velocity) * physics_factor;
  if (!(std::isfinite(dt) && dt > 0) || dt > limit) {
    std::ostringstream os;
    os.precision(6);
    os << "dt " << dt << " s is ";
    os << ((std::isfinite(dt) && dt > 0) ? "unstable" : "invalid");
    os << ": with max velocity " << max_velocity << " m/s, " << (physics_factor < 1 ? "the model's contrasts, " : "")
       << "space order " << grid.space_order << " and spacing " << grid.spacing << " m the largest stable dt is "
       << limit << " s";
    throw InputError(os.str());
  }
}

double physics_dt_factor(const Grid& grid, const VelocityModel& model) {
  if (model.has_anisotropy()) return vti_dt_factor(grid, model);
  if (model.has_attenuation()) return visco_dt_factor(model);
  return density_dt_factor(grid, model);
}

void check_physics_supported(const Grid& grid, const VelocityModel& model) {
  if (!model.has_anisotropy() && !model.has_attenuation()) return;
  const std::string physics =
      model.has_anisotropy() ? "epsilon and delta (the VTI physics)" : "Q (the visco-acoustic physics)";
  const char* what = nullptr;
  if (model.has_anisotropy() && model.has_attenuation())
    what = "Q (attenuation)";
  else if (model.has_density())
    what = "a density";
  else if (grid.cpml)
    what = "the C-PML boundary (give --boundary sponge)";
  if (what != nullptr)
    throw InputError(physics + " do" + (model.has_anisotropy() ? "" : "es") + " not run with " + what +
                     " in this release: " + (model.has_anisotropy() ? "VTI" : "Q") +
                     " runs with the sponge boundary, a constant density and " +
                     (model.has_anisotropy() ? "no Q" : "no VTI"));
}

double max_stable_dt(const Grid& grid, const VelocityModel& model) {
  return max_stable_dt(grid, max_velocity(model)) * physics_dt_factor(grid, model);
}

double default_dt(const Grid& grid, const VelocityModel& model) { return 0.9 * max_stable_dt(grid, model); }

void check_stable(double dt, const Grid& grid, const VelocityModel& model) {
  check_stable(dt, grid, max_velocity(model), physics_dt_factor(grid, model));
}

TimeAxis make_time_axis(double tn, double dt) {
  if (!(std::isfinite(tn) && tn > 0)) {
    std::ostringstream os;
    os << "tn " << tn << " s is invalid: the simulated time must be finite and positive";
    throw InputError(os.str());
  }
  check_number("dt", dt, positive(), "s");
  // Counts up to 2^53 are exact in a double; a run that long is refused later for its memory.
  const double steps = std::ceil(tn / dt - 1e-9);
  if (!(steps <= max_time_steps)) {
    std::ostringstream os;
    os << "tn " << number_text(tn) << " s with dt " << number_text(dt) << " s needs " << number_text(steps)
       << " time steps: the limit is 2^53 = " << number_text(max_time_steps);
    throw InputError(os.str());
  }
  TimeAxis t;
  t.dt = dt;
  t.steps = std::max<index_t>(1, static_cast<index_t>(steps));
  return t;
}

double damping_m0(double spacing, double dt) { return (dt / spacing) * (dt / spacing); }

std::vector<double> damping_profile(index_t interior, index_t nbl, double dt) {
  return damping_profile(interior, nbl, nbl, nbl, dt);
}

std::vector<double> damping_profile(index_t interior, index_t lo, index_t hi, index_t nbl, double dt) {
  std::vector<double> k(static_cast<std::size_t>(interior + lo + hi), 0.0);
  if (nbl == 0) return k;
  // Quadratic ramp to kappa_max = 12 / (nbl dt). At Courant number C = c dt / h the amplitude's
  // decay rate eta/(2m) = kappa C^2 / 2 peaks at 6 C c / (nbl h), and the two-way trip through the
  // layer attenuates by exp(-4 C), for any nbl. Stronger damping reflects more, not less: the
  // layer turns into a wall (kappa_max = 60 / (nbl dt), exp(-20 C), echoed 21% of the direct wave
  // at nbl 10 and 5% at nbl 20 where this echoes 6% and 0.8%: tests/numerics/test_absorbing_layer.cpp).
  const double kappa_max = 12.0 / (static_cast<double>(nbl) * dt);
  for (index_t i = 0; i < interior + lo + hi; ++i) {
    index_t d = 0;
    if (i < lo)
      d = lo - i;
    else if (i > lo + interior - 1)
      d = i - (lo + interior - 1);
    const double x = static_cast<double>(d) / static_cast<double>(nbl);
    k[static_cast<std::size_t>(i)] = kappa_max * x * x;
  }
  return k;
}

namespace {

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }

// The stencil's coefficients must be normal numbers of T: m = 1/c^2 and m/dt^2 (twice it, in the
// update) must neither overflow nor flush to zero (the sweeps run with FTZ/DAZ), and so must
// 1/dt^2, 1/(2 dt), the damping scale (dt/h)^2, 1/h^2 and the source's 1/h^3.
template <class T>
void check_representable(const Grid& grid, const ModelRange& model, const TimeAxis& time) {
  const double big = static_cast<double>(std::numeric_limits<T>::max());
  const double tiny = static_cast<double>(std::numeric_limits<T>::min());
  const auto normal = [&](double v) { return v >= tiny && v < big; };
  const double dt = time.dt, h = grid.spacing;
  const double cmin = model.min_velocity, cmax = model.max_velocity;
  const std::string type = type_name(T{});
  const std::string range =
      " (" + type + " holds normal numbers in [" + number_text(tiny) + ", " + number_text(big) + "])";
  std::string bad;
  // The spacing first: a step derived from an absurd spacing would be refused in the words of the
  // velocity (m/dt^2) or of a dt the user never gave.
  if (!normal(1.0 / (h * h)) || !normal(1.0 / grid.cell_volume())) {
    bad = "spacing " + number_text(h) + " m is out of range for " + type + ": the stencil's 1/h^2 and the source's " +
          (grid.planar() ? "1/h^2 (a line source on a plane)" : "1/h^3") + " must be normal numbers" + range;
  } else if (!normal(1.0 / (cmin * cmin)) || !normal(2.0 / (cmin * cmin) / (dt * dt))) {
    bad = "velocity " + number_text(cmin) + " m/s is out of range for " + type +
          ": m = 1/c^2 = " + number_text(1.0 / (cmin * cmin)) +
          " and 2 m/dt^2 = " + number_text(2.0 / (cmin * cmin) / (dt * dt)) + " with dt " + number_text(dt) +
          " s must be normal numbers" + range;
  } else if (!normal(1.0 / (cmax * cmax)) || !normal(1.0 / (cmax * cmax) / (dt * dt))) {
    bad = "velocity " + number_text(cmax) + " m/s is out of range for " + type +
          ": m = 1/c^2 = " + number_text(1.0 / (cmax * cmax)) + " and m/dt^2 with dt " + number_text(dt) +
          " s must be normal numbers" + range;
  } else if (!normal(1.0 / (dt * dt)) || !normal(0.5 / dt) || (grid.nbl > 0 && !normal(damping_m0(h, dt)))) {
    bad = "dt " + number_text(dt) + " s is out of range for " + type + " with spacing " + number_text(h) +
          " m: 1/dt^2, 1/(2 dt) and (dt/h)^2 must be normal numbers" + range;
  }
  if (!bad.empty()) throw InputError(bad);
}

}  // namespace

template <class T>
Problem<T> make_problem(const Grid& given, const VelocityModel& model, const Acquisition& acq, const TimeAxis& time) {
  validate(given);
  Grid grid = given;  // its fields carry what the model's physics adds (VTI's second field)
  grid.extra_fields = model.physics().extra_fields();
  const ModelRange range = validated_range(model);  // one pass for the checks below
  check_physics_supported(grid, model);
  check_stable(time.dt, grid, range.max_velocity, physics_dt_factor(grid, model));
  if (!(std::isfinite(acq.f0) && acq.f0 > 0)) {
    std::ostringstream os;
    os << "f0 " << acq.f0 << " Hz is invalid: the peak frequency must be finite and positive";
    throw InputError(os.str());
  }
  if (acq.sources.empty()) throw InputError("no source given: at least one --src is needed");
  if (acq.receivers.empty()) throw InputError("no receiver given: at least one --rec is needed");
  check_representable<T>(grid, range, time);
  Problem<T> p;
  p.m = padded_squared_slowness<T>(grid, model);
  p.bulk_modulus_ratio = range.bulk_modulus_ratio;
  if (model.has_density()) p.density = make_density_fields<T>(grid, model);
  if (model.has_anisotropy()) p.vti = make_vti_fields<T>(grid, model);
  if (model.has_attenuation()) p.visco = make_visco_fields<T>(grid, model, time.dt);
  assign_operator(p, grid, time, acq, acq.wavelet);  // refuses a source above a free surface first
  if (!acq.wavelet.empty()) {
    if (static_cast<index_t>(acq.wavelet.size()) != time.nt()) {
      throw InputError("wavelet: the source signature has " + std::to_string(acq.wavelet.size()) +
                       " samples, the time axis nt = " + std::to_string(time.nt()) + " (tn / dt + 1): give nt samples");
    }
    for (std::size_t n = 0; n < acq.wavelet.size(); ++n) {
      if (!std::isfinite(acq.wavelet[n])) throw InputError("wavelet: sample " + std::to_string(n) + " is not finite");
    }
  }
  return p;
}

template <class T>
void assign_operator(Problem<T>& p, const Grid& grid, const TimeAxis& time, const Acquisition& acq,
                     const std::vector<double>& wavelet) {
  p.grid = grid;
  p.time = time;
  p.acquisition = acq;
  p.coeffs.inv_dt2 = static_cast<T>(1.0 / (time.dt * time.dt));
  p.coeffs.half_inv_dt = static_cast<T>(0.5 / time.dt);
  p.coeffs.damping_m0 = static_cast<T>(damping_m0(grid.spacing, time.dt));
  for (int a = 0; a < 3; ++a) {
    const std::vector<double> k = damping_profile(grid.shape[a], grid.layer_lo(a), grid.layer_hi(a), grid.nbl, time.dt);
    if (grid.cpml)
      p.kappa[a].assign(k.size(), T(0));  // the C-PML absorbs instead of the sponge
    else
      p.kappa[a].assign(k.begin(), k.end());
  }
  if (grid.cpml)
    p.cpml = make_cpml_profile<T>(grid, time.dt);
  else
    p.cpml.reset();
  const std::vector<double> c = second_derivative_weights(grid.space_order);
  const double h2 = grid.spacing * grid.spacing;
  p.weights.resize(c.size());
  p.weights[0] = static_cast<T>(3.0 * c[0] / h2);
  for (std::size_t j = 1; j < c.size(); ++j) p.weights[j] = static_cast<T>(c[j] / h2);
  check_sources_below_free_surface(grid, acq.sources, "source");
  p.src = trilinear_points(grid, acq.sources, "source");
  p.rec = trilinear_points(grid, acq.receivers, "receiver");
  if (!wavelet.empty()) {
    p.wavelet.assign(wavelet.begin(), wavelet.end());
  } else {
    const std::vector<double> w = ricker_samples(acq.f0, acq.t0, time.dt, time.nt());
    p.wavelet.assign(w.begin(), w.end());
  }
}

template Problem<float> make_problem<float>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&);
template Problem<double> make_problem<double>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&);
template void assign_operator<float>(Problem<float>&, const Grid&, const TimeAxis&, const Acquisition&,
                                     const std::vector<double>&);
template void assign_operator<double>(Problem<double>&, const Grid&, const TimeAxis&, const Acquisition&,
                                      const std::vector<double>&);

}  // namespace revwave
