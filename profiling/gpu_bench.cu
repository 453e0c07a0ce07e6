// GPU measurements for profiling/gpu_check.sh: copy bandwidth (the denominator), forward and
// fused reverse sweep rates of every sweep kernel (columns, shuffle, tiled, vector: --sweep-variant picks
// some) at 256^3 and 512^3 (space order 8, float), and the fused codec's steps (a forward sweep
// that writes the state's fp16 encoding in passing, the first step after a restore), on
// random fields, with the L2 cache flushed between repetitions, each as a fraction of the copy
// bandwidth at the bytes it must move (forward 16 B/pt: u, u_prev, m read, out written; fused
// reverse 32 B/pt: u, u_prev, m, lam, lam_prev, grad read, lam and grad written); the whole
// checkpointed gradient against its prediction (forward steps x forward step + reverse steps x
// reverse step, each step timed as the gradient runs it, sparse kernels included); and the cost
// of spilling slots to pinned host.
// Usage: revwave_gpu_bench [--sweep-variant NAME[,NAME...]] OUTDIR   (writes OUTDIR/summary.json
//        and OUTDIR/summary.txt; variants: columns, shuffle, tiled, vector; default all)
//        revwave_gpu_bench [--sweep-variant ...] --sweeps-only N   (one size's sweep rates as JSON
//        on stdout, nothing else: for a profiler, e.g. ncu's DRAM byte counts of the sweep kernels)
//        revwave_gpu_bench --revolve-scan   (Revolve gradients of several sizes against their
//        predictions, one JSON line each)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/core/cuda_info.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_restore.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/cuda/runtime/stream_event.hpp"
#include "revwave/cuda/store/device_codec.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/tier_split.hpp"
#include "revwave/schedule/two_level.hpp"

namespace {

using namespace revwave;
using json = nlohmann::json;

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// Overwrites a buffer far larger than the L2 cache (50-60 MB on H100/H200), so that the next
// kernel reads its fields from DRAM as it would inside a run of many steps.
__global__ void flush_kernel(float4* __restrict__ buf, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    buf[i] = make_float4(float(i), 0.f, 0.f, 0.f);
}

// Random values in [-1, 1) from a hash of the index: no field is zero (a zero field can take
// shortcuts a real one cannot: compressed caches, subnormal-free arithmetic).
__global__ void random_kernel(float* __restrict__ f, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 16;
    h *= 2246822519u;
    h ^= h >> 13;
    f[i] = static_cast<float>(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
}

int sm_count() {
  int sms = 0;
  REVWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

void randomize(DeviceBuffer& b, unsigned seed, const Stream& s) {
  random_kernel<<<sm_count() * 8, 256, 0, s>>>(b.as<float>(), b.bytes() / sizeof(float), seed);
  REVWAVE_CUDA_CHECK(cudaGetLastError());
}

// Best of `reps` timings of f(), the L2 flushed before each (not timed).
template <class F>
double best_ms(int reps, const Stream& s, F&& f) {
  static DeviceBuffer flush(std::size_t(256) << 20, "the L2 flush buffer");
  Event a(true), b(true);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    flush_kernel<<<sm_count() * 8, 512, 0, s>>>(flush.as<float4>(), flush.bytes() / sizeof(float4));
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
  randomize(in, 1, s);
  const double ms =
      best_ms(10, s, [&] { copy_kernel<<<sm_count() * 8, 512, 0, s>>>(in.as<float4>(), out.as<float4>(), n); });
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

constexpr double forward_bytes_per_point = 16;  // u, u_prev, m read; out written
constexpr double reverse_bytes_per_point = 32;  // u, u_prev, m, lam, lam_prev, grad read; lam, grad written

// Forward and fused reverse sweep rates of one kernel on random fields, under `prefix`.
json kernel_rates(const std::string& prefix, SweepKernel kernel, const SweepArgs<float>& fwd,
                  const SweepArgs<float>& rev, int radius, double pts, double bandwidth, const Stream& s) {
  const double t_fwd = best_ms(20, s, [&] { launch_sweep(fwd, radius, s, kernel); }) * 1e-3;
  const double t_rev = best_ms(20, s, [&] { launch_sweep(rev, radius, s, kernel); }) * 1e-3;
  return {{prefix + "forward_seconds_per_step", t_fwd},
          {prefix + "forward_gpts", pts / t_fwd * 1e-9},
          {prefix + "forward_fraction_of_bandwidth", pts * forward_bytes_per_point / t_fwd / bandwidth},
          {prefix + "reverse_seconds_per_step", t_rev},
          {prefix + "reverse_gpts", pts / t_rev * 1e-9},
          {prefix + "reverse_fraction_of_bandwidth", pts * reverse_bytes_per_point / t_rev / bandwidth},
          {prefix + "reverse_over_forward", t_rev / t_fwd}};
}

// The sweep kernels measured (--sweep-variant); the unprefixed keys are the columns kernel's.
std::vector<SweepKernel> variants(sweep_kernels, sweep_kernels + std::size(sweep_kernels));

std::string prefix_of(SweepKernel k) { return k == SweepKernel::columns ? "" : std::string(to_string(k)) + "_"; }

std::vector<SweepKernel> parse_variants(const std::string& list) {
  std::vector<SweepKernel> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, end - at);
    bool known = false;
    for (SweepKernel k : sweep_kernels)
      if (name == to_string(k)) {
        out.push_back(k);
        known = true;
      }
    if (!known) throw std::invalid_argument("--sweep-variant " + name + ": not one of columns, shuffle, tiled, vector");
    at = end + 1;
  }
  return out;
}

// The fused codec's two steps against a plain forward step (columns kernel, fp16): the forward
// sweep that also writes the state's encoding, and the first step after a restore, which reads the
// encoded state; the fp16 peaks a store measures and the cast kernels' encode and decode of a
// state, for comparison (what each store and restore cost without the fusion).
json codec_rates(const Problem<float>& p, const DeviceProblem<float>& dev, const SweepArgs<float>& fwd, double pts,
                 double bandwidth, const Stream& s) {
  CastCodec<float> codec(parse_compression("fp16"), p.grid);
  DeviceBuffer slot(codec.slot_bytes()), decoded(p.grid.field_bytes<float>()), out(p.grid.field_bytes<float>());
  auto* code = slot.as<unsigned char>();
  const int r = static_cast<int>(p.grid.radius());
  codec.measure_peak(fwd.u, 2, s);
  codec.measure_peak(fwd.u_prev, 3, s);
  SweepArgs<float> enc = fwd;
  enc.encode = SweepEncode{code, code + codec.stride(), codec.peak(2), codec.peak(3), false};
  RestoreStep<float> rs;
  rs.sweep = dev.sweep_base();
  rs.sweep.out = out.as<float>();
  rs.u_code = code;
  rs.u_prev_code = code + codec.stride();
  rs.u_decoded = decoded.as<float>();
  const double t_plain = best_ms(20, s, [&] { launch_sweep(fwd, r, s, SweepKernel::columns); }) * 1e-3;
  const double t_enc = best_ms(20, s, [&] { launch_sweep(enc, r, s, SweepKernel::columns); }) * 1e-3;
  const double t_restore = best_ms(20, s, [&] { launch_restore_step(rs, r, s); }) * 1e-3;
  const double t_peaks = best_ms(10, s,
                                 [&] {
                                   codec.measure_peak(fwd.u, 2, s);
                                   codec.measure_peak(fwd.u_prev, 3, s);
                                 }) *
                         1e-3;
  const double t_cast_encode = best_ms(10, s,
                                       [&] {
                                         codec.encode(fwd.u, code, s);
                                         codec.encode(fwd.u_prev, code + codec.stride(), s);
                                       }) *
                               1e-3;
  const double t_cast_decode = best_ms(10, s,
                                       [&] {
                                         codec.decode(code, decoded.data(), s);
                                         codec.decode(code + codec.stride(), out.data(), s);
                                       }) *
                               1e-3;
  return {
      {"fp16_forward_seconds_per_step", t_plain},
      {"fp16_encoding_forward_seconds_per_step", t_enc},
      {"fp16_encoding_forward_fraction_of_bandwidth", pts * (forward_bytes_per_point + 4) / t_enc / bandwidth},
      {"fp16_restore_step_seconds", t_restore},
      {"fp16_peaks_seconds", t_peaks},
      {"fp16_cast_encode_state_seconds", t_cast_encode},
      {"fp16_cast_decode_state_seconds", t_cast_decode},
      // What a store and a restore cost, in forward steps, fused (codec_costs' model: 0.75 and 0) and not (1.25, 0.75).
      {"fp16_fused_store_steps", (t_enc - t_plain + t_peaks) / t_plain},
      {"fp16_fused_restore_steps", (t_restore - t_plain) / t_plain},
      {"fp16_cast_store_steps", t_cast_encode / t_plain},
      {"fp16_cast_restore_steps", t_cast_decode / t_plain}};
}

// Every variant asked for; the unprefixed keys are the columns kernel's (when measured).
json sweep_rates(index_t n, double bandwidth, const Stream& s) {
  const Problem<float> p = cube(n, 10);
  DeviceProblem<float> dev(p);
  const std::size_t fb = p.grid.field_bytes<float>();
  DeviceBuffer u(fb), up(fb), lam(fb), lp(fb), out(fb), grad(fb);
  unsigned seed = 10;
  for (DeviceBuffer* b : {&u, &up, &lam, &lp, &out, &grad}) randomize(*b, seed++, s);
  SweepArgs<float> a = dev.sweep_base();
  a.u = u.as<float>();
  a.u_prev = up.as<float>();
  a.out = up.as<float>();  // in place, as a forward step writes
  SweepArgs<float> b = dev.sweep_base();
  b.u = u.as<float>();
  b.u_prev = up.as<float>();
  b.lam = lam.as<float>();
  b.lam_prev = lp.as<float>();
  b.out = lp.as<float>();  // in place, as a reverse step writes
  b.grad = grad.as<float>();
  const int r = static_cast<int>(p.grid.radius());
  const double pts = static_cast<double>(p.grid.padded_points());
  json j = {{"padded", n},
            {"points", pts},
            {"forward_bytes_per_point", forward_bytes_per_point},
            {"reverse_bytes_per_point", reverse_bytes_per_point}};
  for (SweepKernel k : variants) j.update(kernel_rates(prefix_of(k), k, a, b, r, pts, bandwidth, s));
  SweepArgs<float> c = a;
  c.out = out.as<float>();  // the codec's steps write elsewhere: u_prev stays the state's
  j["codec"] = codec_rates(p, dev, c, pts, bandwidth, s);
  DeviceReducer<float> reducer(fb / sizeof(float));
  DeviceBuffer result(sizeof(double));
  reducer.max_abs(grad.as<float>(), fb / sizeof(float), result.as<double>(), s);
  double finite = 0;
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(&finite, result.data(), sizeof(double), cudaMemcpyDeviceToHost, s));
  s.synchronize();
  j["gradient_max_abs_finite"] = finite == finite;
  auto fastest = [&](const char* what) {
    SweepKernel best = variants.front();
    for (SweepKernel k : variants)
      if (j[prefix_of(k) + what].get<double>() < j[prefix_of(best) + what].get<double>()) best = k;
    return to_string(best);
  };
  j["faster_forward"] = fastest("forward_seconds_per_step");
  j["faster_reverse"] = fastest("reverse_seconds_per_step");
  return j;
}

// One gradient on a given schedule and slot placement: seconds, and the compute stream's stalls on pinned copies.
// `seconds` is the whole call; `loop_seconds` its time loop (the schedule's steps, stores and
// restores, the traces' read-back for the misfit and its adjoint source's copy), without the gradient's fold and download to the host, a
// one-off cost in proportion to the grid that no step count predicts.
struct Timed {
  double seconds = 0, loop_seconds = 0, stall_seconds = 0;
  index_t forward_steps = 0, prefetch_hits = 0;
};

Timed run_schedule(const Problem<float>& p, const std::vector<float>& observed, Schedule& schedule,
                   const TierSplit& split) {
  DeviceBudgets b;
  b.host_memory = std::size_t(64) << 30;
  CudaPropagator<float> prop(p, b);
  LookaheadSchedule lookahead(schedule);
  LookaheadPrefetch hint(lookahead);
  auto store = prop.make_store(split, &hint);
  prop.synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  const GradientOutput g = gradient_checkpointed(prop, observed.data(), lookahead, *store);
  prop.synchronize();
  Timed t;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.loop_seconds = g.stats.seconds_forward + g.stats.seconds_reverse;
  t.stall_seconds = prop.spill_seconds();
  t.forward_steps = g.stats.forward_steps;
  t.prefetch_hits = store->prefetch_hits();
  return t;
}

// Seconds per forward step and per fused reverse step as the gradient runs them (sweep and sparse
// kernels, back to back on the compute stream), from `count` of each.
std::pair<double, double> step_seconds(const Problem<float>& p, const std::vector<float>& observed, index_t count) {
  CudaPropagator<float> prop(p);
  prop.set_adjoint_source(observed);
  prop.reset_forward();
  for (index_t n = 0; n < 5; ++n) prop.forward_step(n);  // warm-up
  Event a(true), b(true), c(true);
  a.record(prop.streams().compute);
  for (index_t n = 5; n < 5 + count; ++n) prop.forward_step(n);
  b.record(prop.streams().compute);
  prop.reset_adjoint();
  c.record(prop.streams().compute);
  for (index_t n = p.time.steps - 1; n >= p.time.steps - count; --n) prop.reverse_step(n);
  Event d(true);
  d.record(prop.streams().compute);
  d.synchronize();
  return {b.elapsed_ms_since(a) * 1e-3 / double(count), d.elapsed_ms_since(c) * 1e-3 / double(count)};
}

// Observed data for the synthetic problems: any finite, non-zero traces do (their values only set the residual).
std::vector<float> synthetic_observed(const Problem<float>& p) {
  std::vector<float> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count));
  for (std::size_t i = 0; i < observed.size(); ++i) observed[i] = 1e-3f * static_cast<float>((i * 7919) % 201) - 0.1f;
  return observed;
}

// One Revolve gradient on device slots against its prediction: advances x forward step + N x
// reverse step, the steps timed as the gradient runs them (a warm-up run first: module load,
// allocations).
struct AgainstPrediction {
  double t_fwd = 0, t_rev = 0, predicted = 0;
  Timed run;
};

AgainstPrediction revolve_timed(const Problem<float>& p, const std::vector<float>& observed, index_t snaps) {
  const index_t steps = p.time.steps;
  RevolveSchedule warm(steps, snaps);
  run_schedule(p, observed, warm, TierSplit{warm.slots(), 0, 0, ""});
  AgainstPrediction r;
  std::tie(r.t_fwd, r.t_rev) = step_seconds(p, observed, std::min<index_t>(100, steps / 2));
  RevolveSchedule revolve(steps, snaps);
  r.run = run_schedule(p, observed, revolve, TierSplit{revolve.slots(), 0, 0, ""});
  // forward_steps counts the reverse steps too (each recomputes u[n+1]); the advances are the rest.
  const double advances = static_cast<double>(optimal_forward_steps(steps, snaps) - steps);
  r.predicted = advances * r.t_fwd + static_cast<double>(steps) * r.t_rev;
  return r;
}

// revolve_timed at any size: `--revolve-scan` runs several, to tell a per-step cost the prediction
// misses from a per-action one.
json revolve_against_prediction(index_t padded, index_t steps, index_t snaps) {
  const Problem<float> p = cube(padded, steps);
  const AgainstPrediction r = revolve_timed(p, synthetic_observed(p), snaps);
  const Timed& dev = r.run;
  return {{"padded", padded},
          {"steps", steps},
          {"slots", snaps},
          {"forward_steps", dev.forward_steps},
          {"forward_step_seconds", r.t_fwd},
          {"reverse_step_seconds", r.t_rev},
          {"predicted_seconds", r.predicted},
          {"seconds", dev.seconds},
          {"over_prediction", dev.seconds / r.predicted},
          {"time_loop_seconds", dev.loop_seconds},
          {"time_loop_over_prediction", dev.loop_seconds / r.predicted},
          {"gradient_download_seconds", dev.seconds - dev.loop_seconds}};
}

// Revolve on device slots against its prediction; then the cost of spilling: one two-level
// schedule (pinned checkpoints 50 steps apart) run with its outer checkpoints in device memory
// and again in pinned host memory.
json checkpointed() {
  const index_t steps = 600, snaps = 8, spacing = 50, inner = 6;
  const Problem<float> p = cube(256, steps);
  const std::vector<float> observed = synthetic_observed(p);
  const std::size_t fb = p.grid.field_bytes<float>();
  const AgainstPrediction r = revolve_timed(p, observed, snaps);
  const Timed& dev = r.run;
  const double t_fwd = r.t_fwd, t_rev = r.t_rev, predicted = r.predicted;

  const TwoLevelShape shape{steps, spacing, inner};
  TwoLevelSchedule on_device(shape), spilled(shape);
  const index_t host = shape.outer_slots();
  const Timed all_device = run_schedule(p, observed, on_device, TierSplit{on_device.slots(), 0, 0, ""});
  const Timed pinned = run_schedule(p, observed, spilled, TierSplit{spilled.slots() - host, host, 2 * 2 * fb, ""});
  return {{"padded", 256},
          {"steps", steps},
          {"slots", snaps},
          {"predicted_forward_steps", optimal_forward_steps(steps, snaps)},
          {"forward_steps", dev.forward_steps},
          {"forward_step_seconds", t_fwd},
          {"reverse_step_seconds", t_rev},
          {"reverse_over_forward", t_rev / t_fwd},
          {"predicted_seconds", predicted},
          {"device_only_seconds", dev.seconds},
          {"device_only_over_prediction", dev.seconds / predicted},
          {"time_loop_seconds", dev.loop_seconds},
          {"time_loop_over_prediction", dev.loop_seconds / predicted},
          {"gradient_download_seconds", dev.seconds - dev.loop_seconds},
          {"two_level_segment", spacing},
          {"two_level_inner_slots", inner},
          {"two_level_forward_steps", two_level_forward_steps(shape)},
          {"spill_host_slots", host},
          // The spill comparison is of time loops (the gradient's download is the same in both).
          {"two_level_device_seconds", all_device.loop_seconds},
          {"spill_seconds", pinned.loop_seconds},
          {"spill_overhead", pinned.loop_seconds / all_device.loop_seconds - 1.0},
          {"spill_compute_stall_seconds", pinned.stall_seconds},
          {"spill_prefetch_hits", pinned.prefetch_hits},
          {"host_action_min_spacing_steps", spacing}};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc > 2 && std::string(argv[1]) == "--sweep-variant") {
      variants = parse_variants(argv[2]);
      argv += 2;
      argc -= 2;
    }
    const std::string out = argc > 1 ? argv[1] : ".";
    const auto devices = cuda_devices();
    if (devices.empty()) {
      std::cerr << "revwave_gpu_bench: " << cuda_unavailable_reason() << "\n";
      return 2;
    }
    Stream s;
    if (out == "--revolve-scan") {
      // 256^3 x 600 x 8 first and last: how far a repeat of the same run moves.
      for (const auto& [padded, steps, snaps] : {std::tuple<index_t, index_t, index_t>{256, 600, 8},
                                                 {256, 600, 30},
                                                 {256, 200, 200},
                                                 {384, 300, 8},
                                                 {512, 150, 8},
                                                 {256, 600, 8}})
        std::cout << revolve_against_prediction(padded, steps, snaps).dump() << std::endl;
      return 0;
    }
    if (out == "--sweeps-only") {
      const index_t n = argc > 2 ? std::stoll(argv[2]) : 0;
      if (n < 32) throw std::invalid_argument("--sweeps-only needs a padded cube edge of at least 32");
      std::cout << sweep_rates(n, copy_bandwidth(s), s).dump(2) << "\n";
      return 0;
    }
    json j;
    j["device"] = devices[0].name;
    const double bw = copy_bandwidth(s);
    j["copy_bandwidth_bytes_per_s"] = bw;
    j["sweeps"] = json::array({sweep_rates(256, bw, s), sweep_rates(512, bw, s)});
    j["checkpointed"] = checkpointed();
    std::ofstream(out + "/summary.json") << j.dump(2) << "\n";
    std::ofstream txt(out + "/summary.txt");
    char line[512];
    std::snprintf(line, sizeof line, "device %s, copy bandwidth %.1f GB/s\n", devices[0].name.c_str(), bw * 1e-9);
    txt << line;
    for (const auto& r : j["sweeps"]) {
      for (SweepKernel v : variants) {
        const std::string k = prefix_of(v);
        std::snprintf(line, sizeof line,
                      "%4d^3 order 8 float, %-7s: forward %.1f GPts/s (%.0f%% of copy bandwidth at 16 B/pt), fused "
                      "reverse %.1f GPts/s (%.0f%% at 32 B/pt)\n",
                      r["padded"].get<int>(), to_string(v), r[k + "forward_gpts"].get<double>(),
                      100 * r[k + "forward_fraction_of_bandwidth"].get<double>(), r[k + "reverse_gpts"].get<double>(),
                      100 * r[k + "reverse_fraction_of_bandwidth"].get<double>());
        txt << line;
      }
      const auto& c = r["codec"];
      std::snprintf(line, sizeof line,
                    "%4d^3 fp16 codec: a store costs %.2f forward steps fused (%.2f with the cast kernels), a restore "
                    "%.2f (%.2f)\n",
                    r["padded"].get<int>(), c["fp16_fused_store_steps"].get<double>(),
                    c["fp16_cast_store_steps"].get<double>(), c["fp16_fused_restore_steps"].get<double>(),
                    c["fp16_cast_restore_steps"].get<double>());
      txt << line;
      std::snprintf(line, sizeof line, "%4d^3 faster: forward %s, reverse %s\n", r["padded"].get<int>(),
                    r["faster_forward"].get<std::string>().c_str(), r["faster_reverse"].get<std::string>().c_str());
      txt << line;
    }
    const auto& c = j["checkpointed"];
    std::snprintf(line, sizeof line,
                  "revolve 256^3, %d steps, %d slots: time loop %.3f s vs %.3f s predicted (x%.3f), whole call %.3f s "
                  "(x%.2f: the gradient's fold and download %.3f s); two levels with %d "
                  "checkpoints %d steps apart in pinned host memory: %+.1f%% against the same schedule on the device "
                  "(stalls %.3f s)\n",
                  c["steps"].get<int>(), c["slots"].get<int>(), c["time_loop_seconds"].get<double>(),
                  c["predicted_seconds"].get<double>(), c["time_loop_over_prediction"].get<double>(),
                  c["device_only_seconds"].get<double>(), c["device_only_over_prediction"].get<double>(),
                  c["gradient_download_seconds"].get<double>(), c["spill_host_slots"].get<int>(),
                  c["host_action_min_spacing_steps"].get<int>(), 100 * c["spill_overhead"].get<double>(),
                  c["spill_compute_stall_seconds"].get<double>());
    txt << line;
    std::cout << j.dump(2) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "revwave_gpu_bench: " << e.what() << "\n";
    return 1;
  }
}
