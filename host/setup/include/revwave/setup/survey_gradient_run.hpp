// The survey gradient from a run's options: J and g summed over the shots (each on its window,
// shot-parallel over any ShotRunner), and the fields of its JSON summary. The command line runs it
// under mpirun, the Python package in one process; both call these, so both give the same bits,
// the same refusals and the same fields.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/core/checks.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/survey_setup.hpp"
#include "revwave/setup/wavelet_estimation.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {

struct SurveyGradientJob {
  BackendChoice backend;
  SurveyInputs inputs;
  SurveyRunOptions run;  // its true_model is set where the run needs it, not here
  bool estimate_wavelet = false;
  std::vector<double> wavelet;  // the estimated signature, once run_survey_gradient_job has run
};

// What every shot of a survey run shares: the strategy and budget, the aperture, and the GPU of
// this process (local_rank % devices) on the CUDA backend.
SurveyRunOptions survey_run_options(const GradientJobOptions& o, double aperture, Backend backend, int local_rank);

// Calls `before_inputs` (the CLI refuses outputs that would overwrite inputs there), resolves the
// backend, reads or lays out the survey and checks it all (check_survey_run), the same on every process.
template <class T>
SurveyGradientJob prepare_survey_gradient(GradientJobOptions& o, const SurveyOptions& so, int local_rank,
                                          const std::function<void()>& before_inputs) {
  if (before_inputs) before_inputs();
  if (o.density_gradient) throw InputError("--density-gradient applies to one shot's gradient, not to a survey's");
  refuse_unused_survey_options(o.observed, so.observed_records != nullptr, so);
  SurveyGradientJob job;
  job.backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, job.backend.kind);
  o.strategy.backend = job.backend.kind;
  apply_threads(o.problem.threads);
  check_aperture(so.aperture);
  require_data_for_user_model(o, so.observed_records != nullptr, "a gradient");
  job.run = survey_run_options(o, so.aperture, job.backend.kind, local_rank);
  job.estimate_wavelet = o.estimate_wavelet;
  job.inputs = survey_inputs<T>(o, so);
  check_aperture_fits(so.aperture, job.inputs.grid);
  if (o.misfit.kind == MisfitKind::correlation && !job.inputs.has_truth &&
      std::all_of(job.inputs.survey.shots.begin(), job.inputs.survey.shots.end(),
                  [](const Shot& s) { return all_zero(s.data); }))
    throw InputError(job.inputs.survey.description + ": " + dead_data_sentence);
  SurveyRunOptions check = job.run;
  if (job.inputs.has_truth) check.true_model = &job.inputs.truth;
  check_survey_run<T>(job.inputs.survey, job.inputs.grid, job.inputs.model, check);
  return job;
}

// J and g of the job's survey (collective over the runner's processes); on the root, checked finite.
// With --estimate-wavelet the signature is estimated first (collective too; a modelled survey's data
// are then modelled by every process before it) and every shot uses it.
template <class T>
SurveySum run_survey_gradient_job(SurveyGradientJob& job, ShotRunner& runner, const Progress& shots_done = {}) {
  SurveyRunOptions run = job.run;
  if (job.inputs.has_truth) run.true_model = &job.inputs.truth;
  SurveyInputs& in = job.inputs;
  if (job.estimate_wavelet) {
    if (in.has_truth) survey_forward<T>(in.grid, in.truth, in.survey, run.backend, run.budgets);
    job.wavelet = estimate_survey_wavelet<T>(in.grid, in.model, in.survey, run, runner);
    use_wavelet(in.survey, job.wavelet);
  }
  SurveySum sum = survey_gradient<T>(in.grid, in.model, in.survey, run, runner, shots_done);
  if (sum.root) {
    // A result that is not finite is never written as a success.
    check_finite_result(&sum.objective, 1, "the objective");
    check_finite_result(sum.gradient.data(), sum.gradient.size(), "the gradient");
  }
  return sum;
}

// Sums over the shots of what each shot's summary reports.
struct SurveyTotals {
  double gradient_norm = 0;
  std::int64_t forward_steps = 0, reverse_steps = 0;
  double shot_seconds = 0;
  CompressionStats compression;
  ShotPhases phases;  // summed over the shots (every process's)
};
SurveyTotals survey_totals(const SurveySum& sum);

// The fields of `revwave gradient --json` over a survey that describe the run (not its files, nor
// the total time): survey, shots, processes, objective, gradient_norm, strategy, aperture, the step
// counts, compression (summed over the shots), shot_objectives, per_shot, seconds.shots, memory,
// grid, backend and precision. `seconds` holds the shots' phases summed (setup, upload, time_loop,
// accumulate, idle) and each per_shot entry its own (seconds_phases).
nlohmann::json survey_gradient_summary(const SurveyGradientJob& job, const SurveySum& sum, Precision precision);

// `gradient --png PREFIX` over a survey: the summed gradient's slices and the first shot's record
// (zeros where its data are modelled as it runs).
std::vector<std::string> write_survey_gradient_pictures(const std::string& prefix, const SurveyGradientJob& job,
                                                        const SurveySum& sum);

}  // namespace revwave
