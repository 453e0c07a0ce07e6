// The inputs of a gradient: starting model, geometry, time axis and observed data, either read
// (--observed with its sidecar, or a record in memory) or modelled in a true model (--true-model,
// or the built-in one). Shared by the command line and the Python package.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/misfit/misfit_choice.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// Why dead observed data are refused under --misfit correlation (one record, or every shot of a
// survey; a dead shot among others adds nothing, as a dead trace does).
inline constexpr const char* dead_data_sentence =
    "every observed sample is zero, and --misfit correlation normalises by the data's energy: J and its gradient "
    "would be 0 (give data with energy, or --misfit l2)";

struct GradientJobOptions {
  ProblemOptions problem;
  std::vector<std::string> observed;  // one record, or a survey: SEG-Y files, directories, records
  std::string true_model;
  StrategyOptions strategy;
  bool f0_given = false;  // --f0 was given (a record's sidecar carries its own)
  // A record given in memory (the bindings' ShotRecord) instead of --observed; `observed_name`
  // names it in messages.
  std::shared_ptr<const ShotRecord> observed_record;
  std::string observed_name = "observed";
  // A true model given in memory (the bindings') instead of --true-model.
  std::shared_ptr<const VelocityModel> true_model_values;
  // dJ/drho as well (--density-gradient): needs a density (the problem's --density).
  bool density_gradient = false;
  MisfitChoice misfit;            // --misfit (l2 by default), or the bindings' callable
  bool estimate_wavelet = false;  // --estimate-wavelet: one signature fitted to the observed data first
  bool keep_traces = false;       // the bindings': keep the synthetic traces and the adjoint source (GradientRun)
};

// Where a gradient's observed data come from: a record (a file, or one given in memory), or
// modelled in the true model before the gradient.
enum class ObservedSource { record, modelled };

template <class T>
struct GradientJob {
  ProblemSetup start;       // grid, starting model, acquisition
  TimeAxis time;            // of the observed data
  index_t substeps = 1;     // simulation steps per data sample (a record whose dt is no stable step)
  std::vector<T> observed;  // nt x nrec (empty until modelled when not read from a file)
  VelocityModel truth;      // for modelled data
  double seconds_observed = 0;
  ObservedSource observed_source = ObservedSource::modelled;
};

// The run's time axis: substeps steps of dt / substeps per data sample (and past the record's end
// with substeps > 1: record_resampling.hpp).
template <class T>
TimeAxis simulation_time(const GradientJob<T>& job) {
  return simulation_time(job.time, job.substeps);
}
// Its acquisition on those steps: a sampled signature (at the record's samples) interpolated.
template <class T>
Acquisition simulation_acquisition(const GradientJob<T>& job) {
  Acquisition a = job.start.acquisition;
  a.wavelet = interpolate_signature(a.wavelet, job.substeps);
  return a;
}

VelocityModel load_model(const std::string& path, const Grid& grid, const char* option, Precision precision);
// The Taylor test's direction dm of m = 1/c^2 (`revwave gradtest`): towards the built-in true
// model where it differs from `start`, else a smooth bump; max |dm| = scale x max m.
std::vector<double> taylor_direction(const VelocityModel& start, double spacing, double scale);
// A model in memory, checked against the grid's shape and validated; `name` names it.
VelocityModel checked_model(const VelocityModel& model, const Grid& grid, const std::string& name, Precision precision);
// --density-gradient without a density: InputError (there is no density to differentiate).
void require_density_for_density_gradient(const GradientJobOptions& o);
// A starting model of the user's (--model, or an array) with no data to fit (--observed, records,
// --true-model) would be fitted to the built-in demo's data: InputError. `run` says what runs ("a
// gradient", "an inversion"); `records_given` stands for observed records given elsewhere (a survey's).
void require_data_for_user_model(const GradientJobOptions& o, bool records_given, const std::string& run);

template <class T>
GradientJob<T> prepare_gradient_job(const GradientJobOptions& o) {
  GradientJob<T> job;
  if (!o.observed.empty()) {
    if (o.observed.size() != 1)
      throw InputError("this command takes one observed record, not a survey of " + std::to_string(o.observed.size()));
  }
  if (!o.observed.empty() || o.observed_record) {
    const std::string& observed = o.observed_record ? o.observed_name : o.observed.front();
    if (o.f0_given)
      throw InputError("--f0: the record " + observed + " carries its wavelet in its sidecar: leave --f0 out");
    const ShotRecord rec = o.observed_record ? ShotRecord{} : read_shot_record(observed);
    const ShotRecord& record = o.observed_record ? *o.observed_record : rec;
    job.start = make_survey_setup(o.problem);  // the record brings the geometry
    centre_attenuation_band(o.problem, job.start.model, "an observed record");
    job.start.acquisition.sources = record.meta.sources;
    job.start.acquisition.receivers = record.meta.receivers;
    job.start.acquisition.f0 = record.meta.f0;
    job.start.acquisition.t0 = record.meta.t0;
    if (o.problem.wavelet_samples) job.start.acquisition.wavelet = *o.problem.wavelet_samples;
    check_sources_below_free_surface(job.start.grid, record.meta.sources, "source (from " + observed + ")");
    trilinear_points(job.start.grid, record.meta.sources, "source (from " + observed + ")");
    trilinear_points(job.start.grid, record.meta.receivers, "receiver (from " + observed + ")");
    if (record.meta.nt < 2)
      throw InputError(observed + ": nt " + std::to_string(record.meta.nt) + " is too short: at least 2 samples");
    job.time.dt = record.meta.dt;
    job.time.steps = record.meta.nt - 1;
    // The record keeps its sample interval; a run that cannot step it takes substeps per sample.
    job.substeps = stable_substeps(job.time.dt, job.start.grid, max_velocity(job.start.model),
                                   physics_dt_factor(job.start.grid, job.start.model), observed);
    check_stable(simulation_time(job).dt, job.start.grid, job.start.model);
    refuse_many_record_steps(o.problem, observed, job.time, job.substeps, max_velocity(job.start.model));
    const std::vector<double>& w = job.start.acquisition.wavelet;  // at the record's samples, as its data
    if (!w.empty() && static_cast<index_t>(w.size()) != job.time.nt()) {
      throw InputError("wavelet: the source signature has " + std::to_string(w.size()) + " samples, the record " +
                       observed + " has nt = " + std::to_string(job.time.nt()) + ": give nt samples");
    }
    const double largest = static_cast<double>(std::numeric_limits<T>::max());
    for (std::size_t i = 0; i < record.traces.size(); ++i) {
      if (std::abs(record.traces[i]) > largest) {
        throw IoError(observed + ": sample " + std::to_string(i / record.meta.receivers.size()) + " of receiver " +
                      std::to_string(i % record.meta.receivers.size()) + " is " + number_text(record.traces[i]) +
                      ", beyond the largest " + to_string(sizeof(T) == 4 ? Precision::float32 : Precision::float64) +
                      " " + number_text(largest) + " (use --precision double)");
      }
    }
    // Dead data under the correlation misfit: J = 0 and g = 0 would say nothing (a normalised
    // correlation with no data is undefined), written as a success.
    if (o.misfit.kind == MisfitKind::correlation && all_zero(record.traces))
      throw InputError(observed + ": " + dead_data_sentence);
    job.observed.assign(record.traces.begin(), record.traces.end());
    job.observed_source = ObservedSource::record;
    return job;
  }
  // Modelled data: the true model, and a starting model smoothed from it unless given.
  ProblemSetup truth = make_setup(o.problem);  // the grid follows --model when given
  const bool start_given = !o.problem.model_file.empty() || o.problem.model_values || o.problem.velocity.has_value();
  job.start = truth;
  if (!o.true_model.empty())
    truth.model = load_model(o.true_model, truth.grid, "--true-model", o.problem.precision);
  else if (o.true_model_values)
    truth.model = checked_model(*o.true_model_values, truth.grid, "true_model", o.problem.precision);
  else if (start_given)
    truth.model = default_true_model(truth.grid.shape, truth.grid.spacing);
  truth.model.density = job.start.model.density;  // known and fixed: the data are modelled with them too
  truth.model.epsilon = job.start.model.epsilon;
  truth.model.delta = job.start.model.delta;
  truth.model.q = job.start.model.q;
  truth.model.q_frequency = job.start.model.q_frequency;
  truth.model.q_f0 = job.start.model.q_f0;
  if (!start_given) job.start.model = smoothed(truth.model, 3, 3);
  validate(job.start.model);
  const double vmax = std::max(max_velocity(truth.model), max_velocity(job.start.model));
  job.time = make_time(o.problem, truth.grid, vmax, physics_dt_factor(truth.grid, truth.model));
  job.truth = truth.model;
  job.observed_source = ObservedSource::modelled;
  return job;
}

// Models the observed data in the true model (no-op for data read from a file). Kept apart
// from preparation so that everything is validated before the first expensive step.
template <class T>
void model_observed(GradientJob<T>& job, Backend backend, const DeviceBudgets& budgets, const Progress& progress = {}) {
  if (job.observed_source != ObservedSource::modelled || !job.observed.empty()) return;
  const auto t0 = std::chrono::steady_clock::now();
  const Problem<T> p = make_problem<T>(job.start.grid, job.truth, job.start.acquisition, job.time);
  job.observed = run_on_backend(backend, p, budgets, ForwardCall<T>{progress}).traces;
  job.seconds_observed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace revwave
