// A problem ready to propagate: grid, time axis, m, damping profiles, sources, receivers, wavelet.
#pragma once
#include <array>
#include <optional>
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"
#include "revwave/numerics/boundary/cpml_layout.hpp"
#include "revwave/numerics/density/density_model.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/physics_spec.hpp"
#include "revwave/numerics/sparse_points.hpp"
#include "revwave/numerics/visco/visco_model.hpp"
#include "revwave/numerics/vti/vti_model.hpp"

namespace revwave {

struct Acquisition {
  std::vector<Vec3> sources;  // metres from the first interior point
  std::vector<Vec3> receivers;
  double f0 = 10.0;             // Ricker peak frequency, Hz
  double t0 = 0.15;             // Ricker delay, s
  std::vector<double> wavelet;  // a sampled source signature of nt samples instead of the Ricker (f0, t0); empty: none
};

// N steps take u[0] to u[N]; data and the wavelet have nt = N + 1 samples at n dt.
struct TimeAxis {
  double dt = 0;
  index_t steps = 0;
  index_t nt() const { return steps + 1; }
};

// Leapfrog bound of the stencil: dt_max = 2 / (c_max sqrt(rho(-L))).
double max_stable_dt(const Grid& grid, double max_velocity);
// The default dt: the bound times a safety factor of 0.9.
double default_dt(const Grid& grid, double max_velocity);
// Throws InputError naming dt and the largest stable value when dt is above the bound.
void check_stable(double dt, const Grid& grid, double max_velocity);
// The bound times a physics' factor (physics_dt_factor: 1 for the constant-density acoustic equation).
void check_stable(double dt, const Grid& grid, double max_velocity, double physics_factor);
// The factor a model's physics puts on the largest stable dt: its density's contrasts'
// (density_dt_factor), its anisotropy's (vti_dt_factor) or its attenuation's (visco_dt_factor); 1
// for the constant-density equation.
double physics_dt_factor(const Grid& grid, const VelocityModel& model);
// InputError when the model's physics cannot run on the grid's boundary: the VTI pair and the
// visco-acoustic equation run with the sponge, no density and not together, so far.
void check_physics_supported(const Grid& grid, const VelocityModel& model);
// The same for a model, its density's contrasts included.
double max_stable_dt(const Grid& grid, const VelocityModel& model);
double default_dt(const Grid& grid, const VelocityModel& model);
void check_stable(double dt, const Grid& grid, const VelocityModel& model);
// N = ceil(tn / dt) steps, at least 1. InputError for tn or dt not finite and positive, and for
// more than max_time_steps steps (naming the count and the limit).
inline constexpr double max_time_steps = 9007199254740992.0;  // 2^53
TimeAxis make_time_axis(double tn, double dt);

// Damping rate profile (1/s) along one axis of the padded grid, zero in the interior.
std::vector<double> damping_profile(index_t interior, index_t nbl, double dt);
// The same with `lo` layer points below the interior and `hi` above (a face without a layer, the
// free surface's, has none); nbl sets the ramp.
std::vector<double> damping_profile(index_t interior, index_t lo, index_t hi, index_t nbl, double dt);
// The fixed squared slowness that scales kappa into eta: (dt/h)^2, from the grid and dt only.
double damping_m0(double spacing, double dt);

template <class T>
struct Problem {
  Grid grid;
  TimeAxis time;
  Acquisition acquisition;
  StepCoefficients<T> coeffs{};
  HostBuffer m;                         // allocated grid, T
  std::array<std::vector<T>, 3> kappa;  // per padded index on each axis
  std::vector<T> weights;               // w[0] = 3 c0 / h^2, w[j] = c_j / h^2
  SparsePoints src, rec;
  std::vector<T> wavelet;  // w(n dt), n = 0..nt-1
  // The variable-density physics' coefficients when the model has a density; without one the
  // problem is the constant-density equation's.
  std::optional<DensityFields> density;
  // The pseudo-acoustic VTI pair's coefficients when the model has epsilon and delta; the grid then
  // carries the pair's second field in every field's tail (Grid::extra_fields).
  std::optional<VtiFields> vti;
  // The visco-acoustic coefficients when the model has Q; the grid then carries the memory
  // variables in every field's tail (Grid::extra_fields).
  std::optional<ViscoFields> visco;
  // The C-PML's coefficients when the grid's layer is one (Grid::cpml); kappa is then zero.
  std::optional<CpmlProfile<T>> cpml;
  // bulk_modulus_ratio of the model (a window: of the whole model it is cut from, an upper bound):
  // how far the sum of u^2 may grow at the same energy (driver/growth_guard.hpp). 1 where unknown.
  double bulk_modulus_ratio = 1.0;
};

// The physics a problem has, as its model declared it (what sizes its state: physics_state).
template <class T>
PhysicsSpec physics_of(const Problem<T>& p) {
  return PhysicsSpec{p.density.has_value(), p.vti.has_value(), p.visco.has_value()};
}

// a = m/dt^2 + eta/(2 dt) at an allocated-grid index (where sources and receivers inject).
template <class T>
T leapfrog_a_at(const Problem<T>& p, index_t idx) {
  const auto [i, j, k] = p.grid.coordinates(idx);
  const T eta = damping_eta(p.coeffs, p.kappa[0][i], p.kappa[1][j], p.kappa[2][k]);
  return leapfrog_a(p.coeffs, p.m.template as<T>()[idx], eta);
}

// Validates everything (model, grid, points, dt) and builds the problem.
template <class T>
Problem<T> make_problem(const Grid& grid, const VelocityModel& model, const Acquisition& acq, const TimeAxis& time);

// What a problem's grid, time axis and acquisition alone fix, set as every builder sets it (this
// file's make_problem, the shot engine's fill_window_problem): the grid, the step's coefficients,
// the sponge's kappa or the C-PML's profile, the stencil's weights, the sources and receivers
// (refused above a free surface) and the wavelet (`wavelet`: the signature, copied as it is, the
// builder checking it is nt finite samples; empty: acq's Ricker). The builder adds the model's parameters (m, density).
template <class T>
void assign_operator(Problem<T>& p, const Grid& grid, const TimeAxis& time, const Acquisition& acq,
                     const std::vector<double>& wavelet);

}  // namespace revwave
