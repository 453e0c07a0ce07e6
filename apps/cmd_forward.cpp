// revwave forward: model one shot record (revwave/setup/forward_run.hpp) and write it with its sidecar.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "problem_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/segy.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/run_phases.hpp"
#include "revwave/setup/survey_forward_run.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {
namespace {

struct ForwardOptions {
  ProblemOptions problem;
  Presentation view;
  SurveyOptions survey;
  std::string out = "shot.npy";
};

template <class T>
void run(const ForwardOptions& o, const CLI::App& cmd) {
  RunClock clock = RunClock::since_process_start();
  clock.mark(phase::start_up);
  warn_unused_f0(cmd);
  // File coordinates are SEG-Y's: a .npy record or a directory of them would drop --origin silently.
  if (o.survey.origin && !is_segy_path(o.out)) {
    throw InputError("--origin " + point_text(*o.survey.origin) + " applies to SEG-Y output (--out FILE.sgy): --out " +
                     o.out + " holds no file coordinates, leave --origin out");
  }
  if (forward_is_survey(o.problem, o.survey, o.out) || !o.survey.wavelet.empty()) {
    std::string dir_or_file = o.out;
    while (dir_or_file.size() > 1 && dir_or_file.back() == '/') dir_or_file.pop_back();
    // "new.sgy/" says both a new directory (the slash) and a file (the ending): which is meant?
    if (dir_or_file != o.out && (is_segy_path(dir_or_file) || revwave::is_npy_path(dir_or_file))) {
      throw InputError("--out " + o.out + ": a name ending in / is a new directory of records, and " + dir_or_file +
                       " names a file by its ending: give " + dir_or_file +
                       " for the file, or a directory name without an ending");
    }
    run_survey_forward<T>(o.problem, o.view, o.survey, dir_or_file, cmd, clock);
    return;
  }
  const std::string out = record_path(o.out);
  if (launched_size() > 1) {
    quiet_unless_root();
    throw InputError("revwave forward runs in one process: mpirun -n K is for revwave gradient");
  }
  const std::string cfg = config_path_for(out);
  ProgressBar bar("forward", !o.view.json);
  ForwardRun<T> run = run_forward_job<T>(
      o.problem,
      [&] {
        std::vector<NamedPath> inputs = problem_inputs(o.problem);
        for (const NamedPath& c : config_inputs(cmd)) inputs.push_back(c);
        check_run_outputs({{"--out", out},
                           {"the sidecar of --out", sidecar_path(out)},
                           {"the configuration written next to --out", cfg}},
                          inputs);
      },
      [&](index_t d, index_t t) { bar(d, t); }, std::move(clock));
  bar.finish();
  print_warnings(run.warnings);

  OutputTransaction outputs_together;
  write_shot_record(out, record_meta(run.setup.acquisition, run.time, o.problem.precision), run.shot.traces);
  write_effective_config(cmd, cfg, {{"shape", shape_text(run.setup.grid.shape)}});
  outputs_together.commit();
  run.clock.mark(phase::outputs);

  nlohmann::json j = forward_summary(run, o.problem.precision);
  if (o.view.json) {
    j["command"] = "forward";
    j["total_seconds"] = run.clock.wall();
    j["out"] = out;
    j["sidecar"] = sidecar_path(out);
    j["config"] = cfg;
    print_json(j);
    return;
  }
  const Grid& grid = run.setup.grid;
  const BackendChoice& backend = run.backend;
  std::string layouts;
  for (const GridLayout& l : run.setup.layouts) layouts += layout_line(l);
  const std::size_t nsrc = run.setup.acquisition.sources.size();
  std::cout << "revwave forward: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2]
            << " points (h = " << grid.spacing << " m, nbl " << grid.nbl << ", space order " << grid.space_order
            << "), " << run.time.steps << " steps of dt = " << run.time.dt * 1e3 << " ms, "
            << to_string(o.problem.precision) << " on " << backend_words(backend, o.view.verbose) << "\n"
            << layouts << "  time loop     " << run.shot.step_seconds << " s (" << j["gpts_per_s"].get<double>()
            << " GPts/s, interior points x steps)\n"
            << "  wall time     " << run.clock.sentence() << "\n"
            << "  peak memory   " << format_bytes(double(peak_rss_bytes())) << "\n"
            << "  shot record   " << out << " (" << run.shot.nt << " samples x " << run.shot.nrec << " receivers"
            << (nsrc > 1 ? ", " + std::to_string(nsrc) + " simultaneous sources" : std::string()) << "), "
            << sidecar_path(out) << ", " << cfg << "\n";
}

}  // namespace

void register_forward(CLI::App& app) {
  auto o = std::make_shared<ForwardOptions>();
  CLI::App* cmd = app.add_subcommand("forward", "model a shot record (nt x nrec) on the default problem or your own");
  add_problem_options(cmd, o->problem, o->view, CudaOptions::device);
  cmd->add_option(
         "--out", o->out,
         "FILE.npy: one shot record (a sidecar FILE.json holds dt, nt, geometry, f0); several --src into one record "
         "fire at once (simultaneous sources). A survey, every source a shot (--src-grid, or each --src): FILE.sgy / "
         "FILE.segy (SEG-Y) or DIR, a new directory of records. A name without an ending is FILE.npy for one "
         "source, a directory for several; other endings are refused")
      ->capture_default_str()
      ->check(named_output());
  add_origin_and_wavelet_options(cmd, o->survey);
  add_layout_options(cmd, o->survey);
  cmd->callback([o, cmd] {
    if (o->problem.precision == Precision::float64)
      run<double>(*o, *cmd);
    else
      run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
