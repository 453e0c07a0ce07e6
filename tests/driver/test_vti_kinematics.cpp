// The pseudo-acoustic VTI pair's kinematics against Thomsen's exact phase velocity (with a zero
// vertical shear velocity, the acoustic approximation the pair solves) and the group velocity it
// gives: a line source on a plane in a homogeneous medium, receivers 30 wavelengths away at 0, 30,
// 45, 60 and 90 degrees from the symmetry axis, each arrival's delay behind the isotropic medium's
// (the vertical velocity alone, same grid and wavelet) by cross-correlation, against the delay
// the two group velocities give (two runs on 350 x 350 points: under a second).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/vti/thomsen.hpp"

namespace revwave {
namespace {

constexpr double pi = 3.14159265358979323846;

double phase_velocity(double eps, double delta, double theta) { return thomsen_phase_velocity(eps, delta, theta); }
double group_velocity(double eps, double delta, double phi) { return thomsen_group_velocity(eps, delta, phi); }

// Where the cross-correlation of b with a peaks, in samples (b later: positive), refined by a
// parabola through the peak and its neighbours.
double delay_samples(const std::vector<double>& a, const std::vector<double>& b) {
  const auto n = static_cast<long>(a.size());
  long best = 0;
  double most = -1e300;
  std::vector<double> cc(static_cast<std::size_t>(2 * n + 1), 0.0);
  for (long lag = -n / 2; lag <= n / 2; ++lag) {
    double s = 0;
    for (long i = 0; i < n; ++i)
      if (i + lag >= 0 && i + lag < n) s += a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(i + lag)];
    cc[static_cast<std::size_t>(lag + n)] = s;
    if (s > most) most = s, best = lag;
  }
  const double l = cc[static_cast<std::size_t>(best + n - 1)], c = cc[static_cast<std::size_t>(best + n)],
               r = cc[static_cast<std::size_t>(best + n + 1)];
  return static_cast<double>(best) + 0.5 * (l - r) / (l - 2 * c + r);
}

TEST(VtiKinematics, ArrivalsFollowThomsensGroupVelocityAt30Wavelengths) {
  const double v0 = 2000, eps = 0.2, delta = 0.1, f0 = 10, h = 20;
  const double radius = 30 * v0 / f0;  // 6 km: 30 vertical wavelengths at the peak frequency
  Grid g;
  g.spacing = h;
  g.space_order = 8;
  g.nbl = 40;
  const index_t n = static_cast<index_t>(radius / h) + 50;
  g.shape = {n, 1, n};
  const double at = 10 * h;  // the source, near a corner; the receivers on a quarter circle
  Acquisition acq;
  acq.f0 = f0;
  acq.t0 = 1.5 / f0;
  acq.sources = {{at, 0, at}};
  const std::vector<double> angles = {0, 30, 45, 60, 90};  // from the vertical, degrees
  for (double a : angles)
    acq.receivers.push_back({at + radius * std::sin(a * pi / 180), 0, at + radius * std::cos(a * pi / 180)});
  VelocityModel iso = homogeneous_model(g.shape, v0);
  VelocityModel vti = iso;
  vti.epsilon.assign(vti.velocity.size(), eps);
  vti.delta.assign(vti.velocity.size(), delta);
  TimeAxis time;
  time.dt = default_dt(g, vti);
  time.steps = static_cast<index_t>(std::ceil((radius / v0 + 3 * acq.t0) / time.dt));
  auto traces = [&](const VelocityModel& m) {
    const Problem<double> p = make_problem<double>(g, m, acq, time);
    CpuPropagator<double> prop(p);
    return run_forward(prop).traces;
  };
  const std::vector<double> a = traces(iso), b = traces(vti);
  const std::size_t nt = static_cast<std::size_t>(time.nt()), nrec = angles.size();
  for (std::size_t r = 0; r < nrec; ++r) {
    std::vector<double> ta(nt), tb(nt);
    for (std::size_t k = 0; k < nt; ++k) ta[k] = a[k * nrec + r], tb[k] = b[k * nrec + r];
    const double vg = v0 * group_velocity(eps, delta, angles[r] * pi / 180);
    const double travel = radius / vg;
    const double expected = travel - radius / v0;  // the pair's arrival less the isotropic one's
    const double measured = delay_samples(ta, tb) * time.dt;
    EXPECT_LT(std::abs(measured - expected), 0.005 * travel)
        << angles[r] << " degrees: delay " << measured << " s, Thomsen's " << expected << " s, travel " << travel
        << " s, group velocity " << vg << " m/s";
    RecordProperty("delay_error_percent_" + std::to_string(static_cast<int>(angles[r])),
                   std::to_string(100 * std::abs(measured - expected) / travel));
  }
}

// The analytic curve itself: the horizontal velocity is sqrt(1 + 2 eps), the vertical 1, and near
// the axis V^2 = 1 + 2 delta sin^2 cos^2 + 2 eps sin^4 to first order in the parameters (Thomsen's
// weak anisotropy), which the exact curve meets at small eps and delta.
TEST(VtiKinematics, ThePhaseVelocityCurveIsThomsens) {
  EXPECT_DOUBLE_EQ(phase_velocity(0.2, 0.1, 0), 1.0);
  EXPECT_NEAR(phase_velocity(0.2, 0.1, pi / 2), std::sqrt(1.4), 1e-15);
  EXPECT_NEAR(group_velocity(0.2, 0.1, pi / 2), std::sqrt(1.4), 1e-9);
  const double e = 1e-4, d = 5e-5;
  for (double theta : {0.2, 0.7, 1.1}) {
    const double s = std::sin(theta), c = std::cos(theta);
    const double weak = std::sqrt(1 + 2 * d * s * s * c * c + 2 * e * s * s * s * s);
    EXPECT_NEAR(phase_velocity(e, d, theta), weak, 1e-7) << theta;
  }
  // Elliptic (eps = delta): phase and group velocity along the axis are both 1; the group velocity
  // at any ray angle phi is 1 / sqrt(cos^2 + sin^2 / (1 + 2 eps)).
  for (double phi : {0.3, 0.8, 1.2}) {
    const double expect = 1.0 / std::sqrt(std::cos(phi) * std::cos(phi) + std::sin(phi) * std::sin(phi) / 1.4);
    EXPECT_NEAR(group_velocity(0.2, 0.2, phi), expect, 1e-7) << phi;
  }
}

}  // namespace
}  // namespace revwave
