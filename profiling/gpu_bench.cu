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
#include "revwave/cuda_backend.hpp"
#include "revwave/cuda_info.hpp"
#include "revwave/revolve.hpp"
#include "sweep_kernels.hpp"

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

// Fewest forward steps executed between two consecutive actions on pinned-host slots.
index_t host_action_spacing(index_t steps, index_t snaps, index_t host_slots) {
  RevolveSchedule s(steps, snaps);
  index_t position = 0, executed = 0, last = -1, gap = -1;
  for (Action a = s.next(); a.kind != ActionKind::end; a = s.next()) {
    if (a.kind == ActionKind::advance) executed += a.step - position, position = a.step;
    if (a.kind == ActionKind::restore) position = a.step;
    if (a.kind == ActionKind::first_reverse || a.kind == ActionKind::reverse) ++executed;
    if ((a.kind == ActionKind::store || a.kind == ActionKind::restore) && a.slot >= 0 && a.slot < host_slots) {
      if (last >= 0) gap = gap < 0 ? executed - last : std::min(gap, executed - last);
      last = executed;
    }
  }
  return gap;
}

json checkpointed(const json& rates256) {
  const index_t steps = 600, snaps = 8;
  const Problem<float> p = cube(256, steps);
  const std::vector<float> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count), 0.0f);
  StrategyOptions o;
  o.strategy = "revolve";
  o.snaps = snaps;
  const std::size_t fb = p.grid.field_bytes<float>();
  const StrategyPlan plan = plan_strategy(o, steps, fb);
  auto timed = [&](const CudaBudgets& b, CudaRunInfo& info) {
    const auto t0 = std::chrono::steady_clock::now();
    cuda_gradient(p, observed.data(), o, plan, b, &info);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  CudaRunInfo dev_info, spill_info;
  timed(CudaBudgets{}, dev_info);  // warm-up (allocations, module load)
  const double t_dev = timed(CudaBudgets{}, dev_info);
  CudaBudgets spill;
  spill.device_memory = (2 + 4) * 2 * fb;  // staging + 4 device slots: the 4 lowest slots spill
  spill.host_memory = std::size_t(16) << 30;
  const double t_spill = timed(spill, spill_info);
  const double predicted = plan.predicted_forward_steps * rates256["forward_seconds_per_step"].get<double>() +
                           steps * rates256["adjoint_seconds_per_step"].get<double>();
  return {{"padded", 256},
          {"steps", steps},
          {"slots", snaps},
          {"predicted_forward_steps", plan.predicted_forward_steps},
          {"predicted_seconds", predicted},
          {"device_only_seconds", t_dev},
          {"device_only_over_prediction", t_dev / predicted},
          {"spill_device_slots", spill_info.device_slots},
          {"spill_host_slots", spill_info.host_slots},
          {"spill_seconds", t_spill},
          {"spill_overhead", (t_spill - t_dev) / t_dev},
          {"spill_compute_stall_seconds", spill_info.seconds_spill},
          {"host_action_min_spacing_steps", host_action_spacing(steps, snaps, spill_info.host_slots)}};
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
                  "revolve 256^3, %d steps, %d slots: %.3f s vs %.3f s predicted (x%.2f); spilling %d slots to pinned "
                  "host: %+.1f%% (host actions >= %d steps apart)\n",
                  c["steps"].get<int>(), c["slots"].get<int>(), c["device_only_seconds"].get<double>(),
                  c["predicted_seconds"].get<double>(), c["device_only_over_prediction"].get<double>(),
                  c["spill_host_slots"].get<int>(), 100 * c["spill_overhead"].get<double>(),
                  c["host_action_min_spacing_steps"].get<int>());
    txt << line;
    std::cout << j.dump(2) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "revwave_gpu_bench: " << e.what() << "\n";
    return 1;
  }
}
