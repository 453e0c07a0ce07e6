// revwave forward: model one shot record and write it with its sidecar.
#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "problem_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/io/shot_record.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {
namespace {

struct ForwardOptions {
  ProblemOptions problem;
  SurveyOptions survey;
  std::string out = "shot.npy";
};

template <class T>
void run(const ForwardOptions& o, const CLI::App& cmd) {
  if (forward_is_survey(o.survey, o.out) || !o.survey.wavelet.empty()) {
    run_survey_forward<T>(o.problem, o.survey, o.out, cmd);
    return;
  }
  if (launched_size() > 1) {
    quiet_unless_root();
    throw InputError("revwave forward runs in one process: mpirun -n K is for revwave gradient");
  }
  const auto t_start = std::chrono::steady_clock::now();
  const BackendChoice backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, backend.kind);
  const std::string cfg = config_path_for(o.out);
  std::vector<NamedPath> inputs = problem_inputs(o.problem);
  for (const NamedPath& c : config_inputs(cmd)) inputs.push_back(c);
  refuse_overwriting_inputs({{"--out", o.out}, {"the sidecar of --out", sidecar_path(o.out)},
                             {"the configuration written next to --out", cfg}},
                            inputs);
  const ProblemSetup setup = make_setup(o.problem);
  const TimeAxis time = make_time(o.problem, setup);
  apply_threads(o.problem.threads);
  // m and (u, u_prev) on the CPU; the record, its copy for the file and the file's own precision.
  require_run_memory(setup, time, sizeof(T), working_fields(backend.kind, Workload::forward), 3, "the forward run");
  const Problem<T> problem = make_problem<T>(setup.grid, setup.model, setup.acquisition, time);
  ProgressBar bar("forward", !o.problem.json);
  const Progress progress = [&](index_t d, index_t t) { bar(d, t); };
  const ShotData<T> shot = run_on_backend(backend.kind, problem, cuda_budgets(o.problem), ForwardCall<T>{progress});
  bar.finish();
  check_finite_result(shot.traces.data(), shot.traces.size(), "the shot record");

  OutputTransaction outputs_together;
  ShotRecordMeta meta;
  meta.dt = time.dt;
  meta.nt = time.nt();
  meta.f0 = setup.acquisition.f0;
  meta.t0 = setup.acquisition.t0;
  meta.sources = setup.acquisition.sources;
  meta.receivers = setup.acquisition.receivers;
  meta.precision = sizeof(T) == 4 ? "float32" : "float64";
  write_shot_record(o.out, meta, shot.traces);
  write_effective_config(cmd, cfg);
  outputs_together.commit();

  const double interior_steps = double(setup.grid.interior_points()) * double(time.steps);
  const double gpts = interior_steps / shot.step_seconds / 1e9;
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (o.problem.json) {
    nlohmann::json j;
    j["command"] = "forward";
    j["nt"] = time.nt();
    j["steps"] = time.steps;
    j["dt"] = time.dt;
    j["shape"] = setup.grid.shape;
    j["spacing"] = setup.grid.spacing;
    j["nbl"] = setup.grid.nbl;
    j["space_order"] = setup.grid.space_order;
    j["backend"] = to_string(backend.kind);
    j["backend_note"] = backend.note;
    j["precision"] = to_string(o.problem.precision);
    j["sources"] = setup.acquisition.sources.size();
    j["receivers"] = setup.acquisition.receivers.size();
    j["seconds"] = shot.step_seconds;
    j["total_seconds"] = total;
    j["gpts_per_s"] = gpts;
    j["peak_rss_bytes"] = peak_rss_bytes();
    j["out"] = o.out;
    j["sidecar"] = sidecar_path(o.out);
    j["config"] = cfg;
    print_json(j);
  } else {
    std::cout << "revwave forward: " << setup.grid.shape[0] << " x " << setup.grid.shape[1] << " x " << setup.grid.shape[2]
              << " points (h = " << setup.grid.spacing << " m, nbl " << setup.grid.nbl << ", space order "
              << setup.grid.space_order << "), " << time.steps << " steps of dt = " << time.dt * 1e3 << " ms, "
              << to_string(o.problem.precision) << " on " << to_string(backend.kind) << (backend.note.empty() ? "" : " (" + backend.note + ")") << "\n"
              << "  time loop     " << shot.step_seconds << " s (" << gpts << " GPts/s, interior points x steps)\n"
              << "  peak memory   " << format_bytes(double(peak_rss_bytes())) << "\n"
              << "  shot record   " << o.out << " (" << shot.nt << " samples x " << shot.nrec << " receivers), "
              << sidecar_path(o.out) << ", " << cfg << "\n";
  }
}

}  // namespace

void register_forward(CLI::App& app) {
  auto o = std::make_shared<ForwardOptions>();
  CLI::App* cmd = app.add_subcommand("forward", "model a shot record (nt x nrec) on the default problem or your own");
  add_problem_options(cmd, o->problem, CudaOptions::device);
  cmd->add_option("--out", o->out,
                  "shot record .npy (a sidecar .json holds dt, nt, geometry, f0); a survey (--src-grid, or every --src a "
                  "shot): FILE.sgy / FILE.segy (SEG-Y) or a new directory of records")
      ->capture_default_str();
  add_origin_and_wavelet_options(cmd, o->survey);
  add_layout_options(cmd, o->survey);
  cmd->callback([o, cmd] {
    if (o->problem.precision == Precision::float64) run<double>(*o, *cmd);
    else run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
