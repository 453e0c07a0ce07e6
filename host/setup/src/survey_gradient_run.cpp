#include "revwave/setup/survey_gradient_run.hpp"
#include "revwave/setup/problem_setup.hpp"

#include <cmath>

#include "revwave/core/cuda_info.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/setup/gradient_pictures.hpp"
#include "revwave/setup/gradient_run.hpp"

namespace revwave {
namespace {

nlohmann::json phases_json(const ShotPhases& p) {
  return {{"setup", p.setup},
          {"upload", p.upload},
          {"time_loop", p.time_loop},
          {"accumulate", p.accumulate},
          {"idle", p.idle}};
}

nlohmann::json per_shot(const ShotSummary& s, const Shot& shot) {
  return {{"seconds_phases", phases_json(s.phases)},
          {"shot", s.shot},
          {"name", shot.name},
          {"rank", s.rank},
          {"objective", s.objective},
          {"seconds", s.seconds},
          {"steps", s.steps},
          {"dt", shot.time.dt},
          {"substeps", shot.substeps},  // simulation steps per data sample: steps = substeps x (nt - 1 + 16)
          {"simulation_dt", simulation_time(shot).dt},
          {"forward_steps", s.forward_steps},
          {"predicted_forward_steps", s.predicted_forward_steps},
          {"reverse_steps", s.reverse_steps},
          {"snaps", s.snaps},
          {"stores", s.stores},
          {"restores", s.restores},
          {"wavefield_storage_bytes", s.wavefield_storage_bytes},
          {"window_first", {s.window[0], s.window[1], s.window[2]}},
          {"window_shape", {s.window[3], s.window[4], s.window[5]}}};
}

}  // namespace

SurveyRunOptions survey_run_options(const GradientJobOptions& o, double aperture, Backend backend, int local_rank) {
  SurveyRunOptions run;
  run.strategy = o.strategy;
  run.backend = backend;
  run.budgets = device_budgets(o.problem);
  run.aperture = aperture;
  run.misfit = o.misfit;
  if (backend_capabilities(backend).device_memory) {  // one device per local rank
    const int devices = cuda_device_count();
    run.budgets.device = devices > 0 ? local_rank % devices : 0;
  }
  return run;
}

SurveyTotals survey_totals(const SurveySum& sum) {
  SurveyTotals t;
  double norm2 = 0;
  for (double v : sum.gradient) norm2 += v * v;
  t.gradient_norm = std::sqrt(norm2);
  for (const ShotSummary& s : sum.shots) {
    t.shot_seconds += s.seconds;
    t.forward_steps += s.forward_steps;
    t.reverse_steps += s.reverse_steps;
    t.compression += s.compression;
    t.phases += s.phases;
  }
  return t;
}

nlohmann::json survey_gradient_summary(const SurveyGradientJob& job, const SurveySum& sum, Precision precision) {
  const SurveyTotals t = survey_totals(sum);
  const Survey& survey = job.inputs.survey;
  nlohmann::json j;
  j["survey"] = survey.description;
  j["shots"] = static_cast<std::int64_t>(survey.shots.size());
  j["processes"] = sum.processes;
  j["objective"] = sum.objective;
  j["gradient_norm"] = t.gradient_norm;
  j["strategy"] = to_string(job.run.strategy.strategy);
  // null where no --aperture was given (every shot on the whole model), not its -1 placeholder.
  j["aperture"] = job.run.aperture >= 0 ? nlohmann::json(job.run.aperture) : nlohmann::json(nullptr);
  j["forward_steps"] = t.forward_steps;
  j["reverse_steps"] = t.reverse_steps;
  j["peak_partial_sums"] = sum.peak_partial_sums;
  j["compression"] = compression_summary(job.run.strategy.compression, t.compression);  // summed over the shots
  j["shot_objectives"] = nlohmann::json::array();
  j["per_shot"] = nlohmann::json::array();
  for (const ShotSummary& s : sum.shots) {
    j["shot_objectives"].push_back(s.objective);
    j["per_shot"].push_back(per_shot(s, survey.shots[static_cast<std::size_t>(s.shot)]));
  }
  j["seconds"] = phases_json(t.phases);
  j["seconds"]["shots"] = t.shot_seconds;
  j["seconds"]["sum"] = sum.seconds_sum;          // the root's tree sums and the one read-back
  j["seconds"]["reserve"] = sum.seconds_reserve;  // the sums' blocks, before the first shot
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["peak_rss_counts"] = peak_rss_counts();
  j["layouts"] = layouts_json(job.inputs.layouts);
  j["warnings"] = job.inputs.warnings;
  put_grid(j, job.inputs.grid);
  put_backend(j, job.backend);
  if (backend_capabilities(job.backend.kind).shot_lanes)  // the engine's lanes: never more than the shots
    j["shots_at_once"] =
        std::min<std::int64_t>(job.run.budgets.shots_at_once, static_cast<std::int64_t>(survey.shots.size()));
  j["precision"] = to_string(precision);
  // Only where chosen, so that an L2 run's fields stay those it always printed.
  if (job.run.misfit.kind != MisfitKind::l2) j["misfit"] = to_string(job.run.misfit.kind);
  if (job.estimate_wavelet) j["estimated_wavelet"] = estimated_wavelet_summary(job.wavelet);
  return j;
}

std::vector<std::string> write_survey_gradient_pictures(const std::string& prefix, const SurveyGradientJob& job,
                                                        const SurveySum& sum) {
  const Shot& first = job.inputs.survey.shots.front();
  std::vector<double> traces = first.data;
  if (traces.empty())
    traces.assign(static_cast<std::size_t>(first.time.nt()) * first.acquisition.receivers.size(), 0.0);
  return write_gradient_pictures(
      prefix, job.inputs.grid, sum.gradient, traces, first.time.nt(),
      static_cast<index_t>(first.acquisition.receivers.size()), first.time.dt,
      "observed data of shot 0 (first of " + std::to_string(job.inputs.survey.shots.size()) + ")");
}

}  // namespace revwave
