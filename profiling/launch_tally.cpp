// The CUDA backend's kernel launches per step and the bytes they declare, per padded point, by
// the launch layer's accounting on cudasim (cudasim::take_kernel_tally): the forward step and the
// fused reverse step of the sponge, the C-PML and the C-PML around a variable density, side by side.
// Counts, not times: the same on any machine; the bytes are what each launch declares it may touch
// (an upper bound on its DRAM traffic, with no cache), so they say how many passes over memory a
// step makes, and the launches how many kernels it waits through.
//
// Usage: revwave_launch_tally [N=48] [STEPS=4]   (space order 8, float, nbl 10; prints one JSON object)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cudasim.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

using namespace revwave;
using T = float;

namespace {

struct Case {
  const char* name;
  bool cpml;
  bool density;
};

std::string tally_json(const std::vector<cudasim::KernelTally>& t, int steps, double points) {
  std::uint64_t launches = 0, bytes = 0;
  std::string kernels;
  for (const cudasim::KernelTally& k : t) {
    launches += k.launches;
    bytes += k.bytes_read + k.bytes_written;
    char line[256];
    std::snprintf(line, sizeof line, "%s{\"kernel\": \"%s\", \"launches_per_step\": %.2f, \"bytes_per_point\": %.2f}",
                  kernels.empty() ? "" : ", ", k.name.c_str(), double(k.launches) / steps,
                  double(k.bytes_read + k.bytes_written) / steps / points);
    kernels += line;
  }
  char head[160];
  std::snprintf(head, sizeof head, "{\"launches_per_step\": %.2f, \"bytes_per_point\": %.2f, \"kernels\": [",
                double(launches) / steps, double(bytes) / steps / points);
  return head + kernels + "]}";
}

}  // namespace

int main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atol(argv[1]) : 48;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 4;
  std::printf("{\"n\": %ld, \"nbl\": 10, \"space_order\": 8, \"steps\": %d", static_cast<long>(n), steps);
  for (const Case& c : {Case{"sponge", false, false}, Case{"cpml", true, false}, Case{"cpml_density", true, true}}) {
    Grid g;
    g.shape = {n, n, n};
    g.nbl = 10;
    g.spacing = 10.0;
    g.space_order = 8;
    g.cpml = c.cpml;
    VelocityModel model{g.shape, std::vector<double>(static_cast<std::size_t>(g.interior_points()), 2000.0)};
    if (c.density) model.density.assign(model.velocity.size(), 1000.0);
    Acquisition acq;
    acq.sources = {{0.5 * g.extent(0), 0.5 * g.extent(1), 0.5 * g.extent(2)}};
    for (int r = 0; r < 16; ++r) acq.receivers.push_back({g.extent(0) * (r + 0.5) / 16, 0.5 * g.extent(1), 20.0});
    acq.f0 = 10.0;
    acq.t0 = 0.15;
    TimeAxis time;
    time.dt = default_dt(g, 2000.0);
    time.steps = 2 * steps + 2;
    const Problem<T> p = make_problem<T>(g, model, acq, time);
    const double points = double(p.grid.padded(0)) * double(p.grid.padded(1)) * double(p.grid.padded(2));
    CudaPropagator<T> prop(p);
    prop.reset_forward();
    prop.forward_step(0);
    prop.synchronize();
    cudasim::take_kernel_tally();
    for (int s = 1; s <= steps; ++s) prop.forward_step(s);
    prop.synchronize();
    const std::string forward = tally_json(cudasim::take_kernel_tally(), steps, points);
    prop.set_adjoint_source(std::vector<T>(static_cast<std::size_t>(p.time.nt() * p.rec.count), T(0.01)));
    prop.reset_adjoint();
    prop.synchronize();
    cudasim::take_kernel_tally();
    for (int s = steps; s >= 1; --s) prop.reverse_step(s);
    prop.synchronize();
    const std::string reverse = tally_json(cudasim::take_kernel_tally(), steps, points);
    std::printf(", \"%s\": {\"padded_points\": %.0f, \"forward\": %s, \"reverse\": %s}", c.name, points,
                forward.c_str(), reverse.c_str());
  }
  std::printf("}\n");
  for (const std::string& r : cudasim::take_reports()) std::fprintf(stderr, "cudasim: %s\n", r.c_str());
  return 0;
}
