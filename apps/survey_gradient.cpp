// revwave gradient over a survey: every shot with the chosen strategy and budget (optionally on
// its model window), shots spread over the processes of mpirun, sums on the fixed tree; rank 0
// writes and reports.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <utility>

#include "revwave/core/checks.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

std::vector<std::string> write_pictures(const std::string& prefix, const Grid& g, const std::vector<double>& grad,
                                        const std::vector<double>& traces, index_t nt, index_t nrec);

bool gradient_is_survey(const GradientJobOptions& job, const SurveyOptions& survey) {
  std::error_code ec;
  if (job.observed.size() > 1) return true;
  if (job.observed.size() == 1 && (is_segy_path(job.observed.front()) || std::filesystem::is_directory(job.observed.front(), ec))) {
    return true;
  }
  return survey.aperture != -1 || !survey.src_grid.empty() || !survey.wavelet.empty() || !survey.origin.empty() ||
         launched_by_mpirun();
}

namespace {

std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

template <class T>
struct SurveyJob {
  Grid grid;
  VelocityModel model;
  Survey survey;
  SurveyRunOptions run;
  VelocityModel truth;  // for modelled data
  BackendChoice backend;
};

template <class T>
SurveyJob<T> prepare(GradientJobOptions& o, const SurveyOptions& so, const MpiSession& mpi) {
  SurveyJob<T> job;
  finish_strategy_options(o);
  job.backend = resolve_backend(o.problem.backend);
  o.strategy.backend = job.backend.kind;
  apply_threads_per_process(o.problem.threads, mpi);
  if (so.aperture != -1 && !(std::isfinite(so.aperture) && so.aperture >= 0)) {
    throw InputError("--aperture " + std::to_string(so.aperture) + " m is invalid: a finite distance >= 0");
  }
  job.run.strategy = o.strategy;
  job.run.backend = job.backend.kind;
  job.run.budgets = cuda_budgets(o.problem);
  job.run.aperture = so.aperture;
  if (job.backend.kind == Backend::cuda) {
    const auto devices = static_cast<int>(cuda_devices().size());
    job.run.budgets.device = devices > 0 ? mpi.local_rank() % devices : 0;
  }
  if (!o.observed.empty()) {
    ObservedSurvey read = read_observed_survey(o.problem, o.f0_given, o.observed, so);
    job.grid = read.setup.grid;
    job.model = std::move(read.setup.model);
    job.survey = std::move(read.survey);
  } else {
    // Modelled data: each shot's observed data are modelled in the true model where the shot runs.
    GradientJob<T> single = prepare_gradient_job<T>(o);
    job.grid = single.start.grid;
    job.model = single.start.model;
    job.truth = single.truth;
    job.survey = layout_survey(make_layout(so, single.start, single.time), job.grid);
    job.survey.description = "modelled in the true model, " + job.survey.description;
  }
  return job;
}

}  // namespace

namespace {

template <class T>
void run_on(MpiSession& mpi, GradientJobOptions& o, const SurveyOptions& so, const std::string& out, const std::string& png,
            const CLI::App& cmd) {
  const auto t_start = std::chrono::steady_clock::now();
  SurveyJob<T> job;
  std::exception_ptr failure;
  try {
    std::vector<NamedPath> outputs = {{"--out", out}, {"the configuration written next to --out", config_path_for(out)}};
    if (!png.empty()) {
      for (const char* suffix : {"_gradient_xz.png", "_gradient_yz.png", "_gradient_xy.png", "_shot.png"}) {
        outputs.push_back({"--png", png + suffix});
      }
    }
    refuse_overwriting_inputs(outputs, job_inputs(o, cmd));
    job = prepare<T>(o, so, mpi);
    if (o.observed.empty()) job.run.true_model = &job.truth;
    check_survey_run<T>(job.survey, job.grid, job.model, job.run);
  } catch (...) {
    failure = std::current_exception();
  }
  mpi.agree(failure);  // every process has the same inputs now, or every process stops with the first error

  const auto shots = static_cast<std::int64_t>(job.survey.shots.size());
  ProgressBar bar("shots", !o.problem.json && mpi.rank() == 0);
  const Progress shots_done = [&](index_t d, index_t t) { bar(d, t); };
  const auto runner = mpi.runner();
  const SurveySum sum = survey_gradient<T>(job.grid, job.model, job.survey, job.run, *runner, shots_done);
  bar.finish();
  if (!sum.root) return;

  const Grid& grid = job.grid;
  // A result that is not finite is never written as a success.
  check_finite_result(&sum.objective, 1, "the objective");
  check_finite_result(sum.gradient.data(), sum.gradient.size(), "the gradient");
  OutputTransaction outputs_together;
  std::vector<T> out_values(sum.gradient.begin(), sum.gradient.end());
  check_finite_result(out_values.data(), out_values.size(), std::string("the gradient in ") + (sizeof(T) == 4 ? "float" : "double"));
  write_npy(out, {grid.shape[0], grid.shape[1], grid.shape[2]}, out_values.data());
  const std::string cfg = config_path_for(out);
  write_effective_config(cmd, cfg);
  std::vector<std::string> pictures;
  if (!png.empty()) {
    const Shot& first = job.survey.shots.front();
    std::vector<double> traces = first.data;
    if (traces.empty()) traces.assign(static_cast<std::size_t>(first.time.nt()) * first.acquisition.receivers.size(), 0.0);
    pictures = write_pictures(png, grid, sum.gradient, traces, first.time.nt(), static_cast<index_t>(first.acquisition.receivers.size()));
  }
  outputs_together.commit();

  double norm2 = 0;
  for (double v : sum.gradient) norm2 += v * v;
  double shot_seconds = 0;
  std::int64_t forward_steps = 0, reverse_steps = 0;
  CompressionStats compression;
  for (const ShotSummary& s : sum.shots) {
    shot_seconds += s.seconds;
    forward_steps += s.forward_steps;
    reverse_steps += s.reverse_steps;
    compression += s.compression;
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  const double per_minute = 60.0 * double(shots) / total;
  if (o.problem.json) {
    nlohmann::json j;
    j["command"] = "gradient";
    j["survey"] = job.survey.description;
    j["shots"] = shots;
    j["processes"] = sum.processes;
    j["objective"] = sum.objective;
    j["gradient_norm"] = std::sqrt(norm2);
    j["strategy"] = to_string(job.run.strategy.strategy);
    j["aperture"] = so.aperture;
    j["forward_steps"] = forward_steps;
    j["reverse_steps"] = reverse_steps;
    j["peak_partial_sums"] = sum.peak_partial_sums;
    j["compression"] = compression_summary(job.run.strategy.compression, compression);  // summed over the shots
    j["shot_objectives"] = nlohmann::json::array();
    j["per_shot"] = nlohmann::json::array();
    for (const ShotSummary& s : sum.shots) {
      j["shot_objectives"].push_back(s.objective);
      j["per_shot"].push_back({{"shot", s.shot}, {"name", job.survey.shots[static_cast<std::size_t>(s.shot)].name},
                               {"rank", s.rank}, {"objective", s.objective}, {"seconds", s.seconds},
                               {"steps", s.steps}, {"dt", job.survey.shots[static_cast<std::size_t>(s.shot)].time.dt},
                               {"forward_steps", s.forward_steps}, {"predicted_forward_steps", s.predicted_forward_steps},
                               {"reverse_steps", s.reverse_steps}, {"snaps", s.snaps},
                               {"stores", s.stores}, {"restores", s.restores},
                               {"wavefield_storage_bytes", s.wavefield_storage_bytes},
                               {"window_first", {s.window[0], s.window[1], s.window[2]}},
                               {"window_shape", {s.window[3], s.window[4], s.window[5]}}});
    }
    j["seconds"] = {{"total", total}, {"shots", shot_seconds}};
    j["shots_per_minute"] = per_minute;
    j["peak_rss_bytes"] = peak_rss_bytes();
    j["shape"] = grid.shape;
    j["space_order"] = grid.space_order;
    j["backend"] = to_string(job.backend.kind);
    j["backend_note"] = job.backend.note;
    j["precision"] = to_string(o.problem.precision);
    j["out"] = out;
    j["config"] = cfg;
    j["png"] = pictures;
    print_json(j);
    return;
  }
  std::cout << "revwave gradient: survey of " << shots << " shots (" << job.survey.description << "), " << grid.shape[0] << " x "
            << grid.shape[1] << " x " << grid.shape[2] << " points, " << to_string(o.problem.precision) << " on " << to_string(job.backend.kind)
            << (job.backend.note.empty() ? "" : " (" + job.backend.note + ")") << ", " << sum.processes
            << (sum.processes == 1 ? " process" : " processes") << "\n"
            << "  objective       " << sum.objective << " (sum over shots)\n"
            << "  gradient norm   " << std::sqrt(norm2) << " (dJ/dm, misfit per s^2/m^2)\n"
            << "  strategy        " << to_string(job.run.strategy.strategy) << (so.aperture >= 0 ? ", aperture " + format_number(so.aperture) + " m" : "")
            << "\n"
            << "  forward steps   " << forward_steps << ", reverse steps " << reverse_steps << " (all shots)\n"
            << compression_line(job.run.strategy.compression, compression)
            << "  time            " << total << " s total, " << per_minute << " shots per minute\n"
            << "  memory          " << format_bytes(double(peak_rss_bytes())) << " peak (rank 0)\n";
  const std::size_t shown = std::min<std::size_t>(sum.shots.size(), 8);
  for (std::size_t k = 0; k < shown; ++k) {
    const ShotSummary& s = sum.shots[k];
    std::cout << "  shot " << s.shot << "          J = " << s.objective << ", rank " << s.rank << ", " << s.seconds << " s, window "
              << s.window[3] << " x " << s.window[4] << " x " << s.window[5] << "\n";
  }
  if (shown < sum.shots.size()) std::cout << "  ...             " << sum.shots.size() - shown << " more shots (--json lists them all)\n";
  std::cout << "  gradient        " << out << ", " << cfg << "\n";
  for (const auto& p : pictures) std::cout << "  picture         " << p << "\n";
}

}  // namespace

template <class T>
void run_survey_gradient(GradientJobOptions& o, const SurveyOptions& so, const std::string& out, const std::string& png,
                         const CLI::App& cmd) {
  quiet_unless_root();
  MpiSession mpi;
  try {
    run_on<T>(mpi, o, so, out, png, cmd);
  } catch (...) {
    // Every process has the error; rank 0 reports it and its exit code is the run's. The others
    // end quietly with 0, so that mpirun does not cut rank 0 short while it prints.
    if (mpi.rank() == 0) throw;
  }
}

template void run_survey_gradient<float>(GradientJobOptions&, const SurveyOptions&, const std::string&, const std::string&, const CLI::App&);
template void run_survey_gradient<double>(GradientJobOptions&, const SurveyOptions&, const std::string&, const std::string&, const CLI::App&);

}  // namespace revwave::app
