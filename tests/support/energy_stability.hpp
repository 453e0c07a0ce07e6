// The discrete energy of the leapfrog over long records, for any backend's forward steps
// (tests/numerics/test_density_stability.cpp on the CPU, tests/cuda/test_cuda_density_stability.cpp
// on the CUDA backend): random smooth models, the cases of #44 that grew, and the checks.
//
// The energy of M u_tt = A u (M = diag(m / rho), A = K / rho symmetric and semi-definite) under
// the leapfrog,
//   E(n + 1/2) = 1/2 sum (m / rho) ((u[n+1] - u[n]) / dt)^2 - 1/2 sum u[n+1] (K u[n]) / rho,
// is conserved without a layer and falls in a sponge; K u[n] is read off the update itself,
// a u[n+1] - 2 (m / dt^2) u[n] + b u[n-1] (no source term once the source has ended), so the test
// needs nothing of the operator but its steps. With a C-PML it is the energy of the unstretched
// system, which the layer drains.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave::energy_testing {

enum class Layer { none, sponge, cpml, surface };
inline const char* name_of(Layer b) {
  switch (b) {
    case Layer::none: return "none";
    case Layer::sponge: return "sponge";
    case Layer::cpml: return "cpml";
    case Layer::surface: return "free surface + cpml";
  }
  return "?";
}

// A smooth random field on the interior in [lo, hi], geometric: exp of a sum of a few random
// Gaussian bumps, rescaled so its extremes are lo and hi.
inline std::vector<double> smooth_random(const std::array<index_t, 3>& shape, double lo, double hi, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const int bumps = 6;
  std::vector<std::array<double, 5>> b(bumps);
  for (auto& x : b)
    x = {u(rng) * double(shape[0]), u(rng) * double(shape[1]), u(rng) * double(shape[2]), 2.0 + 4.0 * u(rng),
         u(rng) < 0.5 ? -1.0 : 1.0};
  std::vector<double> f(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]));
  std::size_t i = 0;
  for (index_t x = 0; x < shape[0]; ++x)
    for (index_t y = 0; y < shape[1]; ++y)
      for (index_t z = 0; z < shape[2]; ++z, ++i) {
        double s = 0;
        for (const auto& c : b) {
          const double r2 = std::pow(double(x) - c[0], 2) + (shape[1] > 1 ? std::pow(double(y) - c[1], 2) : 0.0) +
                            std::pow(double(z) - c[2], 2);
          s += c[4] * std::exp(-r2 / (2 * c[3] * c[3]));
        }
        f[i] = s;
      }
  const auto [mn, mx] = std::minmax_element(f.begin(), f.end());
  const double a = *mn, span = *mx - *mn;
  for (double& v : f) v = lo * std::pow(hi / lo, span > 0 ? (v - a) / span : 0.5);
  return f;
}

struct Case {
  std::array<index_t, 3> shape;
  int order;
  Layer boundary;
  bool density;
  double contrast = 1e3;
  unsigned seed = 1;
  double crossings = 20;
};

struct Energy {
  double at_end_of_source = 0, largest_after = 0, smallest_after = 0, last = 0;
  bool finite = true;
};

// Runs the case and returns the energy when the source has ended, the largest and smallest after
// it, the last. A growing mode of an operator that is not semi-definite drives the energy to minus
// infinity (its potential part -1/2 u A u turns negative), a growing mode of the leapfrog past its
// CFL limit to plus infinity: both bounds are checked.
//
// `steps(problem, each)` runs the problem's forward steps from rest and calls each(n, u[n+1], u[n])
// after step n (host copies of the allocated grid): a backend's propagator (cpu_steps here, the
// CUDA backend's in tests/cuda).
template <class T, class Steps>
Energy run_energy(const Case& cs, const VelocityModel* given, Steps&& steps) {
  std::mt19937 rng(cs.seed * 7919u + unsigned(cs.order) * 31u + unsigned(cs.boundary));
  Grid g;
  g.shape = cs.shape;
  g.spacing = 10;
  g.space_order = cs.order;
  g.nbl = cs.boundary == Layer::none ? 0 : std::max<index_t>(8, g.radius());
  g.cpml = cs.boundary == Layer::cpml || cs.boundary == Layer::surface;
  g.free_surface = cs.boundary == Layer::surface;
  VelocityModel model;
  if (given != nullptr) {
    model = *given;
  } else {
    model.shape = g.shape;
    model.velocity = smooth_random(g.shape, 1500, 3500, rng);
    if (cs.density) model.density = smooth_random(g.shape, 1000, 1000 * cs.contrast, rng);
  }
  const double c_max = max_velocity(model), c_min = min_velocity(model);
  Acquisition acq;
  acq.f0 = 0.35 * c_min / (4 * g.spacing);  // a few points per shortest wavelength
  acq.t0 = default_wavelet_delay(acq.f0);
  const double depth = double(g.shape[2] - 1) * g.spacing;
  acq.sources = {{0.4 * double(g.shape[0] - 1) * g.spacing, 0.5 * double(g.shape[1] - 1) * g.spacing, 0.45 * depth}};
  acq.receivers = {{0.5 * double(g.shape[0] - 1) * g.spacing, 0.5 * double(g.shape[1] - 1) * g.spacing, 0.5 * depth}};
  const double source_end = acq.t0 + 6.0 / (M_PI * acq.f0);  // the Ricker below 1e-14 of its peak
  const double width = double(std::max(g.shape[0], g.shape[2]) - 1) * g.spacing;
  const double tn = source_end + cs.crossings * width / (0.5 * (c_min + c_max));
  const TimeAxis time = make_time_axis(tn, default_dt(g, model));
  const Problem<T> p = make_problem<T>(g, model, acq, time);
  const index_t n_end = static_cast<index_t>(std::ceil(source_end / time.dt));
  const std::size_t points = static_cast<std::size_t>(g.alloc_points());
  std::vector<T> older(points, T(0));  // u[n-1]
  const T* m = p.m.template as<T>();
  const T* t = p.density ? p.density->t.template as<T>() : nullptr;
  const double dt = time.dt, inv_dt2 = 1.0 / (dt * dt);
  Energy e;
  steps(p, [&](index_t n, const T* next, const T* current) {
    if (n >= n_end) {
      double kinetic = 0, potential = 0;
      for (index_t i = 0; i < g.padded(0); ++i)
        for (index_t j = 0; j < g.padded(1); ++j)
          for (index_t k = 0; k < g.padded(2); ++k) {
            const index_t idx = g.index(i, j, k);
            const double eta =
                double(damping_eta(p.coeffs, p.kappa[0][static_cast<std::size_t>(i)],
                                   p.kappa[1][static_cast<std::size_t>(j)], p.kappa[2][static_cast<std::size_t>(k)]));
            const double mm = double(m[idx]), rho = t ? double(t[idx]) * double(t[idx]) : 1.0;
            const double a = mm * inv_dt2 + eta / (2 * dt), b = mm * inv_dt2 - eta / (2 * dt);
            const double un1 = double(next[idx]), un = double(current[idx]),
                         unm1 = double(older[static_cast<std::size_t>(idx)]);
            const double ku = a * un1 - 2 * mm * inv_dt2 * un + b * unm1;
            kinetic += mm / rho * (un1 - un) * (un1 - un) * inv_dt2;
            potential -= un1 * ku / rho;
          }
      const double energy = 0.5 * (kinetic + potential);
      if (!std::isfinite(energy)) e.finite = false;
      if (n == n_end) e.at_end_of_source = e.smallest_after = energy;
      e.largest_after = std::max(e.largest_after, energy);
      e.smallest_after = std::min(e.smallest_after, energy);
      e.last = energy;
    }
    older.assign(current, current + points);
  });
  return e;
}

// The tolerance of "never rises": rounding over the run (the energy is conserved only to it).
template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 2e-3 : 1e-9;
}

// The energy's lower bound: rounding, and with a C-PML also the layer's own terms, which this energy
// of the unstretched system does not hold (it dips to -4e-7 of its value at the source's end in
// double while the layer drains it; a growing mode drives it to -1e68 and beyond).
template <class T>
double negative_bound(Layer b) {
  return b == Layer::cpml || b == Layer::surface ? 1e-3 : tolerance<T>();
}

template <class T, class Steps>
void expect_stable(const Case& cs, Steps&& steps) {
  const Energy e = run_energy<T>(cs, nullptr, steps);
  const std::string what = std::string(cs.density ? "variable density" : "constant density") + ", " +
                           name_of(cs.boundary) + ", order " + std::to_string(cs.order) + ", " +
                           (std::is_same_v<T, float> ? "float" : "double") + (cs.shape[1] == 1 ? ", plane" : ", 3D") +
                           ", " + steps.name;
  std::printf("%s: energy %.6g at the source's end, %.6g to %.6g after, %.6g at the end\n", what.c_str(),
              e.at_end_of_source, e.smallest_after, e.largest_after, e.last);
  ASSERT_TRUE(e.finite) << what;
  ASSERT_GT(e.at_end_of_source, 0) << what;
  EXPECT_LE(e.largest_after, e.at_end_of_source * (1 + tolerance<T>())) << what;
  EXPECT_GE(e.smallest_after, -e.at_end_of_source * negative_bound<T>(cs.boundary)) << what << ": never negative";
  // The C-PML drains it below 5% (1e-5 and less here); the sponge, which echoes about 12% of a wave
  // at nbl 10 (docs/physics/boundaries.md), to 8.5% at worst in these runs.
  const double drained = cs.boundary == Layer::sponge ? 0.2 : 0.05;
  if (cs.boundary != Layer::none) {
    EXPECT_LT(e.last, drained * e.at_end_of_source) << what << ": the layer drains it";
  }
}

// The cases of the issue that grew: a density rising with depth under the default C-PML (the
// record reached 8e22), water over sediment on a plane, two layers of 1000 and 1e5 kg/m^3 at
// order 8 with the sponge, a contrast of 1000 at order 4, and 1 over 1e6 kg/m^3.
inline VelocityModel layered(const std::array<index_t, 3>& shape, double velocity, double top, double bottom,
                             index_t at) {
  VelocityModel m = homogeneous_model(shape, velocity);
  m.density.resize(m.velocity.size());
  for (std::size_t i = 0; i < m.density.size(); ++i)
    m.density[i] = index_t(i % static_cast<std::size_t>(shape[2])) < at ? top : bottom;
  return m;
}

template <class T, class Steps>
void expect_stable_in(const Case& cs, const VelocityModel& model, const char* what, Steps&& steps) {
  const Energy e = run_energy<T>(cs, &model, steps);
  std::printf("%s, %s: energy %.6g at the source's end, %.6g to %.6g after, %.6g at the end\n", what, steps.name,
              e.at_end_of_source, e.smallest_after, e.largest_after, e.last);
  ASSERT_TRUE(e.finite) << what;
  ASSERT_GT(e.at_end_of_source, 0) << what;
  EXPECT_LE(e.largest_after, e.at_end_of_source * (1 + tolerance<T>())) << what;
  EXPECT_GE(e.smallest_after, -e.at_end_of_source * negative_bound<T>(cs.boundary)) << what << ": never negative";
}

// The cases of #44 that grew (above).
template <class T, class Steps>
void expect_the_cases_that_grew_stay_bounded(Steps&& steps) {
  {
    const std::array<index_t, 3> shape{24, 1, 30};
    VelocityModel m = homogeneous_model(shape, 2000);
    m.density.resize(m.velocity.size());
    for (std::size_t i = 0; i < m.density.size(); ++i)  // 10 kg/m^3 per metre of depth, clipped at 2500
      m.density[i] = std::min(2500.0, 1000.0 + 10.0 * 10.0 * double(i % 30));
    expect_stable_in<T>({shape, 8, Layer::cpml, true}, m, "density rising with depth, cpml, order 8", steps);
  }
  expect_stable_in<T>({{30, 1, 30}, 8, Layer::cpml, true}, layered({30, 1, 30}, 1500, 1000, 2000, 12),
                      "water over sediment, plane, cpml", steps);
  expect_stable_in<T>({{24, 1, 24}, 8, Layer::sponge, true}, layered({24, 1, 24}, 2000, 1000, 1e5, 12),
                      "1000 over 1e5 kg/m^3, sponge, order 8", steps);
  expect_stable_in<T>({{24, 1, 24}, 4, Layer::sponge, true}, layered({24, 1, 24}, 2000, 1000, 1e6, 12),
                      "1000 over 1e6 kg/m^3, sponge, order 4", steps);
  expect_stable_in<T>({{24, 1, 24}, 8, Layer::none, true}, layered({24, 1, 24}, 2000, 1, 1e6, 12),
                      "1 over 1e6 kg/m^3, no layer, order 8", steps);
}

}  // namespace revwave::energy_testing
