// A planar density contrast at normal incidence reflects R = (Z2 - Z1) / (Z2 + Z1), Z = rho c.
// The velocity is the same on both sides, so R is the same at every angle and the wave reflected by
// the plane is, above it, R times the wave of the source's mirror image in the plane. So: the
// reflected wave at a receiver above the source (the run with the contrast less the run without,
// which cancels the direct wave) against the wave of a source at the image point in the medium
// without the contrast, at the same receiver: both travel the same distance along z (the same
// numerical dispersion), and the absorbing layers on the sides echo both alike (the layer's eta and
// m are the same on both sides of the plane, so the image holds there too). R is their least-squares
// ratio over a wavelet's length around the arrival.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <utility>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {
namespace {

constexpr double c = 2000, f0 = 12, h = 10;                      // 16.7 points per wavelength at the peak frequency
constexpr double x0 = 200, zs = 200, zr = 150, interface = 605;  // the plane between grid points 60 and 61

Grid reflection_grid() {
  Grid g;
  g.shape = {41, 41, 125};  // the image source at z = 1010 m lies 230 m above the bottom
  g.nbl = 10;
  g.spacing = h;
  g.space_order = 8;
  return g;
}

// The receiver's trace for a source at depth `source_z` in `model`.
std::vector<double> trace(const VelocityModel& model, double source_z, const TimeAxis& t) {
  Acquisition acq;
  acq.f0 = f0;
  acq.t0 = 1.5 / f0;
  acq.sources = {{x0, x0, source_z}};
  acq.receivers = {{x0, x0, zr}};
  const Problem<double> p = make_problem<double>(reflection_grid(), model, acq, t);
  CpuPropagator<double> prop(p);
  return run_forward(prop).traces;
}

// <a, b> / <b, b> over the samples within a wavelet's length of time `at`.
double ratio_near(const std::vector<double>& a, const std::vector<double>& b, const TimeAxis& t, double at) {
  double ab = 0, bb = 0;
  for (index_t k = 0; k < t.nt(); ++k) {
    if (std::abs(k * t.dt - at) > 1 / f0) continue;
    ab += a[static_cast<std::size_t>(k)] * b[static_cast<std::size_t>(k)];
    bb += b[static_cast<std::size_t>(k)] * b[static_cast<std::size_t>(k)];
  }
  return ab / bb;
}

TEST(DensityReflection, NormalIncidenceMatchesTheImpedanceContrast) {
  const Grid g = reflection_grid();
  const double image = (interface - zs) + (interface - zr);  // 860 m from the image source to the receiver
  VelocityModel plain = homogeneous_model(g.shape, c);
  plain.density.assign(plain.velocity.size(), 1000.0);
  VelocityModel sharpest = plain;
  for (std::size_t i = 0; i < sharpest.density.size(); ++i)
    if (double(static_cast<index_t>(i) % g.shape[2]) * h > interface) sharpest.density[i] = 4000.0;
  const double arrival = 1.5 / f0 + image / c;
  const TimeAxis t = make_time_axis(arrival + 1.5 / f0, 0.9 * max_stable_dt(g, sharpest));
  const std::vector<double> mirrored = trace(homogeneous_model(g.shape, c), 2 * interface - zs, t);
  for (const auto& [rho1, rho2] :
       {std::pair{1000.0, 2000.0}, std::pair{2000.0, 1000.0}, std::pair{1000.0, 4000.0}, std::pair{1000.0, 250.0}}) {
    VelocityModel above = plain, layered = plain;
    above.density.assign(above.velocity.size(), rho1);
    layered.density = above.density;
    for (std::size_t i = 0; i < layered.density.size(); ++i)
      if (double(static_cast<index_t>(i) % g.shape[2]) * h > interface) layered.density[i] = rho2;
    const std::vector<double> without = trace(above, zs, t), with = trace(layered, zs, t);
    std::vector<double> reflected(with.size());
    for (std::size_t k = 0; k < with.size(); ++k) reflected[k] = with[k] - without[k];
    const double measured = ratio_near(reflected, mirrored, t, arrival);
    const double expected = (rho2 - rho1) / (rho2 + rho1);  // (Z2 - Z1) / (Z2 + Z1) with c1 = c2
    EXPECT_NEAR(measured, expected, 0.05 * std::abs(expected)) << "rho " << rho1 << " over " << rho2;
    std::cout << "rho " << rho1 << " over " << rho2 << ": R " << measured << ", expected " << expected << " ("
              << 100 * (measured / expected - 1) << "%)\n";
  }
}

}  // namespace
}  // namespace revwave
