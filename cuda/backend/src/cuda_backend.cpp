// The CUDA backend's entry points (revwave/driver/cuda_backend.hpp): forward modelling, the gradient
// with any strategy, and the dot-product test, each on one CudaPropagator.
#include "revwave/driver/cuda_backend.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"

namespace revwave {
namespace {

// Every sample of every step into one device array, copied back once.
template <class T>
ShotData<T> forward_traces(CudaPropagator<T>& prop, const Progress& progress) {
  const auto& p = prop.problem();
  ShotData<T> shot;
  shot.nt = p.time.nt();
  shot.nrec = p.rec.count;
  shot.traces.assign(static_cast<std::size_t>(shot.nt * shot.nrec), T(0));
  DeviceBuffer traces(std::max<std::size_t>(shot.traces.size(), 1) * sizeof(T), "the shot record");
  T* d = traces.as<T>();
  const auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  prop.sample_device(d);
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.sample_device(d + (n + 1) * shot.nrec);
    if (progress) progress(n + 1, p.time.steps);
  }
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(shot.traces.data(), d, shot.traces.size() * sizeof(T), cudaMemcpyDeviceToHost,
                                     prop.streams().compute));
  prop.streams().compute.synchronize();
  shot.step_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return shot;
}

}  // namespace

template <class T>
ShotData<T> cuda_forward(const Problem<T>& problem, const CudaBudgets& budgets, const Progress& progress) {
  CudaPropagator<T> prop(problem, budgets);
  return forward_traces(prop, progress);
}

template <class T>
GradientOutput cuda_gradient(const Problem<T>& problem, const T* observed, const StrategyOptions& options,
                             const StrategyPlan& plan, const CudaBudgets& budgets, CudaRunInfo* info,
                             const Progress& progress) {
  CudaPropagator<T> prop(problem, budgets);
  prop.set_compression(plan.compression);
  prop.upload_observed(observed, static_cast<std::size_t>(problem.time.nt() * problem.rec.count));
  GradientOutput out;
  CudaRunInfo run;
  const auto record = [&run](const DeviceStorePlan& where) {
    run.device_slots = where.slots_on(TierKind::memory);
    run.host_slots = where.slots_on(TierKind::pinned);
    run.tier_choice = where.choice;
  };
  if (plan.strategy == Strategy::full) {
    out = gradient_full(prop, observed, progress);
    run.predicted_forward_steps = problem.time.steps;
    run.history_tier = prop.history_tier();
    run.tier_choice = "the history of " + std::to_string(problem.time.steps) + " wavefields (" +
                      format_bytes(double(out.stats.wavefield_storage_bytes)) + ") in " +
                      (run.history_tier == "device" ? "device memory" : "pinned host memory") + " (device budget " +
                      format_bytes(double(prop.device_budget())) + ")";
  } else if (plan.strategy == Strategy::online) {  // the schedule is not known ahead: no prefetch
    const DeviceStorePlan where = prop.store_plan(options, plan);
    auto store = prop.make_store(where, nullptr);
    OnlineSchedule schedule(plan.snaps);
    out = gradient_online(prop, observed, schedule, *store, online_stop_rule(prop, options.stop_energy), progress);
    record(where);
  } else if (plan.strategy == Strategy::multilevel || options.store == StoreKind::disk) {
    // Tiers placed by the plan: multilevel's (device, pinned, disk), or revolve's slots all on disk.
    const DeviceStorePlan where = prop.store_plan(options, plan);
    std::unique_ptr<Schedule> schedule;
    if (plan.strategy == Strategy::multilevel) {
      run.report.tiers = plan.tiers;
      if (plan.measure_costs) {  // on a store of its own: the run's store looks ahead into a schedule built from these costs
        auto probe = prop.make_store(where, nullptr);
        measure_tier_costs(prop, *probe, run.report.tiers);
      }
      auto multilevel = std::make_unique<MultilevelSchedule>(plan.steps, run.report.tiers);
      run.report.predicted_time = multilevel->planned_time();
      schedule = std::move(multilevel);
    } else {
      schedule = make_schedule(plan);
    }
    LookaheadSchedule lookahead(*schedule);
    LookaheadPrefetch hint(lookahead);
    auto store = prop.make_store(where, &hint);
    out = gradient_checkpointed(prop, observed, lookahead, *store, plan.predicted_forward_steps, progress);
    run.predicted_forward_steps = plan.predicted_forward_steps;
    record(where);
  } else {
    const DeviceCheckpointPlan cp =
        plan_device_checkpoints(problem.time.steps, plan.snaps, prop.slot_bytes(), prop.device_budget(),
                                prop.host_budget(), budgets.min_host_spacing, prop.host_slot_cost());
    LookaheadSchedule lookahead(*cp.schedule);
    LookaheadPrefetch hint(lookahead);
    const DeviceStorePlan where = prop.store_plan(cp.split);
    auto store = prop.make_store(where, &hint);
    out = gradient_checkpointed(prop, observed, lookahead, *store, cp.predicted_forward_steps, progress);
    run.predicted_forward_steps = cp.predicted_forward_steps;
    record(where);
  }
  prop.synchronize();
  run.seconds_spill = prop.spill_seconds();
  if (info != nullptr) *info = run;
  return out;
}

template <class T>
DotProductResult cuda_dot_product_test(const Grid& grid, const VelocityModel& model, const Acquisition& acq,
                                       const TimeAxis& time, unsigned seed, const CudaBudgets& budgets) {
  // The same random draws, in the same order, as the CPU dot_product_test.
  Problem<T> p = make_problem<T>(grid, model, acq, time);
  const index_t N = time.steps, nrec = p.rec.count, nsrc = p.src.count;
  const std::vector<T> d = randomize_dot_test(p, seed);

  CudaPropagator<T> prop(p, budgets);
  const ShotData<T> fw = forward_traces(prop, {});
  DotProductResult r;
  for (std::size_t i = 0; i < d.size(); ++i) r.forward_product += double(fw.traces[i]) * double(d[i]);

  DeviceBuffer d_dev(std::max<std::size_t>(d.size(), 1) * sizeof(T), "the test data");
  d_dev.upload(d.data(), d.size() * sizeof(T));
  std::vector<T> src(static_cast<std::size_t>(N * nsrc));
  DeviceBuffer src_dev(std::max<std::size_t>(src.size(), 1) * sizeof(T), "the adjoint source samples");
  prop.reset_adjoint();
  for (index_t j = N; j >= 1; --j) prop.adjoint_data_step(d_dev.as<T>() + j * nrec, src_dev.as<T>() + (j - 1) * nsrc);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(src.data(), src_dev.data(), src.size() * sizeof(T), cudaMemcpyDeviceToHost,
                                     prop.streams().compute));
  prop.streams().compute.synchronize();
  for (index_t j = N; j >= 1; --j) {
    double w_adj = 0;
    for (index_t s = 0; s < nsrc; ++s) w_adj += double(src[static_cast<std::size_t>((j - 1) * nsrc + s)]);
    r.adjoint_product += double(p.wavelet[j - 1]) * w_adj;
  }
  r.relative_error = std::abs(r.forward_product - r.adjoint_product) /
                     std::max(std::abs(r.forward_product), std::abs(r.adjoint_product));
  return r;
}

#define REVWAVE_INSTANTIATE(T)                                                                                      \
  template ShotData<T> cuda_forward<T>(const Problem<T>&, const CudaBudgets&, const Progress&);                     \
  template GradientOutput cuda_gradient<T>(const Problem<T>&, const T*, const StrategyOptions&, const StrategyPlan&, \
                                           const CudaBudgets&, CudaRunInfo*, const Progress&);                      \
  template DotProductResult cuda_dot_product_test<T>(const Grid&, const VelocityModel&, const Acquisition&,         \
                                                     const TimeAxis&, unsigned, const CudaBudgets&);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
