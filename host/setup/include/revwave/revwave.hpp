// The C++ API of the installed package (find_package(revwave CONFIG), target revwave::revwave): a
// shot record, a gradient and a survey's gradient from typed options, on the backend they choose. A thin face over
// revwave/setup, which the command line and the Python package run too: the same options, the
// same refusals (revwave::InputError, ...) and the same bits.
//
//   revwave::GradientJobOptions o;            // every field has the CLI's default
//   o.problem.shape = {24, 24, 24};           // o.problem: ProblemOptions (problem_setup.hpp), typed
//   o.strategy.strategy = revwave::Strategy::revolve;
//   o.strategy.snaps = 4;                      // o.strategy: StrategyOptions (gradient_strategy.hpp)
//   revwave::GradientResult g = revwave::gradient(o);
#pragma once
#include <cmath>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "revwave/survey/shot_runner.hpp"

namespace revwave {

struct GradientResult {
  double objective = 0;            // J, the misfit (L2: 1/2 sum of squared residuals)
  double gradient_norm = 0;        // |dJ/dm|_2 over the interior points, as `revwave gradient --json` reports it
  std::vector<double> gradient;    // dJ/dm (m = 1/c^2, s^2/m^2) at the interior points, C order
  GradientStats stats;             // steps, forward and reverse steps, stores, restores, seconds, bytes
  StrategyPlan plan;               // the strategy, its slots and the schedule's predicted forward steps
  Backend backend = host_backend;  // the backend that ran (never automatic)
};

// A survey's gradient: J and dJ/dm summed over its shots on the command line's fixed tree.
struct SurveyGradientResult {
  double objective = 0;          // sum of the shots' J
  double gradient_norm = 0;      // |dJ/dm|_2, as `revwave gradient --json` reports it
  std::vector<double> gradient;  // dJ/dm on the whole model, C order
  index_t shots = 0;
  Backend backend = host_backend;
};

struct ForwardResult {
  index_t nt = 0, nrec = 0;
  std::vector<double> traces;  // nt x nrec, C order (sample-major), in the run's precision widened to double
  TimeAxis time;
  Backend backend = host_backend;
  ShotRecordMeta meta;  // what `revwave forward` writes beside the record: dt, nt, f0, t0, the points
  // The record as observed data (GradientJobOptions::observed_record, SurveyOptions::observed_records).
  ShotRecord record() const { return ShotRecord{meta, traces}; }
};

namespace detail {

template <class T>
GradientResult gradient_result(GradientJobOptions& options, const Progress& progress) {
  GradientRun<T> run = run_gradient_job<T>(options, {}, progress);
  GradientResult g;
  g.objective = run.output.stats.objective;
  double norm2 = 0;
  for (double v : run.output.gradient) norm2 += v * v;
  g.gradient_norm = std::sqrt(norm2);
  g.gradient = std::move(run.output.gradient);
  g.stats = run.output.stats;
  g.plan = run.plan;
  g.backend = run.backend.kind;
  return g;
}

template <class T>
ForwardResult forward_result(const ProblemOptions& options, const Progress& progress) {
  ForwardRun<T> run = run_forward_job<T>(options, {}, progress);
  ForwardResult f;
  f.nt = run.shot.nt;
  f.nrec = run.shot.nrec;
  f.traces.assign(run.shot.traces.begin(), run.shot.traces.end());
  f.time = run.time;
  f.backend = run.backend.kind;
  f.meta = record_meta(run.setup.acquisition, run.time, options.precision);
  return f;
}

template <class T>
SurveyGradientResult survey_gradient_result(GradientJobOptions& options, const SurveyOptions& survey,
                                            const Progress& progress) {
  SurveyGradientJob job = prepare_survey_gradient<T>(options, survey, 0, {});
  SerialShotRunner runner;
  SurveySum sum = run_survey_gradient_job<T>(job, runner, progress);
  SurveyGradientResult g;
  g.objective = sum.objective;
  double norm2 = 0;
  for (double v : sum.gradient) norm2 += v * v;
  g.gradient_norm = std::sqrt(norm2);
  g.gradient = std::move(sum.gradient);
  g.shots = static_cast<index_t>(sum.shots.size());
  g.backend = job.backend.kind;
  return g;
}

}  // namespace detail

// One gradient (`revwave gradient`): the observed data modelled in the true model unless given,
// then J and dJ/dm in the starting model with the chosen strategy. Throws revwave::InputError and its
// kin on bad options.
inline GradientResult gradient(GradientJobOptions options, const Progress& progress = {}) {
  if (options.problem.precision == Precision::float64) return detail::gradient_result<double>(options, progress);
  return detail::gradient_result<float>(options, progress);
}

// A survey's gradient (`revwave gradient` of a survey), shot after shot in this process: the shots
// of records given in memory (`survey.observed_records`), of SEG-Y files or directories
// (`options.observed`), or of `survey.src_grid` modelled in the true model; the same bits as the
// command line's.
inline SurveyGradientResult survey_gradient(GradientJobOptions options, const SurveyOptions& survey,
                                            const Progress& progress = {}) {
  if (options.problem.precision == Precision::float64)
    return detail::survey_gradient_result<double>(options, survey, progress);
  return detail::survey_gradient_result<float>(options, survey, progress);
}

// One shot record (`revwave forward`).
inline ForwardResult forward(const ProblemOptions& options, const Progress& progress = {}) {
  if (options.precision == Precision::float64) return detail::forward_result<double>(options, progress);
  return detail::forward_result<float>(options, progress);
}

}  // namespace revwave
