#include "revwave/numerics/visco/visco_model.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <sstream>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

constexpr int fit_frequencies = 200;
using Strengths = std::array<double, sls_mechanisms>;

// M(w) / kappa = 1 + sum tau_l i w ts_l / (1 + i w ts_l).
std::complex<double> modulus(const SlsBand& band, const Strengths& tau, double f) {
  const double w = 2.0 * M_PI * f;
  std::complex<double> m = 1.0;
  for (int l = 0; l < sls_mechanisms; ++l) {
    const std::complex<double> iwt(0.0, w * band.tau_sigma[static_cast<std::size_t>(l)]);
    m += tau[static_cast<std::size_t>(l)] * iwt / (1.0 + iwt);
  }
  return m;
}

// The normal equations of the fit, q-independent parts: with a1 = w ts / (1 + (w ts)^2) (Im M's
// shape) and a2 = (w ts)^2 / (1 + (w ts)^2) (Re M's), the residual q a1 - a2 - 1 at each frequency
// gives G(q) = q^2 G11 - q (G12 + G21) + G22 and b(q) = q b1 - b2.
struct FitSystem {
  double g11[3][3]{}, g12[3][3]{}, g22[3][3]{}, b1[3]{}, b2[3]{};
};

FitSystem fit_system(const SlsBand& band) {
  FitSystem s;
  for (int k = 0; k < fit_frequencies; ++k) {
    const double f = band.f_lo * std::pow(band.f_hi / band.f_lo, static_cast<double>(k) / (fit_frequencies - 1));
    const double w = 2.0 * M_PI * f;
    double a1[3], a2[3];
    for (int l = 0; l < 3; ++l) {
      const double x = w * band.tau_sigma[static_cast<std::size_t>(l)];
      a1[l] = x / (1.0 + x * x);
      a2[l] = x * x / (1.0 + x * x);
    }
    for (int i = 0; i < 3; ++i) {
      s.b1[i] += a1[i];
      s.b2[i] += a2[i];
      for (int j = 0; j < 3; ++j) {
        s.g11[i][j] += a1[i] * a1[j];
        s.g12[i][j] += a1[i] * a2[j] + a2[i] * a1[j];
        s.g22[i][j] += a2[i] * a2[j];
      }
    }
  }
  return s;
}

// Gaussian elimination with partial pivoting of a 3 x 3 system (positive definite here).
Strengths solve3(double a[3][3], double b[3]) {
  for (int c = 0; c < 3; ++c) {
    int p = c;
    for (int r = c + 1; r < 3; ++r)
      if (std::abs(a[r][c]) > std::abs(a[p][c])) p = r;
    for (int k = 0; k < 3; ++k) std::swap(a[c][k], a[p][k]);
    std::swap(b[c], b[p]);
    for (int r = c + 1; r < 3; ++r) {
      const double f = a[r][c] / a[c][c];
      for (int k = c; k < 3; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  Strengths x{};
  for (int r = 2; r >= 0; --r) {
    double v = b[r];
    for (int k = r + 1; k < 3; ++k) v -= a[r][k] * x[static_cast<std::size_t>(k)];
    x[static_cast<std::size_t>(r)] = v / a[r][r];
  }
  return x;
}

// The normal equations divided by q^2, in 1/q: finite for any q (q^2 overflows from 1e154).
Strengths strengths(const FitSystem& s, double q) {
  if (std::isinf(q)) return {};
  const double r = 1.0 / q;
  double a[3][3], b[3];
  for (int i = 0; i < 3; ++i) {
    b[i] = r * (s.b1[i] - r * s.b2[i]);
    for (int j = 0; j < 3; ++j) a[i][j] = s.g11[i][j] - r * s.g12[i][j] + r * r * s.g22[i][j];
  }
  return solve3(a, b);
}

// The strengths and kappa at one Q, remembered for the next point: a model's Q is mostly a few
// values or smooth, so most points repeat their neighbour's.
class PointFit {
 public:
  PointFit(const SlsBand& band, const FitSystem& system, double f_ref) : band_(band), system_(system), f_ref_(f_ref) {}
  // tau_l and kappa at q (0 and 1 at infinity).
  const PointFit& at(double q) {
    if (q == q_) return *this;
    q_ = q;
    tau = strengths(system_, q);
    kappa = std::isinf(q) ? 1.0 : sls_kappa(band_, tau, f_ref_);
    return *this;
  }
  Strengths tau{};
  double kappa = 1.0;

 private:
  const SlsBand& band_;
  const FitSystem& system_;
  double f_ref_;
  double q_ = INFINITY;
};

}  // namespace

static_assert(sls_mechanisms == 3, "the fit's normal equations are written for three mechanisms");

SlsBand sls_band(double f0) {
  SlsBand b;
  b.f_lo = sls_band_lo * f0;
  b.f_hi = sls_band_hi * f0;
  const double lo = b.f_lo / sls_spread, hi = b.f_hi * sls_spread;
  for (int l = 0; l < sls_mechanisms; ++l) {
    const double f = lo * std::pow(hi / lo, static_cast<double>(l) / (sls_mechanisms - 1));
    b.tau_sigma[static_cast<std::size_t>(l)] = 1.0 / (2.0 * M_PI * f);
  }
  return b;
}

Strengths sls_strengths(const SlsBand& band, double q) { return strengths(fit_system(band), q); }

double sls_quality(const SlsBand& band, const Strengths& tau, double f) {
  const std::complex<double> m = modulus(band, tau, f);
  return m.imag() == 0 ? INFINITY : m.real() / m.imag();
}

double sls_kappa(const SlsBand& band, const Strengths& tau, double f_ref) {
  const double s = std::real(1.0 / std::sqrt(modulus(band, tau, f_ref)));
  return s * s;
}

double sls_phase_velocity(const SlsBand& band, const Strengths& tau, double kappa, double v, double f) {
  // the slowness is sqrt(m / (kappa M)) with m = 1 / v^2
  return v * std::sqrt(kappa) / std::real(1.0 / std::sqrt(modulus(band, tau, f)));
}

void validate_q(const VelocityModel& model) {
  const std::size_t n = model.velocity.size();
  if (model.q.size() != n) {
    throw InputError("Q has " + std::to_string(model.q.size()) + " values, the model's shape needs " +
                     std::to_string(n) + " (a constant fills the model)");
  }
  const auto frequency = [](const char* what, double f) {
    if (std::isfinite(f) && f > 0) return;
    std::ostringstream os;
    os << what << " " << f << " Hz is invalid: it must be finite and positive";
    throw InputError(os.str());
  };
  frequency("the Q reference frequency", model.q_frequency);
  frequency("the Q band's centre frequency f0", model.q_f0);
  for (std::size_t i = 0; i < n; ++i) {
    const double q = model.q[i];
    if (q >= min_quality) continue;  // infinity too; NaN falls through
    std::ostringstream os;
    os.precision(9);
    os << "Q " << q << " at " << point_text(model, i) << " is invalid: Q must be a number of at least " << min_quality
       << " (inf: no attenuation)";
    throw InputError(os.str());
  }
}

template <class T>
ViscoFields make_visco_fields(const Grid& grid, const std::vector<double>& q, double q_frequency, double f0,
                              double dt) {
  const SlsBand band = sls_band(f0);
  const FitSystem system = fit_system(band);
  const std::size_t n = q.size();
  std::vector<double> e1(n), e2(n);
  std::array<std::vector<double>, sls_mechanisms> beta;
  for (auto& b : beta) b.resize(n);
  ViscoFields out;
  std::array<double, sls_mechanisms> beta_scale{};
  for (std::size_t l = 0; l < sls_mechanisms; ++l) {
    const double h = dt / (2.0 * band.tau_sigma[l]);
    out.alpha[l] = (1.0 - h) / (1.0 + h);
    beta_scale[l] = dt / band.tau_sigma[l] / (1.0 + h);
  }
#pragma omp parallel if (n >= 65536)
  {
    PointFit fit(band, system, q_frequency);
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const Strengths& tau = fit.at(q[i]).tau;
      const double kappa = fit.kappa;
      double sum = 0;
      for (std::size_t l = 0; l < sls_mechanisms; ++l) {
        sum += tau[l];
        beta[l][i] = beta_scale[l] * tau[l];
      }
      e1[i] = kappa * (1.0 + sum);
      e2[i] = 0.5 * kappa * (std::isinf(q[i]) ? 0.0 : 1.0);
    }
  }
  // Each padded like m (the layer copies the nearest interior point), then placed in the buffer.
  const auto same = [](double v) { return v; };
  const HostBuffer parts[visco_coefficients] = {
      padded_interior_values<T>(grid, e1, same), padded_interior_values<T>(grid, e2, same),
      padded_interior_values<T>(grid, beta[0], same), padded_interior_values<T>(grid, beta[1], same),
      padded_interior_values<T>(grid, beta[2], same)};
  const index_t stride = coefficient_stride(grid);
  out.coefficients = HostBuffer(static_cast<std::size_t>(stride * visco_coefficients) * sizeof(T));
  T* c = out.coefficients.as<T>();
  std::fill(c, c + stride * visco_coefficients, T(0));
  for (index_t k = 0; k < visco_coefficients; ++k)
    std::copy(parts[k].as<T>(), parts[k].as<T>() + grid.alloc_points(), c + k * stride);
  return out;
}

template <class T>
ViscoFields make_visco_fields(const Grid& grid, const VelocityModel& model, double dt) {
  validate_q(model);
  return make_visco_fields<T>(grid, model.q, model.q_frequency, model.q_f0, dt);
}

double visco_dt_factor(const VelocityModel& model) {
  if (!model.has_attenuation()) return 1.0;
  validate_q(model);
  const SlsBand band = sls_band(model.q_f0);
  const FitSystem system = fit_system(band);
  double worst = 1.0;  // max e1 (exact in any order), whatever the velocity there
  const auto n = static_cast<std::int64_t>(model.q.size());
#pragma omp parallel reduction(max : worst) if (n >= 65536)
  {
    PointFit fit(band, system, model.q_frequency);
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const Strengths& tau = fit.at(model.q[static_cast<std::size_t>(i)]).tau;
      const double kappa = fit.kappa;
      double sum = 0;
      for (double t : tau) sum += t;
      worst = std::max(worst, kappa * (1.0 + sum));
    }
  }
  return 1.0 / std::sqrt(worst);
}

template ViscoFields make_visco_fields<float>(const Grid&, const VelocityModel&, double);
template ViscoFields make_visco_fields<double>(const Grid&, const VelocityModel&, double);
template ViscoFields make_visco_fields<float>(const Grid&, const std::vector<double>&, double, double, double);
template ViscoFields make_visco_fields<double>(const Grid&, const std::vector<double>&, double, double, double);

}  // namespace revwave
