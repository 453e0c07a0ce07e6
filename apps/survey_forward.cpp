// revwave forward over a survey (revwave/setup/survey_forward_run.hpp): every source a shot,
// written as one SEG-Y file or a directory of .npy records with their sidecars.
#include <iostream>

#include "problem_options.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/segy.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/setup/run_phases.hpp"
#include "revwave/setup/survey_forward_run.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

bool forward_is_survey(const ProblemOptions& problem, const SurveyOptions& survey, const std::string& out) {
  // Several --src into one record fire at once (simultaneous sources); into SEG-Y or a directory
  // each is a shot.
  const bool several = problem.sources && problem.sources->size() > 1 && !is_npy_path(out);
  return survey.src_grid || is_segy_path(out) || survey.spread != "fixed" || several ||
         (!out.empty() && out.back() == '/');
}

std::string record_path(const std::string& out) {
  if (is_npy_path(out)) return out;
  (void)survey_format(out);  // refuses an ending that is none of revwave's
  return out + ".npy";       // one shot: a record, its ending added
}

template <class T>
void run_survey_forward(const ProblemOptions& problem, const Presentation& view, const SurveyOptions& so,
                        const std::string& out, const CLI::App& cmd, RunClock& clock) {
  if (launched_size() > 1) {
    quiet_unless_root();
    throw InputError("revwave forward runs in one process: mpirun -n K is for revwave gradient");
  }
  const std::string cfg = config_path_for(out);
  ProgressBar bar("shots", !view.json);
  const SurveyForwardRun run = run_survey_forward_job<T>(
      problem, so, out, [&](index_t d, index_t t) { bar(d, t); }, {{"the configuration written next to --out", cfg}},
      config_inputs(cmd));
  bar.finish();
  // The shots' time loops (summed: one process runs them one after another) and the rest of the run.
  clock.mark_part(phase::time_loop, run.step_seconds, phase::shots_other);
  print_warnings(run.warnings);
  write_survey_records(run, out, problem.precision, [&] {
    write_effective_config(cmd, cfg, {{"shape", shape_text(run.setup.grid.shape)}}, unused_defaults(cmd));
  });
  clock.mark(phase::outputs);

  nlohmann::json j = survey_forward_summary(run, so, problem.precision);
  const double total = clock.wall();
  j["phases"] = phases_json(clock);
  j["wall_seconds"] = total;
  if (view.json) {
    j["command"] = "forward";
    j["total_seconds"] = total;
    j["out"] = out;
    j["config"] = cfg;
    print_json(j);
    return;
  }
  const Grid& grid = run.setup.grid;
  const bool segy = run.format == SurveyFormat::segy;
  std::string layouts;
  for (const GridLayout& l : run.layouts) layouts += layout_line(l);
  std::cout << "revwave forward: survey of " << run.survey.shots.size() << " shots, " << grid.shape[0] << " x "
            << grid.shape[1] << " x " << grid.shape[2] << " points (h = " << grid.spacing << " m), " << run.time.steps
            << " steps of dt = " << run.time.dt * 1e3 << " ms, " << to_string(problem.precision) << " on "
            << backend_words(run.backend, view.verbose) << "\n"
            << layouts << "  time loops    " << run.step_seconds << " s (" << j["gpts_per_s"].get<double>()
            << " GPts/s)\n"
            << "  wall time     " << clock.sentence() << "\n"
            << "  peak memory   " << format_bytes(double(peak_rss_bytes())) << "\n"
            << "  survey        " << out << " (" << (segy ? "SEG-Y, " : "records, ") << j["traces"].get<std::size_t>()
            << " traces of " << run.time.nt() << " samples), " << cfg << "\n";
}

template void run_survey_forward<float>(const ProblemOptions&, const Presentation&, const SurveyOptions&,
                                        const std::string&, const CLI::App&, RunClock&);
template void run_survey_forward<double>(const ProblemOptions&, const Presentation&, const SurveyOptions&,
                                         const std::string&, const CLI::App&, RunClock&);

}  // namespace revwave::app
