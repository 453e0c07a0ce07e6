// A VTI wavefront for people to look at: a line source on a plane (x, z) in a homogeneous VTI
// medium, the pair's p at one time as a picture, with Thomsen's ray surface at that time drawn in
// grey over it (numerics/vti/thomsen.hpp: the group velocity along each ray, times the time since
// the wavelet's peak). Where the picture's wavefront and the grey curve agree, the pair's
// kinematics are Thomsen's; docs/physics/anisotropy.md shows it.
//
// With RADIUS > 0 the medium is isotropic (epsilon = delta = 0) within RADIUS metres of the source:
// the pair's slow branch (the "shear-wave artefact" of pseudo-acoustic media with epsilon > delta,
// the diamond inside the wavefront) is then not excited at the source.
//
// Usage: revwave_vti_wavefront OUT.png [EPSILON=0.25] [DELTA=0.1] [RADIUS=0]   (2000 m/s, 15 Hz, h 10 m,
// 401 x 401)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "revwave/io/png_image.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/vti/thomsen.hpp"

using namespace revwave;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: revwave_vti_wavefront OUT.png [EPSILON] [DELTA] [RADIUS]\n");
    return 2;
  }
  const double eps = argc > 2 ? std::atof(argv[2]) : 0.25, delta = argc > 3 ? std::atof(argv[3]) : 0.1;
  const double radius = argc > 4 ? std::atof(argv[4]) : 0.0;
  const double v0 = 2000, f0 = 15, h = 10, when = 0.75;  // s
  const index_t n = 401;
  Grid g;
  g.shape = {n, 1, n};
  g.spacing = h;
  g.space_order = 8;
  g.nbl = 40;
  VelocityModel m = homogeneous_model(g.shape, v0);
  m.epsilon.assign(m.velocity.size(), eps);
  m.delta.assign(m.velocity.size(), delta);
  const double centre = 0.5 * g.extent(0);
  for (index_t x = 0; x < n; ++x)
    for (index_t z = 0; z < n; ++z)
      if (std::hypot(double(x) * h - centre, double(z) * h - centre) < radius)
        m.epsilon[static_cast<std::size_t>(x * n + z)] = m.delta[static_cast<std::size_t>(x * n + z)] = 0;
  Acquisition acq;
  acq.f0 = f0;
  acq.t0 = 1.5 / f0;
  acq.sources = {{centre, 0, centre}};
  acq.receivers = {{centre, 0, centre}};
  TimeAxis time;
  time.dt = default_dt(g, m);
  time.steps = static_cast<index_t>(std::lround(when / time.dt));
  const Problem<double> p = make_problem<double>(g, m, acq, time);
  CpuPropagator<double> prop(p);
  prop.reset_forward();
  for (index_t k = 0; k < time.steps; ++k) prop.forward_step(k);
  // p at the interior points, depth down the rows: picture[z * nx + x].
  std::vector<double> picture(static_cast<std::size_t>(n * n));
  const double* u = prop.state().u.as<double>();
  for (index_t x = 0; x < n; ++x)
    for (index_t z = 0; z < n; ++z) picture[static_cast<std::size_t>(z * n + x)] = u[g.interior_index(x, 0, z)];
  const double clip = default_png_clip(picture.data(), n * n);
  // The ray surface at the time since the wavelet's peak: NaN draws grey.
  const double t = static_cast<double>(time.steps) * time.dt - acq.t0;
  const double pi = 4.0 * std::atan(1.0);
  for (int k = 0; k < 1440; ++k) {
    const double phi = 2 * pi * k / 1440;  // from the vertical
    const double folded = std::abs(std::asin(std::abs(std::sin(phi))));
    const double r = v0 * thomsen_group_velocity(eps, delta, folded) * t;
    const auto x = static_cast<index_t>(std::lround((centre + r * std::sin(phi)) / h));
    const auto z = static_cast<index_t>(std::lround((centre + r * std::cos(phi)) / h));
    if (x >= 0 && x < n && z >= 0 && z < n && k % 4 < 2) picture[static_cast<std::size_t>(z * n + x)] = std::nan("");
  }
  PictureLabels labels;
  char title[160];
  std::snprintf(title, sizeof title, "VTI p at %.3f s, eps %.2f delta %.2f%s; grey: Thomsen's ray surface",
                static_cast<double>(time.steps) * time.dt, eps, delta,
                radius > 0 ? ", isotropic around the source" : "");
  labels.title = title;
  labels.dx = labels.dy = h;
  write_labelled_png(argv[1], picture.data(), n, n, clip, 1, labels);
  std::printf("%s: %ld steps of %.6g s\n", argv[1], static_cast<long>(time.steps), time.dt);
  return 0;
}
