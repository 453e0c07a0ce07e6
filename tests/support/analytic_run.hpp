// The analytic tests' homogeneous medium (free space, half-space, plane, half-plane): 1500 m/s, a
// 10 Hz Ricker with its default delay, space order 8 and a 100 m absorbing layer, `extent` metres
// of interior on every axis (y: one point on a plane) at spacing h; the CPU's record of the
// sources at the receivers over tn seconds, and a receiver's relative L2 error against a solution.
#pragma once
#include <cmath>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave::testing {

struct AnalyticRun {
  static constexpr double c = 1500, f0 = 10;
  Grid grid;
  Acquisition acq;
  TimeAxis time;
  ShotData<double> shot;

  AnalyticRun(double extent, double h, bool planar, bool free_surface, std::vector<Vec3> sources,
              std::vector<Vec3> receivers, double tn) {
    const index_t n = static_cast<index_t>(extent / h) + 1;
    grid.shape = {n, planar ? 1 : n, n};
    grid.nbl = static_cast<index_t>(100 / h);
    grid.spacing = h;
    grid.space_order = 8;
    grid.free_surface = free_surface;
    acq.f0 = f0;
    acq.t0 = default_wavelet_delay(f0);
    acq.sources = std::move(sources);
    acq.receivers = std::move(receivers);
    time = make_time_axis(tn, default_dt(grid, c));
    const Problem<double> p = make_problem<double>(grid, homogeneous_model(grid.shape, c), acq, time);
    CpuPropagator<double> prop(p);
    shot = run_forward(prop);
  }
  double sample(index_t r, index_t k) const {
    return shot.traces[static_cast<std::size_t>(k) * acq.receivers.size() + static_cast<std::size_t>(r)];
  }
  // Receiver r's relative L2 error against exact(t) at every sample time.
  template <class Exact>
  double error(index_t r, Exact&& exact) const {
    double e2 = 0, n2 = 0;
    for (index_t k = 0; k < time.nt(); ++k) {
      const double want = exact(k * time.dt);
      const double d = sample(r, k) - want;
      e2 += d * d;
      n2 += want * want;
    }
    return std::sqrt(e2 / n2);
  }
};

}  // namespace revwave::testing
