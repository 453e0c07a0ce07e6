#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/problem_setup.hpp"

#include "revwave/core/checks.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/setup/plausibility.hpp"
#include "revwave/setup/run_phases.hpp"

namespace revwave {

template <class T>
ForwardRun<T> run_forward_job(const ProblemOptions& o, const std::function<void()>& before_inputs,
                              const Progress& progress, RunClock clock) {
  ForwardRun<T> r;
  r.clock = std::move(clock);
  r.backend = resolve_backend(o.backend);
  refuse_cuda_options_on_cpu(o, r.backend.kind);
  r.clock.mark(phase::backend);
  if (before_inputs) before_inputs();
  r.setup = make_setup(o);
  r.time = make_time(o, r.setup);
  apply_threads(o.threads);
  const Acquisition& a = r.setup.acquisition;
  r.warnings = sampling_warnings(r.setup.grid, min_velocity(r.setup.model), SourceSpectrum{a.f0, a.t0, {}}, r.time);
  add_warnings(r.warnings, surface_receiver_warnings(r.setup.grid, a.receivers));
  // m and (u, u_prev) on the CPU; the record, its copy for the file and the file's own precision.
  require_run_memory(r.setup, r.time, sizeof(T), working_fields(r.backend.kind, Workload::forward), 3,
                     "the forward run");
  r.clock.mark(phase::model);
  const Problem<T> problem = make_problem<T>(r.setup.grid, r.setup.model, r.setup.acquisition, r.time);
  r.clock.mark(phase::problem);
  r.shot = run_on_backend(r.backend.kind, problem, device_budgets(o), ForwardCall<T>{progress});
  r.clock.mark_part(phase::time_loop, r.shot.step_seconds, phase::fields);
  check_finite_result(r.shot.traces.data(), r.shot.traces.size(), "the shot record");
  return r;
}

ShotRecordMeta record_meta(const Acquisition& acquisition, const TimeAxis& time, Precision precision) {
  ShotRecordMeta meta;
  meta.dt = time.dt;
  meta.nt = time.nt();
  meta.f0 = acquisition.f0;
  meta.t0 = acquisition.t0;
  meta.sources = acquisition.sources;
  meta.receivers = acquisition.receivers;
  meta.precision = precision == Precision::float32 ? "float32" : "float64";
  return meta;
}

template <class T>
nlohmann::json forward_summary(const ForwardRun<T>& r, Precision precision) {
  const Grid& grid = r.setup.grid;
  nlohmann::json j;
  put_forward_run(j, r.time, grid, r.backend, precision);
  j["sources"] = r.setup.acquisition.sources.size();
  j["receivers"] = r.setup.acquisition.receivers.size();
  j["seconds"] = r.shot.step_seconds;
  j["gpts_per_s"] = double(grid.interior_points()) * double(r.time.steps) / r.shot.step_seconds / 1e9;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["peak_rss_counts"] = peak_rss_counts();
  j["simultaneous_sources"] = r.setup.acquisition.sources.size() > 1;
  j["layouts"] = layouts_json(r.setup.layouts);
  j["warnings"] = r.warnings;
  j["phases"] = phases_json(r.clock);
  j["wall_seconds"] = r.clock.wall();
  return j;
}

template ForwardRun<float> run_forward_job(const ProblemOptions&, const std::function<void()>&, const Progress&,
                                           RunClock);
template ForwardRun<double> run_forward_job(const ProblemOptions&, const std::function<void()>&, const Progress&,
                                            RunClock);
template nlohmann::json forward_summary(const ForwardRun<float>&, Precision);
template nlohmann::json forward_summary(const ForwardRun<double>&, Precision);

}  // namespace revwave
