// The variable-density physics' CPU step cost against the constant-density one, measured in one
// run: forward and reverse steps of three propagators on the same grid and random states (constant
// density; variable density; variable density imaging dJ/drho), interleaved so that drifts in the
// machine's load hit all alike, with the bytes each step moves per point in float.
//
// Usage: revwave_density_step_bench [N=120] [REPS=10] [THREADS=all] [surface]   (space order 8, float,
// nbl 10). With `surface` the three run with a free surface and beside them the constant density
// with an absorbing top, today's sweep, which the ratios then divide by.
// Prints one JSON object: each physics' min and median seconds per step, and the ratios to the
// first's (the constant density's).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "step_bench.hpp"

using namespace revwave;
using namespace revwave::bench;
using T = float;

namespace {

struct Bench {
  const char* name;
  int forward_bytes, reverse_bytes;  // per point in float: fields read and written once each
  Problem<T> problem;
  std::unique_ptr<CpuPropagator<T>> prop;
  std::vector<double> fwd, rev;
};

}  // namespace

int main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atol(argv[1]) : 120;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (argc > 3) omp_set_num_threads(std::atoi(argv[3]));
  Grid g;
  g.shape = {n, n, n};
  g.nbl = 10;
  g.spacing = 10.0;
  g.space_order = 8;
  VelocityModel plain = homogeneous_model(g.shape, 2000.0), dense = plain;
  dense.density.resize(dense.velocity.size());
  for (std::size_t i = 0; i < dense.density.size(); ++i) dense.density[i] = 1000.0 + 0.5 * double(i % std::size_t(n));
  Acquisition acq;
  acq.sources = {{0.5 * g.extent(0), 0.5 * g.extent(1), 20.0}};
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b)
      acq.receivers.push_back({g.extent(0) * (a + 0.5) / 16, g.extent(1) * (b + 0.5) / 16, 20.0});
  const bool surface = argc > 4 && std::string(argv[4]) == "surface";
  Grid top = g;  // the grid of the three physics
  top.free_surface = surface;
  const TimeAxis time{std::min(default_dt(g, dense), default_dt(top, dense)), 4 * index_t(reps) + 8};
  std::vector<Bench> benches;
  if (surface)
    benches.push_back({"constant_absorbing_top", 16, 32, make_problem<T>(g, plain, acq, time), nullptr, {}, {}});
  benches.push_back({"constant", 16, 32, make_problem<T>(top, plain, acq, time), nullptr, {}, {}});
  benches.push_back({"density", 36, 52, make_problem<T>(top, dense, acq, time), nullptr, {}, {}});
  benches.push_back({"density_imaging", 36, 88, make_problem<T>(top, dense, acq, time), nullptr, {}, {}});
  benches.back().problem.density->image = true;
  const std::vector<T> observed(static_cast<std::size_t>(time.nt() * benches[0].problem.rec.count), T(0.01));
  for (Bench& b : benches) {
    b.prop = std::make_unique<CpuPropagator<T>>(b.problem);
    b.prop->reset_forward();
    randomize(b.problem.grid, b.prop->state().u.template as<T>(), 1);
    randomize(b.problem.grid, b.prop->state().u_prev.template as<T>(), 2);
    b.prop->reset_adjoint();
    b.prop->set_adjoint_source(observed);
    b.prop->reverse_step(time.steps - 1);
  }
  index_t step = 0;
  for (int r = 0; r < reps; ++r, ++step)
    for (Bench& b : benches) {
      b.fwd.push_back(seconds_of([&] { b.prop->forward_step(step); }));
      b.rev.push_back(seconds_of([&] { b.prop->reverse_step(step + 1); }));
    }
  const double f0 = median(benches[0].fwd), r0 = median(benches[0].rev);
  std::printf("{\"n\": %ld, \"threads\": %d, \"reps\": %d, \"free_surface\": %s", static_cast<long>(n),
              omp_get_max_threads(), reps, surface ? "true" : "false");
  for (const Bench& b : benches) {
    std::printf(
        ", \"%s\": {\"forward_bytes\": %d, \"reverse_bytes\": %d, \"forward_median\": %.6g, \"reverse_median\": %.6g, "
        "\"forward_min\": %.6g, \"reverse_min\": %.6g, \"forward_ratio\": %.3f, \"reverse_ratio\": %.3f}",
        b.name, b.forward_bytes, b.reverse_bytes, median(b.fwd), median(b.rev),
        *std::min_element(b.fwd.begin(), b.fwd.end()), *std::min_element(b.rev.begin(), b.rev.end()),
        median(b.fwd) / f0, median(b.rev) / r0);
  }
  std::printf("}\n");
  return 0;
}
