// A trace with and without Q for people to look at: a line source on a plane in a homogeneous
// medium (2000 m/s, 15 Hz, h 10 m), the trace 900 m away once in the acoustic medium (red) and once
// with Q (blue), each normalised by the acoustic trace's peak, drawn as curves over time; grey: zero.
// The attenuated wavelet is weaker, broader and later (the dispersion: its velocity at 15 Hz is the
// model's, its higher frequencies faster and damped more). docs/physics/attenuation.md shows it.
//
// Usage: revwave_visco_trace OUT.png [Q=30]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/io/png_image.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

using namespace revwave;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: revwave_visco_trace OUT.png [Q]\n");
    return 2;
  }
  const double q = argc > 2 ? std::atof(argv[2]) : 30.0;
  const double v0 = 2000, f0 = 15, h = 10, offset = 900;
  Grid g;
  g.shape = {150, 1, 90};
  g.spacing = h;
  g.space_order = 8;
  g.nbl = 40;
  Acquisition acq;
  acq.f0 = f0;
  acq.t0 = 1.5 / f0;
  acq.sources = {{25 * h, 0, 45 * h}};
  acq.receivers = {{25 * h + offset, 0, 45 * h}};
  VelocityModel elastic = homogeneous_model(g.shape, v0);
  VelocityModel visco = elastic;
  visco.q.assign(visco.velocity.size(), q);
  visco.q_frequency = visco.q_f0 = f0;
  TimeAxis time;
  time.dt = default_dt(g, visco);
  const double t_first = offset / v0 - 0.05, t_last = offset / v0 + acq.t0 + 0.25;
  time.steps = static_cast<index_t>(std::ceil(t_last / time.dt));
  auto trace = [&](const VelocityModel& m) {
    const Problem<double> p = make_problem<double>(g, m, acq, time);
    CpuPropagator<double> prop(p);
    return run_forward(prop).traces;
  };
  const std::vector<double> a = trace(elastic), b = trace(visco);
  double peak = 0;
  for (double v : a) peak = std::max(peak, std::abs(v));
  // The plot: rows from +1.1 (top) to -1.1 of the acoustic peak, one column per sample in the window.
  const auto k0 = static_cast<index_t>(std::floor(t_first / time.dt)), k1 = time.steps;
  const index_t cols = k1 - k0 + 1, rows = 221;
  std::vector<double> picture(static_cast<std::size_t>(rows * cols), 0.0);
  const auto row_of = [&](double v) {
    return std::clamp<index_t>(static_cast<index_t>(std::lround((1.1 - v / peak) / 2.2 * (rows - 1))), 0, rows - 1);
  };
  for (index_t c = 0; c < cols; ++c) picture[static_cast<std::size_t>(row_of(0) * cols + c)] = std::nan("");
  // Each curve joins its samples: every row between one sample's and the next's.
  const auto draw = [&](const std::vector<double>& tr, double colour) {
    for (index_t c = 0; c + 1 < cols; ++c) {
      index_t r0 = row_of(tr[static_cast<std::size_t>(k0 + c)]), r1 = row_of(tr[static_cast<std::size_t>(k0 + c + 1)]);
      if (r0 > r1) std::swap(r0, r1);
      for (index_t r = r0; r <= r1; ++r) picture[static_cast<std::size_t>(r * cols + c)] = colour;
    }
  };
  draw(a, 1.0);
  draw(b, -1.0);
  PictureLabels labels;
  char title[160];
  std::snprintf(title, sizeof title, "trace at %.0f m: red acoustic, blue Q %.0f (velocity at %.0f Hz the same)",
                offset, q, f0);
  labels.title = title;
  labels.x_axis = "t (s)";
  labels.x0 = static_cast<double>(k0) * time.dt;
  labels.dx = time.dt;
  labels.y_axis = "amplitude / acoustic peak";
  labels.y0 = 1.1;
  labels.dy = -2.2 / (rows - 1);
  write_labelled_png(argv[1], picture.data(), rows, cols, 1.0, 2, labels);
  double peak_q = 0;
  for (double v : b) peak_q = std::max(peak_q, std::abs(v));
  std::printf("%s: %ld steps of %.6g s; peak with Q / without: %.4f (exp(-pi f0 t / Q) at 15 Hz: %.4f)\n", argv[1],
              static_cast<long>(time.steps), time.dt, peak_q / peak, std::exp(-M_PI * f0 * (offset / v0) / q));
  return 0;
}
