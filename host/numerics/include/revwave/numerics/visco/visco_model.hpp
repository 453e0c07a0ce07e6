// The visco-acoustic physics' model side: the quality factor Q, its standard-linear-solid fit, its
// checks, its coefficients on the allocated grid, and the factor it puts on the stable dt.
//
// The equation (docs/physics/attenuation.md): the pressure form with L = 3 relaxation mechanisms,
//   m u_tt = kappa ((1 + sum_l tau_l) L u - sum_l r_l),   r_l' = -(r_l - tau_l L u) / tau_sigma_l,
// whose modulus is kappa (1 + sum_l tau_l i w tau_sigma_l / (1 + i w tau_sigma_l)). The relaxation
// times tau_sigma_l are fixed by the band (sls_band); the strengths tau_l at each point are the
// least-squares fit of a constant Q over the band (sls_strengths), and kappa makes the velocity the
// model gives the phase velocity at the reference frequency. Where Q is infinite every tau_l is 0,
// kappa is 1 and the equation is the acoustic one.
#pragma once
#include <array>
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"

namespace revwave {

inline constexpr int sls_mechanisms = 3;
// The band the constant Q is fitted over, as multiples of the source's peak frequency f0 (a
// Ricker wavelet's amplitude there is 16% and 0.3% of its peak), and the mechanisms' relaxation
// frequencies, log-spaced from band_lo / spread to band_hi * spread (tests/numerics/test_sls_fit.cpp
// measures the fit's error in Q over the band: at most 0.33% for Q >= 30, 1.1% at Q = 5).
inline constexpr double sls_band_lo = 0.25, sls_band_hi = 3.0, sls_spread = 1.5;
// The smallest Q a run accepts (the fit's strengths stay positive and within 1.1% of Q).
inline constexpr double min_quality = 5.0;

// The fit's fixed part: the relaxation times (s) and the band (Hz) for a source peak f0.
struct SlsBand {
  std::array<double, sls_mechanisms> tau_sigma{};
  double f_lo = 0, f_hi = 0;
};
SlsBand sls_band(double f0);

// The strengths tau_l that fit a constant q over the band (least squares of Q Im M - Re M over 200
// log-spaced frequencies, with M the modulus above at kappa = 1): all zero for q = infinity.
std::array<double, sls_mechanisms> sls_strengths(const SlsBand& band, double q);
// Q(f) = Re M / Im M of strengths tau at frequency f (Hz); infinity where every tau_l is 0.
double sls_quality(const SlsBand& band, const std::array<double, sls_mechanisms>& tau, double f);
// The phase velocity at f of a medium whose modulus is kappa M / m (m = 1 / v^2): the dispersion.
double sls_phase_velocity(const SlsBand& band, const std::array<double, sls_mechanisms>& tau, double kappa, double v,
                          double f);
// kappa that makes the phase velocity at f_ref equal to v: Re(M(f_ref)^(-1/2))^2.
double sls_kappa(const SlsBand& band, const std::array<double, sls_mechanisms>& tau, double f_ref);

// InputError naming the first Q that breaks a rule, with its point: of the model's size, a number
// >= min_quality (infinity: no attenuation there), and a reference frequency and band centre that
// are finite and positive.
void validate_q(const VelocityModel& model);

// The sweeps' coefficients (values of T, padded like m): with the update's memory variables at half
// steps, r_l[n+1/2] = alpha_l r_l[n-1/2] + beta_l L u[n] and
//   m u_tt = e1 L u[n] - e2 sum_l (r_l[n+1/2] + r_l[n-1/2]),
// e1 = kappa (1 + sum tau_l), e2 = kappa / 2, beta_l = dt tau_l / tau_sigma_l / (1 + dt / (2 tau_sigma_l))
// and alpha_l = (1 - dt / (2 tau_sigma_l)) / (1 + dt / (2 tau_sigma_l)), the same at every point.
// Computed in double. Where Q is infinite e1 = 1 and e2 = beta_l = 0. The five grids lie in one
// buffer, (e1, e2, beta_1, beta_2, beta_3), grid k at k * coefficient_stride(grid): staggered by 16
// values (64 bytes in float, 128 in double) each, so that a point's five values fall in different cache sets (five page-aligned grids
// put every stream of a point in one set and made the step three times slower at some sizes).
inline constexpr int visco_coefficients = 5;
inline index_t coefficient_stride(const Grid& grid) { return grid.alloc_points() + 16; }
struct ViscoFields {
  HostBuffer coefficients;  // visco_coefficients grids of T, coefficient_stride apart
  std::array<double, sls_mechanisms> alpha{};
};
template <class T>
ViscoFields make_visco_fields(const Grid& grid, const VelocityModel& model, double dt);
// The same from Q at the grid's interior points (C order) that validate_q passed: a window's.
template <class T>
ViscoFields make_visco_fields(const Grid& grid, const std::vector<double>& q, double q_frequency, double f0, double dt);

// The factor attenuation puts on the largest stable dt: the unrelaxed modulus e1 raises a velocity
// v to sqrt(e1) v, so 1 / sqrt(max e1), whatever the velocity where e1 is largest (the factor then
// holds for any model whose velocities stay below the bound's, as an inversion's do up to --vmax).
// Exactly 1 without attenuation.
double visco_dt_factor(const VelocityModel& model);

}  // namespace revwave
