// The pseudo-acoustic VTI pair's kinematics in closed form: Thomsen's exact phase velocity with a
// zero vertical shear velocity (the acoustic approximation the pair solves; vti_model.hpp), and the
// group velocity along a ray, both over the vertical velocity. The kinematics test
// (tests/driver/test_vti_kinematics.cpp) and the wavefront figure (profiling/vti_wavefront.cpp)
// compare the propagator with them.
#pragma once
#include <cmath>

namespace revwave {

// V(theta) / Vp0 at phase angle theta (radians) from the symmetry axis:
// V^2 / Vp0^2 = 1/2 + eps s^2 + 1/2 sqrt((1 + 2 eps s^2)^2 - 2 (eps - delta) sin^2 2theta), s = sin theta.
inline double thomsen_phase_velocity(double eps, double delta, double theta) {
  const double s2 = std::sin(theta) * std::sin(theta);
  const double a = 1.0 + 2.0 * eps * s2;
  const double sin2 = std::sin(2.0 * theta);
  return std::sqrt(0.5 * a + 0.5 * std::sqrt(a * a - 2.0 * (eps - delta) * sin2 * sin2));
}

// Vg / Vp0 along the ray at angle phi (radians, 0..pi/2) from the axis: the phase angle whose ray it
// is, by bisection on phi = theta + atan(V'/V), and there Vg = sqrt(V^2 + V'^2) (V' by a central
// difference in theta). Symmetric about both axes: use |phi| folded into [0, pi/2].
inline double thomsen_group_velocity(double eps, double delta, double phi) {
  const double half_pi = 2.0 * std::atan(1.0);
  auto ray = [&](double theta, double& vg) {
    const double h = 1e-6, v = thomsen_phase_velocity(eps, delta, theta);
    const double dv =
        (thomsen_phase_velocity(eps, delta, theta + h) - thomsen_phase_velocity(eps, delta, theta - h)) / (2 * h);
    vg = std::hypot(v, dv);
    return theta + std::atan2(dv, v);
  };
  double vg = 1;
  if (phi <= 0) return ray(0, vg), vg;
  if (phi >= half_pi) return ray(half_pi, vg), vg;
  double lo = 0, hi = half_pi;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (ray(mid, vg) < phi ? lo : hi) = mid;
  }
  ray(0.5 * (lo + hi), vg);
  return vg;
}

}  // namespace revwave
