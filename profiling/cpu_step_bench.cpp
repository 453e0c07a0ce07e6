// Seconds per forward step and per reverse step of the CPU backend, on random fields, with the
// bytes each moves: the reverse/forward cost ratio beside the ratio of bytes (ideal 32/16 = 2.0
// for the fused reverse step). Uses only CpuPropagator's public steps, so the same source builds
// against an older revwave for an A/B comparison (profiling/reverse_step_ab.sh).
//
// Usage: revwave_cpu_step_bench [N=200] [REPS=12] [THREADS=all] [free-surface|cpml|plane|vti|visco]   (space order 8, float, nbl 10)
// Prints one JSON object: per-step seconds (min, median) and GPts/s of both steps.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
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

// One configuration's problem, propagator and step times (its fields random, its adjoint primed).
struct Bench {
  Bench(const Grid& g, int reps, const std::string& physics = "") : p(make(g, reps, physics)), prop(p) {
    const Grid& pg = p.grid;
    observed.assign(static_cast<std::size_t>(p.time.nt() * p.rec.count), T(0.01));
    prop.reset_forward();
    randomize(pg, prop.state().u.template as<T>(), 1);
    randomize(pg, prop.state().u_prev.template as<T>(), 2);
    prop.reset_adjoint();
    prop.set_adjoint_source(observed);
    // Fill the adjoint with something non-zero before timing: one reverse step from random u.
    prop.reverse_step(p.time.steps - 1);
  }
  static Problem<T> make(const Grid& g, int reps, const std::string& physics) {
    VelocityModel model = homogeneous_model(g.shape, 2000.0);
    Acquisition acq;
    if (physics == "vti") {  // the pseudo-acoustic VTI pair (numerics/vti/): the d field rides in each field's tail
      model.epsilon.assign(model.velocity.size(), 0.2);
      model.delta.assign(model.velocity.size(), 0.1);
    } else if (physics == "visco") {  // Q 30 (numerics/visco/): three memory variables ride in the tail
      model.q.assign(model.velocity.size(), 30.0);
      model.q_frequency = model.q_f0 = acq.f0;
    }
    acq.sources = {{0.5 * g.extent(0), 0.5 * g.extent(1), 20.0}};
    for (int a = 0; a < 16; ++a)
      for (int b = 0; b < 16; ++b)
        acq.receivers.push_back({g.extent(0) * (a + 0.5) / 16, g.extent(1) * (b + 0.5) / 16, 20.0});
    TimeAxis time{default_dt(g, model), 4 * index_t(reps) + 8};
    return make_problem<T>(g, model, acq, time);
  }
  void rep() {
    fwd.push_back(seconds_of([&] { prop.forward_step(step++); }));
    rev.push_back(seconds_of([&] { prop.reverse_step(step); }));
  }
  const Problem<T> p;
  CpuPropagator<T> prop;
  std::vector<T> observed;
  std::vector<double> fwd, rev;
  index_t step = 0;
};

void print(const char* name, const Bench& b, const char* tail) {
  const double points = double(b.p.grid.interior_points());
  const Grid& g = b.p.grid;
  const double f_min = *std::min_element(b.fwd.begin(), b.fwd.end());
  const double r_min = *std::min_element(b.rev.begin(), b.rev.end());
  std::printf(
      "%s{\"n\": %ld, \"threads\": %d, \"reps\": %d, \"forward_min\": %.6g, \"forward_median\": %.6g, "
      "\"reverse_min\": %.6g, \"reverse_median\": %.6g, \"ratio_min\": %.4f, \"ratio_median\": %.4f, "
      "\"forward_gpts\": %.4f, \"reverse_gpts\": %.4f, \"shape\": [%ld, %ld, %ld], \"field_bytes\": %zu}%s",
      name, static_cast<long>(g.shape[0]), omp_get_max_threads(), static_cast<int>(b.fwd.size()), f_min, median(b.fwd),
      r_min, median(b.rev), r_min / f_min, median(b.rev) / median(b.fwd), points / f_min / 1e9, points / r_min / 1e9,
      static_cast<long>(g.shape[0]), static_cast<long>(g.shape[1]), static_cast<long>(g.shape[2]), g.field_bytes<T>(),
      tail);
}

}  // namespace

// A fourth argument `free-surface` times the same grid with --free-surface too, the two
// alternating rep by rep, and prints both and the ratios (free surface / sponge) of their medians;
// `cpml` the same with --boundary cpml (the ratios C-PML / sponge); `vti` the same with epsilon 0.2
// and delta 0.1 (the ratios VTI / isotropic, both with the sponge); `visco` with Q 30 (the ratios
// visco-acoustic / acoustic, both with the sponge).
// `plane` times a 2D model (ny = 1) of as many interior points, N^(3/2) x 1 x N^(3/2), beside the
// N^3 cube, alternating, and prints the ratios (plane / cube) of their medians per interior point.
int main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atol(argv[1]) : 200;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 12;
  if (argc > 3) omp_set_num_threads(std::atoi(argv[3]));
  const std::string mode = argc > 4 ? argv[4] : "";
  if (!mode.empty() && mode != "free-surface" && mode != "cpml" && mode != "plane" && mode != "vti" &&
      mode != "visco") {
    std::fprintf(stderr, "revwave_cpu_step_bench: unknown mode '%s' (free-surface, cpml, plane, vti or visco)\n",
                 mode.c_str());
    return 2;
  }
  const bool compare = !mode.empty();
  Grid g;
  g.shape = {n, n, n};
  g.nbl = 10;
  g.spacing = 10.0;
  g.space_order = 8;
  Bench today(g, reps);
  if (!compare) {
    for (int r = 0; r < reps; ++r) today.rep();  // forward and reverse alternate: drifts in load hit both alike
    print("", today, "\n");
    return 0;
  }
  if (mode == "plane") {
    const auto side = static_cast<index_t>(std::llround(std::pow(double(n), 1.5)));
    g.shape = {side, 1, side};
  } else if (mode == "cpml") {
    g.cpml = true;
  } else if (mode == "vti" || mode == "visco") {
  } else {
    g.free_surface = true;
  }
  Bench other(g, reps, mode == "vti" || mode == "visco" ? mode : "");
  for (int r = 0; r < reps; ++r) {
    today.rep();
    other.rep();
  }
  // Per interior point: the plane's count is the cube's to within the rounding of its side.
  const double per = double(today.p.grid.interior_points()) / double(other.p.grid.interior_points());
  const char* first = mode == "plane"   ? "{\"cube\": "
                      : mode == "vti"   ? "{\"isotropic\": "
                      : mode == "visco" ? "{\"acoustic\": "
                                        : "{\"sponge\": ";
  const char* second = mode == "plane"   ? "\"plane\": "
                       : mode == "cpml"  ? "\"cpml\": "
                       : mode == "vti"   ? "\"vti\": "
                       : mode == "visco" ? "\"visco\": "
                                         : "\"free_surface\": ";
  print(first, today, ", ");
  print(second, other, ", ");
  std::printf("\"forward_ratio_median\": %.4f, \"reverse_ratio_median\": %.4f}\n",
              per * median(other.fwd) / median(today.fwd), per * median(other.rev) / median(today.rev));
  return 0;
}
