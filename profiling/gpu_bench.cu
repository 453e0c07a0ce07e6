// GPU measurements for profiling/gpu_check.sh: copy bandwidth (the denominator), forward and
// adjoint-with-gradient sweep rates of both sweep kernels at 256^3 and 512^3 (space order 8,
// float), the checkpointed gradient against its forward-step prediction, and the cost of
// spilling slots to pinned host.
// Usage: revwave_gpu_bench OUTDIR   (writes OUTDIR/summary.json and OUTDIR/summary.txt)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cuda_propagator.hpp"
#include "device_problem.hpp"
#include "reductions.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/cuda_info.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/two_level.hpp"
#include "sweep_kernels.hpp"
#include "tier_split.hpp"

namespace {

using namespace revwave;
using json = nlohmann::json;

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

template <class F>
double best_ms(int reps, const Stream& s, F&& f) {
  Event a(true), b(true);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    a.record(s);
    f();
    b.record(s);
    b.synchronize();
    best = std::min(best, static_cast<double>(b.elapsed_ms_since(a)));
  }
  return best;
}

double copy_bandwidth(const Stream& s) {
  const std::size_t bytes = std::size_t(1) << 30, n = bytes / sizeof(float4);
  DeviceBuffer in(bytes), out(bytes);
  int sms = 0;
  REVWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const double ms = best_ms(10, s, [&] {
    copy_kernel<<<sms * 8, 512, 0, s>>>(in.as<float4>(), out.as<float4>(), n);
  });
  return 2.0 * bytes / (ms * 1e-3);
}

Problem<float> cube(index_t padded, index_t steps, int order = 8) {
  Grid g;
  g.nbl = 8;
  g.shape = {padded - 2 * g.nbl, padded - 2 * g.nbl, padded - 2 * g.nbl};
  g.spacing = 10.0;
  g.space_order = order;
  const VelocityModel model = homogeneous_model(g.shape, 2000.0);
  Acquisition acq;
  acq.sources = {{g.extent(0) / 2, g.extent(1) / 2, 20.0}};
  for (int i = 0; i < 64; ++i) acq.receivers.push_back({g.extent(0) * (i + 0.5) / 64, g.extent(1) / 2, 30.0});
  TimeAxis t;
  t.dt = default_dt(g, 2000.0);
  t.steps = steps;
  return make_problem<float>(g, model, acq, t);
}

// Forward and adjoint-with-imaging sweep rates of one kernel on fresh fields, under `prefix`.
json kernel_rates(const std::string& prefix, SweepKernel kernel, const SweepArgs<float>& fwd, const SweepArgs<float>& adj,
                  int radius, double pts, double bandwidth, const Stream& s) {
  const double t_fwd = best_ms(20, s, [&] { launch_sweep(fwd, radius, s, kernel); }) * 1e-3;
  const double t_adj = best_ms(20, s, [&] { launch_sweep(adj, radius, s, kernel); }) * 1e-3;
  // The bandwidth limit's bytes per point: forward 16 (u, u_prev, m in, out), adjoint 28 as before.
  return {{prefix + "forward_seconds_per_step", t_fwd},
          {prefix + "forward_gpts", pts / t_fwd * 1e-9},
          {prefix + "forward_fraction_of_bandwidth", pts * 16 / t_fwd / bandwidth},
          {prefix + "adjoint_seconds_per_step", t_adj},
          {prefix + "adjoint_gpts", pts / t_adj * 1e-9},
          {prefix + "adjoint_fraction_of_bandwidth", pts * 28 / t_adj / bandwidth}};
}

// Both sweep kernels; the unprefixed keys are the default (columns) kernel's.
json sweep_rates(index_t n, double bandwidth, const Stream& s) {
  const Problem<float> p = cube(n, 10);
  DeviceProblem<float> dev(p);
  const std::size_t fb = p.grid.field_bytes<float>();
  DeviceBuffer u(fb), up(fb), fn(fb), fc(fb), fp(fb), grad(fb);
  SweepArgs<float> a = dev.sweep_base();
  a.u = u.as<float>();
  a.u_prev = up.as<float>();
  a.out = up.as<float>();
  SweepArgs<float> b = a;
  b.fwd_next = fn.as<float>();
  b.fwd = fc.as<float>();
  b.fwd_prev = fp.as<float>();
  b.grad = grad.as<float>();
  const int r = static_cast<int>(p.grid.radius());
  const double pts = static_cast<double>(p.grid.padded_points());
  json j = {{"padded", n}};
  j.update(kernel_rates("", SweepKernel::columns, a, b, r, pts, bandwidth, s));
  j.update(kernel_rates("tiled_", SweepKernel::tiled, a, b, r, pts, bandwidth, s));
  const double finite = device_max_abs(grad.as<float>(), fb / sizeof(float), s);
  j["gradient_max_abs_finite"] = finite == finite;
  auto faster = [&](const char* what) {
    return j[std::string("tiled_") + what].get<double>() < j[what].get<double>() ? "tiled" : "columns";
  };
  j["faster_forward"] = faster("forward_seconds_per_step");
  j["faster_adjoint"] = faster("adjoint_seconds_per_step");
  return j;
}

// One gradient on a given schedule and slot placement: seconds, and the compute stream's stalls on pinned copies.
struct Timed {
  double seconds = 0, stall_seconds = 0;
  index_t forward_steps = 0, prefetch_hits = 0;
};

Timed run_schedule(const Problem<float>& p, const std::vector<float>& observed, Schedule& schedule,
                   const TierSplit& split) {
  CudaBudgets b;
  b.host_memory = std::size_t(64) << 30;
  CudaPropagator<float> prop(p, b);
  prop.upload_observed(observed.data(), observed.size());
  LookaheadSchedule lookahead(schedule);
  LookaheadPrefetch hint(lookahead);
  auto store = prop.make_store(split, &hint);
  prop.synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  const GradientOutput g = gradient_checkpointed(prop, observed.data(), lookahead, *store);
  prop.synchronize();
  Timed t;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.stall_seconds = prop.spill_seconds();
  t.forward_steps = g.stats.forward_steps;
  t.prefetch_hits = store->prefetch_hits();
  return t;
}

// Revolve on device slots against its forward-step prediction; then the cost of spilling: one
// two-level schedule (pinned checkpoints 50 steps apart) run with its outer checkpoints in
// device memory and again in pinned host memory.
json checkpointed(const json& rates256) {
  const index_t steps = 600, snaps = 8, spacing = 50, inner = 6;
  const Problem<float> p = cube(256, steps);
  std::vector<float> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count));
  for (std::size_t i = 0; i < observed.size(); ++i) observed[i] = 1e-3f * static_cast<float>((i * 7919) % 201) - 0.1f;
  const std::size_t fb = p.grid.field_bytes<float>();

  RevolveSchedule warm(steps, snaps);
  run_schedule(p, observed, warm, TierSplit{warm.slots(), 0, 0, ""});  // module load, allocations
  RevolveSchedule revolve(steps, snaps);
  const Timed dev = run_schedule(p, observed, revolve, TierSplit{revolve.slots(), 0, 0, ""});
  const double predicted = static_cast<double>(optimal_forward_steps(steps, snaps)) *
                               rates256["forward_seconds_per_step"].get<double>() +
                           static_cast<double>(steps) * rates256["adjoint_seconds_per_step"].get<double>();

  const TwoLevelShape shape{steps, spacing, inner};
  TwoLevelSchedule on_device(shape), spilled(shape);
  const index_t host = shape.outer_slots();
  const Timed all_device = run_schedule(p, observed, on_device, TierSplit{on_device.slots(), 0, 0, ""});
  const Timed pinned =
      run_schedule(p, observed, spilled, TierSplit{spilled.slots() - host, host, 2 * 2 * fb, ""});
  return {{"padded", 256},
          {"steps", steps},
          {"slots", snaps},
          {"predicted_forward_steps", optimal_forward_steps(steps, snaps)},
          {"forward_steps", dev.forward_steps},
          {"predicted_seconds", predicted},
          {"device_only_seconds", dev.seconds},
          {"device_only_over_prediction", dev.seconds / predicted},
          {"two_level_segment", spacing},
          {"two_level_inner_slots", inner},
          {"two_level_forward_steps", two_level_forward_steps(shape)},
          {"spill_host_slots", host},
          {"two_level_device_seconds", all_device.seconds},
          {"spill_seconds", pinned.seconds},
          {"spill_overhead", pinned.seconds / all_device.seconds - 1.0},
          {"spill_compute_stall_seconds", pinned.stall_seconds},
          {"spill_prefetch_hits", pinned.prefetch_hits},
          {"host_action_min_spacing_steps", spacing}};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string out = argc > 1 ? argv[1] : ".";
    const auto devices = cuda_devices();
    if (devices.empty()) {
      std::cerr << "revwave_gpu_bench: " << cuda_unavailable_reason() << "\n";
      return 2;
    }
    Stream s;
    json j;
    j["device"] = devices[0].name;
    const double bw = copy_bandwidth(s);
    j["copy_bandwidth_bytes_per_s"] = bw;
    j["sweeps"] = json::array({sweep_rates(256, bw, s), sweep_rates(512, bw, s)});
    j["checkpointed"] = checkpointed(j["sweeps"][0]);
    std::ofstream(out + "/summary.json") << j.dump(2) << "\n";
    std::ofstream txt(out + "/summary.txt");
    char line[256];
    std::snprintf(line, sizeof line, "device %s, copy bandwidth %.1f GB/s\n", devices[0].name.c_str(), bw * 1e-9);
    txt << line;
    for (const auto& r : j["sweeps"]) {
      for (const std::string k : {"", "tiled_"}) {
        std::snprintf(line, sizeof line,
                      "%4d^3 order 8 float, %-7s: forward %.1f GPts/s (%.0f%% of bandwidth limit), adjoint+gradient "
                      "%.1f GPts/s (%.0f%%)\n",
                      r["padded"].get<int>(), k.empty() ? "columns" : "tiled", r[k + "forward_gpts"].get<double>(),
                      100 * r[k + "forward_fraction_of_bandwidth"].get<double>(), r[k + "adjoint_gpts"].get<double>(),
                      100 * r[k + "adjoint_fraction_of_bandwidth"].get<double>());
        txt << line;
      }
      std::snprintf(line, sizeof line, "%4d^3 faster: forward %s, adjoint %s\n", r["padded"].get<int>(),
                    r["faster_forward"].get<std::string>().c_str(), r["faster_adjoint"].get<std::string>().c_str());
      txt << line;
    }
    const auto& c = j["checkpointed"];
    std::snprintf(line, sizeof line,
                  "revolve 256^3, %d steps, %d slots: %.3f s vs %.3f s predicted (x%.2f); two levels with %d "
                  "checkpoints %d steps apart in pinned host memory: %+.1f%% against the same schedule on the device "
                  "(stalls %.3f s)\n",
                  c["steps"].get<int>(), c["slots"].get<int>(), c["device_only_seconds"].get<double>(),
                  c["predicted_seconds"].get<double>(), c["device_only_over_prediction"].get<double>(),
                  c["spill_host_slots"].get<int>(), c["host_action_min_spacing_steps"].get<int>(),
                  100 * c["spill_overhead"].get<double>(), c["spill_compute_stall_seconds"].get<double>());
    txt << line;
    std::cout << j.dump(2) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "revwave_gpu_bench: " << e.what() << "\n";
    return 1;
  }
}
