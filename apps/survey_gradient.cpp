// revwave gradient over a survey (revwave/setup/survey_gradient_run.hpp): every shot with the
// chosen strategy and budget (optionally on its model window), shots spread over the processes of
// mpirun, sums on the fixed tree; rank 0 writes and reports.
#include <filesystem>
#include <iostream>
#include <sstream>

#include "revwave/core/system_memory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/mpi/process_threads.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/result_values.hpp"
#include "revwave/setup/run_phases.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

bool gradient_is_survey(const GradientJobOptions& job, const SurveyOptions& survey) {
  std::error_code ec;
  if (job.observed.size() > 1) return true;
  if (job.observed.size() == 1 &&
      (is_segy_path(job.observed.front()) || std::filesystem::is_directory(job.observed.front(), ec))) {
    return true;
  }
  // A moving spread is a survey's layout even for one shot (its receivers move with the source).
  return survey.aperture != -1 || survey.src_grid || survey.spread != "fixed" || !survey.wavelet.empty() ||
         survey.origin || launched_by_mpirun();
}

namespace {

std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Where the shots' time went, summed over them, and the time outside the time loops per shot.
// The shots' time on the run's clock: with one process running one shot at a time, the parts the
// shots timed (summed over them) and the rest; else one phase (shots overlap there, and their sums
// exceed the time they took).
void mark_shots(RunClock& clock, const SurveySum& sum, int shots_at_once) {
  if (sum.processes != 1 || shots_at_once > 1) {
    clock.mark(phase::shots);
    return;
  }
  const ShotPhases p = survey_totals(sum).phases;
  clock.mark_parts({{phase::time_loop, p.time_loop},
                    {phase::shot_setup, p.setup},
                    {phase::shot_upload, p.upload},
                    {phase::shot_accumulate, p.accumulate}},
                   phase::shots_other);
}

std::string phases_line(const ShotPhases& p, std::size_t shots) {
  std::ostringstream os;
  os << "time loops " << p.time_loop << " s; outside them setup " << p.setup << " s, upload " << p.upload
     << " s, accumulate " << p.accumulate << " s, idle " << p.idle << " s ("
     << 1e3 * p.outside_loop() / double(std::max<std::size_t>(shots, 1)) << " ms a shot)";
  return os.str();
}

void print_report(const SurveyGradientJob& job, const SurveySum& sum, Precision precision, bool verbose,
                  const std::vector<std::string>& files, const RunClock& clock) {
  const double total = clock.wall();
  const Grid& grid = job.inputs.grid;
  const Survey& survey = job.inputs.survey;
  const SurveyTotals t = survey_totals(sum);
  const double aperture = job.run.aperture;
  std::string layouts;
  for (const GridLayout& l : job.inputs.layouts) layouts += layout_line(l);
  std::cout << "revwave gradient: survey of " << survey.shots.size() << " shots (" << survey.description << "), "
            << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2] << " points, " << to_string(precision)
            << " on " << backend_words(job.backend, verbose) << ", " << sum.processes
            << (sum.processes == 1 ? " process" : " processes") << "\n"
            << layouts << "  objective       " << sum.objective << " (sum over shots)"
            << misfit_note(job.run.misfit.kind) << "\n"
            << "  gradient norm   " << t.gradient_norm << " (dJ/dm, misfit per s^2/m^2)\n"
            << "  strategy        " << to_string(job.run.strategy.strategy)
            << (aperture >= 0 ? ", aperture " + format_number(aperture) + " m" : "") << "\n"
            << "  forward steps   " << t.forward_steps << " (all shots; the " << t.reverse_steps
            << " reverse steps are counted in them, each applies the forward operator once)\n"
            << compression_line(job.run.strategy.compression, t.compression) << "  time            " << clock.sentence()
            << "; " << 60.0 * double(survey.shots.size()) / total << " shots per minute\n"
            << "  phases          " << phases_line(t.phases, survey.shots.size()) << "\n"
            << "  memory          " << format_bytes(double(peak_rss_bytes())) << " peak (rank 0)\n";
  const std::size_t shown = std::min<std::size_t>(sum.shots.size(), 8);
  for (std::size_t k = 0; k < shown; ++k) {
    const ShotSummary& s = sum.shots[k];
    std::cout << "  shot " << s.shot << "          J = " << s.objective << ", rank " << s.rank << ", " << s.seconds
              << " s, window " << s.window[3] << " x " << s.window[4] << " x " << s.window[5] << "\n";
  }
  if (shown < sum.shots.size())
    std::cout << "  ...             " << sum.shots.size() - shown << " more shots (--json lists them all)\n";
  std::cout << "  gradient        " << files[0] << ", " << files[1] << "\n";
  for (std::size_t i = 2; i < files.size(); ++i) std::cout << "  picture         " << files[i] << "\n";
}

template <class T>
void run_on(MpiSession& mpi, GradientJobOptions& o, const Presentation& view, const SurveyOptions& so,
            const std::string& out, const std::string& png, const CLI::App& cmd, RunClock& clock) {
  SurveyGradientJob job;
  std::exception_ptr failure;
  try {
    apply_threads_per_process(o.problem.threads, mpi);
    job = prepare_survey_gradient<T>(o, so, mpi.local_rank(), [&] {
      std::vector<NamedPath> inputs = job_inputs(o, cmd);
      if (!so.wavelet.empty()) inputs.push_back({"--wavelet", so.wavelet});  // the survey's own input
      check_run_outputs(gradient_outputs(out, png, o.estimate_wavelet), inputs);
      require_npy_ending("--out", out);
    });
  } catch (...) {
    failure = std::current_exception();
  }
  mpi.agree(failure);  // every process has the same inputs now, or every process stops with the first error
  clock.mark(phase::model);

  ProgressBar bar("shots", !view.json && mpi.rank() == 0);
  const auto runner = mpi.runner();
  const SurveySum sum = run_survey_gradient_job<T>(job, *runner, [&](index_t d, index_t t) { bar(d, t); });
  bar.finish();
  if (!sum.root) return;
  mark_shots(clock, sum, o.problem.shots_at_once.value_or(1));
  print_warnings(job.inputs.warnings);

  const Grid& grid = job.inputs.grid;
  OutputTransaction outputs_together;
  const std::vector<T> out_values = values_in_precision<T>(sum.gradient, "the gradient");
  write_npy(out, {grid.shape[0], grid.shape[1], grid.shape[2]}, out_values.data());
  const std::string cfg = config_path_for(out);
  write_effective_config(cmd, cfg, {{"shape", shape_text(grid.shape)}}, unused_defaults(cmd));
  if (job.estimate_wavelet)
    write_npy(wavelet_path_for(out), {static_cast<std::int64_t>(job.wavelet.size())}, job.wavelet.data());
  clock.mark(phase::outputs);
  std::vector<std::string> pictures;
  if (!png.empty()) {
    pictures = write_survey_gradient_pictures(png, job, sum);
    clock.mark(phase::pictures);
  }
  outputs_together.commit();
  clock.mark(phase::outputs);

  nlohmann::json j = survey_gradient_summary(job, sum, o.problem.precision);
  const double total = clock.wall();
  j["phases"] = phases_json(clock);
  j["wall_seconds"] = total;
  if (view.json) {
    j["command"] = "gradient";
    j["seconds"]["total"] = total;
    j["shots_per_minute"] = 60.0 * double(job.inputs.survey.shots.size()) / total;
    j["out"] = out;
    j["config"] = cfg;
    j["png"] = pictures;
    if (job.estimate_wavelet) j["wavelet"] = wavelet_path_for(out);
    print_json(j);
    return;
  }
  std::vector<std::string> files = {out, cfg};
  files.insert(files.end(), pictures.begin(), pictures.end());
  print_report(job, sum, o.problem.precision, view.verbose, files, clock);
  if (job.estimate_wavelet) std::cout << "  wavelet         " << wavelet_path_for(out) << " (estimated)\n";
}

}  // namespace

template <class T>
void run_survey_gradient(GradientJobOptions& o, const Presentation& view, const SurveyOptions& so,
                         const std::string& out, const std::string& png, const CLI::App& cmd, RunClock& clock) {
  quiet_unless_root();
  MpiSession mpi;
  clock.mark(phase::mpi_start);
  try {
    run_on<T>(mpi, o, view, so, out, png, cmd, clock);
  } catch (...) {
    // Every process has the error; rank 0 reports it and its exit code is the run's. The others
    // end quietly with 0, so that mpirun does not cut rank 0 short while it prints.
    if (mpi.rank() == 0) throw;
  }
}

template void run_survey_gradient<float>(GradientJobOptions&, const Presentation&, const SurveyOptions&,
                                         const std::string&, const std::string&, const CLI::App&, RunClock&);
template void run_survey_gradient<double>(GradientJobOptions&, const Presentation&, const SurveyOptions&,
                                          const std::string&, const std::string&, const CLI::App&, RunClock&);

}  // namespace revwave::app
