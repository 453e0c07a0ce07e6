// revwave gradient: misfit and dJ/dm in a starting model, by full storage or optimal checkpointing.
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/png_image.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

// Three central slices of the gradient and the shot record, for a first look.
std::vector<std::string> write_pictures(const std::string& prefix, const Grid& g, const std::vector<double>& grad,
                                        const std::vector<double>& traces, index_t nt, index_t nrec) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2];
  auto at = [&](index_t i, index_t j, index_t k) { return grad[static_cast<std::size_t>((i * ny + j) * nz + k)]; };
  const int up = static_cast<int>(std::max<index_t>(1, 400 / std::max({nx, ny, nz})));
  std::vector<std::string> files;
  std::vector<double> s;
  s.clear();  // depth section x-z at the middle y: rows are depth
  for (index_t k = 0; k < nz; ++k)
    for (index_t i = 0; i < nx; ++i) s.push_back(at(i, ny / 2, k));
  files.push_back(prefix + "_gradient_xz.png");
  write_png_signed(files.back(), s.data(), nz, nx, 0, up);
  s.clear();
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j) s.push_back(at(nx / 2, j, k));
  files.push_back(prefix + "_gradient_yz.png");
  write_png_signed(files.back(), s.data(), nz, ny, 0, up);
  s.clear();
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j) s.push_back(at(i, j, nz / 2));
  files.push_back(prefix + "_gradient_xy.png");
  write_png_signed(files.back(), s.data(), nx, ny, 0, up);
  files.push_back(prefix + "_shot.png");
  write_png_signed(files.back(), traces.data(), nt, nrec, 0, static_cast<int>(std::max<index_t>(1, 400 / std::max(nt, nrec))));
  return files;
}

namespace {

struct GradientCmdOptions {
  GradientJobOptions job;
  SurveyOptions survey;
  std::string out = "gradient.npy";
  std::string png;
};

template <class T>
void run(GradientCmdOptions& o, const CLI::App& cmd) {
  if (gradient_is_survey(o.job, o.survey)) {
    run_survey_gradient<T>(o.job, o.survey, o.out, o.png, cmd);
    return;
  }
  const auto t_start = std::chrono::steady_clock::now();
  const std::string cfg = config_path_for(o.out);
  ProgressBar bar("gradient", !o.job.problem.json);
  const Progress progress = [&](index_t d, index_t t) { bar(d, t); };
  const GradientRun<T> run = run_gradient_job<T>(o.job, [&] {
    std::vector<NamedPath> outputs = {{"--out", o.out}, {"the configuration written next to --out", cfg}};
    if (!o.png.empty()) {
      for (const char* suffix : {"_gradient_xz.png", "_gradient_yz.png", "_gradient_xy.png", "_shot.png"}) {
        outputs.push_back({"--png", o.png + suffix});
      }
    }
    refuse_overwriting_inputs(outputs, job_inputs(o.job, cmd));
  }, progress);
  bar.finish();
  const BackendChoice& backend = run.backend;
  const GradientJob<T>& job = run.job;
  const Grid& grid = job.start.grid;
  const StrategyPlan& plan = run.plan;
  const StrategyReport& report = run.report;
  const CudaRunInfo& cuda_info = run.cuda_info;
  const GradientOutput& g = run.output;
  const index_t predicted = run.predicted_forward_steps;
  const index_t nrec = static_cast<index_t>(job.start.acquisition.receivers.size());

  OutputTransaction outputs_together;
  std::vector<T> out_values(g.gradient.begin(), g.gradient.end());
  check_finite_result(out_values.data(), out_values.size(), std::string("the gradient in ") + (sizeof(T) == 4 ? "float" : "double"));
  write_npy(o.out, {grid.shape[0], grid.shape[1], grid.shape[2]}, out_values.data());
  write_effective_config(cmd, cfg);
  std::vector<std::string> pictures;
  if (!o.png.empty()) {
    const std::vector<double> traces(job.observed.begin(), job.observed.end());
    pictures = write_pictures(o.png, grid, g.gradient, traces, job.time.nt(), nrec);
  }
  outputs_together.commit();

  double norm2 = 0;
  for (double v : g.gradient) norm2 += v * v;
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  const double ratio = double(g.stats.forward_steps) / double(g.stats.steps);
  if (o.job.problem.json) {
    nlohmann::json j = gradient_summary(run, o.job, job.observed_source == "file" ? o.job.observed.front() : std::string("modelled"));
    j["command"] = "gradient";
    j["seconds"]["total"] = total;
    j["out"] = o.out;
    j["config"] = cfg;
    j["png"] = pictures;
    print_json(j);
  } else {
    std::cout << "revwave gradient: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2] << " points, "
              << g.stats.steps << " steps of dt = " << job.time.dt * 1e3 << " ms, " << to_string(o.job.problem.precision) << " on "
              << to_string(backend.kind) << (backend.note.empty() ? "" : " (" + backend.note + ")") << ", observed data " << (job.observed_source == "file" ? o.job.observed.front() : "modelled in the true model") << "\n"
              << "  objective       " << g.stats.objective << "\n"
              << "  gradient norm   " << std::sqrt(norm2) << " (dJ/dm, misfit per s^2/m^2)\n"
              << "  strategy        " << plan.choice << "\n"
              << "  forward steps   " << g.stats.forward_steps << " (" << ratio << " x N; "
              << (plan.strategy == Strategy::online ? "offline optimum for this N " + std::to_string(report.offline_forward_steps)
                                            : "schedule predicts " + std::to_string(predicted))
              << "), reverse steps " << g.stats.reverse_steps << ", stores "
              << g.stats.stores << ", restores " << g.stats.restores << "\n"
              << "  time            " << total << " s total: " << job.seconds_observed << " s observed data, "
              << g.stats.seconds_allocate << " s allocating fields, " << g.stats.seconds_forward << " s forward, " << g.stats.seconds_reverse << " s reverse\n"
              << "  memory          " << format_bytes(double(peak_rss_bytes())) << " peak, "
              << format_bytes(double(g.stats.wavefield_storage_bytes)) << " wavefield storage\n";
    std::cout << compression_line(plan.compression, g.stats.compression);
    if (backend.kind == Backend::cuda) {
      std::cout << "  GPU tiers       " << cuda_info.tier_choice << "; the compute stream waited " << cuda_info.seconds_spill
                << " s on pinned host copies\n";
    }
    std::cout
              << "  gradient        " << o.out << ", " << cfg << "\n";
    for (const auto& p : pictures) std::cout << "  picture         " << p << "\n";
  }
}

}  // namespace

void register_gradient(CLI::App& app) {
  auto o = std::make_shared<GradientCmdOptions>();
  CLI::App* cmd = app.add_subcommand("gradient", "FWI gradient dJ/dm of the L2 misfit, with optimal checkpointing");
  add_gradient_job_options(cmd, o->job, CudaOptions::all);
  cmd->add_option("--out", o->out, "gradient .npy, shape (nx, ny, nz), s^2/m^2 units of dJ/dm")->capture_default_str();
  cmd->add_option("--png", o->png, "write PREFIX_gradient_{xz,yz,xy}.png and PREFIX_shot.png");
  add_origin_and_wavelet_options(cmd, o->survey);
  add_layout_options(cmd, o->survey);
  add_aperture_option(cmd, o->survey);
  cmd->get_option("--observed")->excludes(cmd->get_option("--src-grid"));
  cmd->callback([o, cmd] {
    if (o->job.problem.precision == Precision::float64) run<double>(*o, *cmd);
    else run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
