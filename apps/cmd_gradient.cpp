// revwave gradient: misfit and dJ/dm in a starting model, by full storage or optimal checkpointing.
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/setup/gradient_pictures.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/result_values.hpp"
#include "revwave/setup/run_phases.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

namespace {

struct GradientCmdOptions {
  GradientJobOptions job;
  Presentation view;
  SurveyOptions survey;
  std::string out = "gradient.npy";
  std::string png;
  std::string density_out;  // --density-gradient
};

template <class T>
void run(GradientCmdOptions& o, const CLI::App& cmd) {
  RunClock clock = RunClock::since_process_start();
  warn_unused_f0(cmd);
  clock.mark(phase::start_up);
  o.out = npy_output(o.out);
  if (!o.density_out.empty()) o.density_out = npy_output(o.density_out);
  o.job.density_gradient = !o.density_out.empty();
  refuse_unused_survey_options(o.job.observed, false, o.survey);
  if (gradient_is_survey(o.job, o.survey)) {
    run_survey_gradient<T>(o.job, o.view, o.survey, o.out, o.png, cmd, clock);
    return;
  }
  const std::string cfg = config_path_for(o.out);
  ProgressBar bar("gradient", !o.view.json);
  const Progress progress = [&](index_t d, index_t t) { bar(d, t); };
  GradientRun<T> run = run_gradient_job<T>(
      o.job,
      [&] {
        check_run_outputs(gradient_outputs(o.out, o.png, o.job.estimate_wavelet, o.density_out),
                          job_inputs(o.job, cmd));
        require_npy_ending("--out", o.out);
        if (!o.density_out.empty()) require_npy_ending("--density-gradient", o.density_out);
      },
      progress, std::move(clock));
  bar.finish();
  print_warnings(run.warnings);
  const BackendChoice& backend = run.backend;
  const GradientJob<T>& job = run.job;
  const Grid& grid = job.start.grid;
  const StrategyPlan& plan = run.plan;
  const StrategyReport& report = run.report;
  const CudaRunInfo& placement = run.placement;
  const GradientOutput& g = run.output;
  const index_t predicted = run.predicted_forward_steps;
  const index_t nrec = static_cast<index_t>(job.start.acquisition.receivers.size());

  OutputTransaction outputs_together;
  const std::vector<T> out_values = values_in_precision<T>(g.gradient, "the gradient");
  write_npy(o.out, {grid.shape[0], grid.shape[1], grid.shape[2]}, out_values.data());
  if (!o.density_out.empty()) {
    const std::vector<T> rho_values = values_in_precision<T>(g.density_gradient, "the density gradient");
    write_npy(o.density_out, {grid.shape[0], grid.shape[1], grid.shape[2]}, rho_values.data());
  }
  write_effective_config(cmd, cfg, {{"shape", shape_text(grid.shape)}}, unused_defaults(cmd));
  const std::vector<double>& wavelet = job.start.acquisition.wavelet;
  if (o.job.estimate_wavelet)
    write_npy(wavelet_path_for(o.out), {static_cast<std::int64_t>(wavelet.size())}, wavelet.data());
  run.clock.mark(phase::outputs);
  std::vector<std::string> pictures;
  if (!o.png.empty()) {
    const std::vector<double> traces(job.observed.begin(), job.observed.end());
    pictures = write_gradient_pictures(o.png, grid, g.gradient, traces, job.time.nt(), nrec, job.time.dt,
                                       job.observed_source == ObservedSource::record
                                           ? "observed data (" + o.job.observed.front() + ")"
                                           : "observed data, modelled in the true model");
    run.clock.mark(phase::pictures);
  }
  outputs_together.commit();
  run.clock.mark(phase::outputs);

  double norm2 = 0;
  for (double v : g.gradient) norm2 += v * v;
  const double ratio = double(g.stats.forward_steps) / double(g.stats.steps);
  if (o.view.json) {
    nlohmann::json j = gradient_summary(
        run, o.job, job.observed_source == ObservedSource::record ? o.job.observed.front() : std::string("modelled"));
    j["command"] = "gradient";
    j["seconds"]["total"] = run.clock.wall();
    j["out"] = o.out;
    if (!o.density_out.empty()) j["density_gradient"] = o.density_out;
    j["config"] = cfg;
    j["png"] = pictures;
    if (o.job.estimate_wavelet) j["wavelet"] = wavelet_path_for(o.out);
    print_json(j);
  } else {
    std::cout << "revwave gradient: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2]
              << " points, " << g.stats.steps << " steps of dt = " << simulation_time(job).dt * 1e3 << " ms, "
              << to_string(o.job.problem.precision) << " on " << backend_words(backend, o.view.verbose)
              << ", observed data "
              << (job.observed_source == ObservedSource::record ? o.job.observed.front() : "modelled in the true model")
              << "\n"
              << "  objective       " << g.stats.objective << misfit_note(o.job.misfit.kind) << "\n"
              << "  gradient norm   " << std::sqrt(norm2) << " (dJ/dm, misfit per s^2/m^2)\n"
              << "  strategy        " << plan.choice << "\n"
              << "  forward steps   " << g.stats.forward_steps << " (" << ratio << " x N; "
              << (plan.strategy == Strategy::online
                      ? "offline optimum for this N " + std::to_string(report.offline_forward_steps)
                      : "schedule predicts " + std::to_string(predicted))
              << (plan.strategy == Strategy::full ? "), all advances: the " + std::to_string(g.stats.reverse_steps) +
                                                        " reverse steps read the stored history"
                                                  : "), of which " + std::to_string(g.stats.reverse_steps) +
                                                        " reverse steps (each applies the forward operator once)")
              << "; stores " << g.stats.stores << ", restores " << g.stats.restores << "\n"
              << "  time            " << run.clock.sentence() << "\n"
              << "  memory          " << format_bytes(double(peak_rss_bytes())) << " peak, "
              << format_bytes(double(g.stats.wavefield_storage_bytes)) << " wavefield storage\n";
    std::cout << compression_line(plan.compression, g.stats.compression);
    if (backend.kind == Backend::cuda) {
      std::cout << "  GPU tiers       " << placement.tier_choice << "; the compute stream waited "
                << placement.seconds_spill << " s on pinned host copies\n";
    }
    if (!o.density_out.empty()) {
      double rho2 = 0;
      for (double v : g.density_gradient) rho2 += v * v;
      std::cout << "  density grad.   " << std::sqrt(rho2) << " (dJ/drho, misfit per kg/m^3), " << o.density_out
                << "\n";
    }
    std::cout << "  gradient        " << o.out << ", " << cfg << "\n";
    if (o.job.estimate_wavelet) std::cout << "  wavelet         " << wavelet_path_for(o.out) << " (estimated)\n";
    for (const auto& p : pictures) std::cout << "  picture         " << p << "\n";
  }
}

}  // namespace

void register_gradient(CLI::App& app) {
  auto o = std::make_shared<GradientCmdOptions>();
  CLI::App* cmd =
      app.add_subcommand("gradient", "FWI gradient dJ/dm of a misfit (L2 by default), with optimal checkpointing");
  add_gradient_job_options(cmd, o->job, o->view, CudaOptions::all);
  add_estimate_wavelet_option(cmd, o->job);
  cmd->add_option("--out", o->out, "gradient .npy, shape (nx, ny, nz), s^2/m^2 units of dJ/dm")
      ->capture_default_str()
      ->check(named_output());
  cmd->add_option("--png", o->png, "write PREFIX_gradient_{xz,yz,xy}.png and PREFIX_shot.png")->check(named_prefix());
  cmd->add_option("--density-gradient", o->density_out,
                  "also write dJ/drho, .npy of the model's shape (needs --density; a name without an ending gets "
                  ".npy)")
      ->check(named_output());
  add_origin_and_wavelet_options(cmd, o->survey);
  add_layout_options(cmd, o->survey);
  add_aperture_option(cmd, o->survey);
  add_segy_read_options(cmd, o->survey);
  cmd->get_option("--observed")->excludes(cmd->get_option("--src-grid"));
  cmd->get_option("--estimate-wavelet")->excludes(cmd->get_option("--wavelet"));
  cmd->callback([o, cmd] {
    if (o->job.problem.precision == Precision::float64)
      run<double>(*o, *cmd);
    else
      run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
