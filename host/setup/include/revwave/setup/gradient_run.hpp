// One gradient from a job's options, on the backend they choose: the steps and checks of
// `revwave gradient` between its options and its outputs, shared by the command line and the
// Python package so that both compute the same bits and refuse with the same sentences.
#pragma once
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "revwave/core/checks.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/misfit/recording_misfit.hpp"
#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/plausibility.hpp"
#include "revwave/setup/run_phases.hpp"
#include "revwave/setup/wavelet_estimation.hpp"

namespace revwave {

template <class T>
struct GradientRun {
  BackendChoice backend;
  GradientJob<T> job;
  StrategyPlan plan;
  StrategyReport report;
  CudaRunInfo placement;                // the report's placement: where the CUDA backend put the slots
  GradientOutput output;                // objective, statistics, dJ/dm at the interior points
  index_t predicted_forward_steps = 0;  // the CUDA backend may run revolve as two levels
  // With GradientJobOptions::keep_traces: the synthetic traces S u the misfit saw and its adjoint
  // source (nt x nrec, sample-major; the residual S u - d for L2).
  std::vector<T> synthetic, adjoint_source;
  std::vector<std::string> warnings;  // revwave/setup/plausibility.hpp
  RunClock clock;                     // the run's phases (the caller's clock, marked on)
};

// What the job's grid, time axis and wavelet warn of (the slowest of the starting and true models).
template <class T>
std::vector<std::string> job_warnings(const GradientJob<T>& job) {
  double slowest = min_velocity(job.start.model);
  if (job.observed_source == ObservedSource::modelled) slowest = std::min(slowest, min_velocity(job.truth));
  const Acquisition& a = job.start.acquisition;
  std::vector<std::string> said = sampling_warnings(job.start.grid, slowest, SourceSpectrum{a.f0, a.t0, {}}, job.time);
  add_warnings(said, surface_receiver_warnings(job.start.grid, a.receivers));
  if (job.substeps > 1) said.push_back(substeps_sentence(job.time.dt, job.substeps, max_velocity(job.start.model)));
  return said;
}

// The gradient's host fields of the grid's size on `backend` (run_bytes adds a density's five
// coefficient fields): the propagator's working fields and, with --density-gradient, dJ/drho's
// accumulator.
inline int gradient_working_fields(Backend backend, const GradientJobOptions& o) {
  return working_fields(backend, Workload::gradient) + (o.density_gradient ? 1 : 0);
}

// Resolves the backend and threads, calls `before_inputs` (the CLI refuses outputs that would
// overwrite inputs there), prepares and checks the job, plans the strategy, models the observed
// data where none were given, estimates the source signature when asked (then in
// job.start.acquisition.wavelet), and computes; every result is checked finite. `clock` goes on
// marking the caller's phases (a command's starts at the process's start).
template <class T>
GradientRun<T> run_gradient_job(GradientJobOptions& o, const std::function<void()>& before_inputs,
                                const Progress& progress = {}, RunClock clock = {}) {
  GradientRun<T> r;
  r.clock = std::move(clock);
  r.backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, r.backend.kind);
  refuse_shots_at_once_for_one_shot(o.problem, "a single-shot gradient");
  require_density_for_density_gradient(o);
  o.strategy.backend = r.backend.kind;
  apply_threads(o.problem.threads);
  r.clock.mark(phase::backend);
  if (before_inputs) before_inputs();
  require_data_for_user_model(o, false, "a gradient");
  r.job = prepare_gradient_job<T>(o);
  GradientJob<T>& job = r.job;
  const Grid& grid = job.start.grid;
  r.warnings = job_warnings(job);
  // nt x nrec records: the observed data, the synthetic traces read back for the misfit, its
  // adjoint source, and on the CPU the propagator's own traces.
  const int fields = gradient_working_fields(r.backend.kind, o), records = 4;
  const TimeAxis run_time = simulation_time(job);  // the record's axis unless it takes substeps
  require_run_memory(job.start, run_time, sizeof(T), fields, records, "the gradient's working set");
  const std::size_t working = run_bytes(job.start, run_time, sizeof(T), fields, records);
  r.plan = plan_strategy(o.strategy, run_time.steps, physics_state(grid, job.start.model.physics()),
                         field_layout<T>(grid), working);
  r.clock.mark(phase::model);
  // The observed data's time loop hears `progress` too (a front end may cancel the run there); its bar
  // stays the gradient's.
  model_observed(job, r.backend.kind, device_budgets(o.problem),
                 progress ? Progress([&](index_t, index_t) { progress(0, 1); }) : Progress{});
  r.clock.mark(phase::observed);

  Problem<T> problem = make_problem<T>(grid, job.start.model, simulation_acquisition(job), run_time);
  if (o.density_gradient) problem.density->image = true;
  const index_t expected = static_cast<index_t>(job.observed.size());
  if (expected != job.time.nt() * problem.rec.count) {
    throw InputError("observed data have " + std::to_string(job.observed.size()) + " values, expected nt x nrec = " +
                     std::to_string(job.time.nt()) + " x " + std::to_string(problem.rec.count));
  }
  r.clock.mark(phase::problem);
  if (o.estimate_wavelet) {
    job.start.acquisition.wavelet = estimate_record_wavelet<T>(problem, job.observed.data(), r.backend.kind,
                                                               device_budgets(o.problem), job.substeps);
    const std::vector<double> on_steps = interpolate_signature(job.start.acquisition.wavelet, job.substeps);
    problem.wavelet.assign(on_steps.begin(), on_steps.end());
    r.clock.mark(phase::wavelet);
  }
  GradientOutput& g = r.output;
  // The traces kept (keep_traces) are those the misfit compared: at the record's samples.
  RecordingMisfit<T> recorded(o.misfit.get<T>());
  const Misfit<T>& compared = o.keep_traces ? static_cast<const Misfit<T>&>(recorded) : o.misfit.get<T>();
  const ResampledMisfit<T> misfit(compared, job.substeps);
  g = run_on_backend(r.backend.kind, problem, device_budgets(o.problem),
                     GradientCall<T>{&misfit, job.observed.data(), &o.strategy, &r.plan, progress, &r.report});
  r.clock.mark_parts({{phase::forward, g.stats.seconds_forward}, {phase::reverse, g.stats.seconds_reverse}},
                     phase::fields);
  r.synthetic = std::move(recorded.synthetic());
  r.adjoint_source = std::move(recorded.adjoint_source());
  r.placement = r.report.placement;
  // A result that is not finite is never written as a success.
  check_finite_result(job.observed.data(), job.observed.size(), "the observed data (modelled in the true model)");
  check_finite_result(&g.stats.objective, 1, "the objective");
  check_finite_result(g.gradient.data(), g.gradient.size(), "the gradient");
  check_finite_result(g.density_gradient.data(), g.density_gradient.size(), "the density gradient");
  r.predicted_forward_steps = r.report.predicted_forward_steps;
  return r;
}

// The fields of `revwave gradient --json` that describe the run itself (not its files, nor the
// total time): objective, gradient_norm, counts, strategy, bytes, seconds of each phase, backend.
// `observed` is what the JSON names as the observed data.
template <class T>
nlohmann::json gradient_summary(const GradientRun<T>& r, const GradientJobOptions& o, const std::string& observed);

// The JSON's "estimated_wavelet" block: samples, water level, peak and norm of the signature.
nlohmann::json estimated_wavelet_summary(const std::vector<double>& wavelet);

// The JSON's "compression" block: the mode, and what the checkpoint stores did (a survey's summed
// over its shots).
nlohmann::json compression_summary(const Compression& mode, const CompressionStats& c);
// The text report's compression line ("  compression     zfp-rate:8: ...\n"); empty for none.
std::string compression_line(const Compression& mode, const CompressionStats& c);

}  // namespace revwave
