// revwave gradient: misfit and dJ/dm in a starting model, by full storage or optimal checkpointing.
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gradient_job.hpp"
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
  finish_strategy_options(o.job);
  const BackendChoice backend = resolve_backend(o.job.problem.backend);
  refuse_cuda_options_on_cpu(o.job.problem, backend.name);
  o.job.strategy.backend = backend.name;
  apply_threads(o.job.problem.threads);
  const std::string cfg = config_path_for(o.out);
  std::vector<NamedPath> outputs = {{"--out", o.out}, {"the configuration written next to --out", cfg}};
  if (!o.png.empty()) {
    for (const char* suffix : {"_gradient_xz.png", "_gradient_yz.png", "_gradient_xy.png", "_shot.png"}) {
      outputs.push_back({"--png", o.png + suffix});
    }
  }
  refuse_overwriting_inputs(outputs, job_inputs(o.job, cmd));
  GradientJob<T> job = prepare_gradient_job<T>(o.job);
  const Grid& grid = job.start.grid;
  // On the CPU the run holds m, (u, u_prev), the reverse step's u[n+1], (lam, lam_prev) and the
  // gradient, plus the gradient's interior copies; the CUDA backend keeps its fields on the device.
  const int fields = backend.name == "cpu" ? 9 : 2;
  require_run_memory(job.start, job.time, sizeof(T), fields, 2, "the gradient's working set");
  const std::size_t working = run_bytes(job.start, job.time, sizeof(T), fields, 2);
  const StrategyPlan plan = plan_strategy(o.job.strategy, job.time.steps, field_layout<T>(grid), working);
  model_observed(job, backend.name, cuda_budgets(o.job.problem));

  const Problem<T> problem = make_problem<T>(grid, job.start.model, job.start.acquisition, job.time);
  const index_t expected = static_cast<index_t>(job.observed.size());
  if (expected != job.time.nt() * problem.rec.count) {
    throw InputError("observed data have " + std::to_string(job.observed.size()) + " values, expected nt x nrec = " +
                     std::to_string(job.time.nt()) + " x " + std::to_string(problem.rec.count));
  }
  ProgressBar bar("gradient", !o.job.problem.json);
  const Progress progress = [&](index_t d, index_t t) { bar(d, t); };
  StrategyReport report;
  CudaRunInfo cuda_info;
  GradientOutput g;
  if (backend.name == "cuda") {
    g = cuda_gradient(problem, job.observed.data(), o.job.strategy, plan, cuda_budgets(o.job.problem), &cuda_info, progress);
    if (plan.strategy == "online") report.offline_forward_steps = optimal_forward_steps(g.stats.steps, plan.snaps);
  } else {
    CpuPropagator<T> prop(problem);
    g = run_gradient(prop, job.observed.data(), o.job.strategy, plan, progress, &report);
  }
  bar.finish();
  // A result that is not finite is never written as a success.
  check_finite_result(job.observed.data(), job.observed.size(), "the observed data (modelled in the true model)");
  check_finite_result(&g.stats.objective, 1, "the objective");
  check_finite_result(g.gradient.data(), g.gradient.size(), "the gradient");
  // The CUDA backend may run revolve as two levels when its slots do not fit on the device.
  const index_t predicted = cuda_info.predicted_forward_steps > 0 ? cuda_info.predicted_forward_steps
                                                                  : plan.predicted_forward_steps;

  OutputTransaction outputs_together;
  std::vector<T> out_values(g.gradient.begin(), g.gradient.end());
  check_finite_result(out_values.data(), out_values.size(), std::string("the gradient in ") + (sizeof(T) == 4 ? "float" : "double"));
  write_npy(o.out, {grid.shape[0], grid.shape[1], grid.shape[2]}, out_values.data());
  write_effective_config(cmd, cfg);
  std::vector<std::string> pictures;
  if (!o.png.empty()) {
    const std::vector<double> traces(job.observed.begin(), job.observed.end());
    pictures = write_pictures(o.png, grid, g.gradient, traces, job.time.nt(), problem.rec.count);
  }
  outputs_together.commit();

  double norm2 = 0;
  for (double v : g.gradient) norm2 += v * v;
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  const double ratio = double(g.stats.forward_steps) / double(g.stats.steps);
  if (o.job.problem.json) {
    nlohmann::json j;
    j["command"] = "gradient";
    j["objective"] = g.stats.objective;
    j["gradient_norm"] = std::sqrt(norm2);
    j["strategy"] = plan.strategy;
    j["steps"] = g.stats.steps;
    j["nt"] = job.time.nt();
    j["dt"] = job.time.dt;
    j["forward_steps"] = g.stats.forward_steps;
    j["predicted_forward_steps"] = predicted;
    if (plan.strategy == "online") {
      j["offline_forward_steps"] = report.offline_forward_steps;
      j["online_ratio"] = double(g.stats.forward_steps) / double(report.offline_forward_steps);
      j["max_steps"] = job.time.steps;
    }
    if (plan.strategy == "multilevel") {
      j["predicted_time_steps"] = report.predicted_time;
      j["tiers"] = nlohmann::json::array();
      for (const Tier& t : report.tiers) {
        j["tiers"].push_back({{"name", t.name}, {"slots", t.slots}, {"store_cost", t.store_cost}, {"restore_cost", t.restore_cost}});
      }
    }
    j["reverse_steps"] = g.stats.reverse_steps;
    j["recompute_ratio"] = ratio;
    j["snaps"] = plan.snaps;
    j["stores"] = g.stats.stores;
    j["restores"] = g.stats.restores;
    j["checkpoint_bytes"] = plan.strategy == "full" ? 0 : plan.storage_bytes;
    j["slot_bytes"] = plan.slot_bytes;
    j["wavefield_storage_bytes"] = g.stats.wavefield_storage_bytes;
    j["checkpoint_copy_bytes"] = g.stats.checkpoint_copy_bytes;
    const CompressionStats& c = g.stats.compression;
    j["compression"] = {{"mode", plan.compression.text()},
                        {"ratio", c.ratio()},
                        {"raw_bytes", c.raw_bytes},
                        {"compressed_bytes", c.compressed_bytes},
                        {"fields_compressed", c.fields_compressed},
                        {"fields_decompressed", c.fields_decompressed},
                        {"seconds_compress", c.seconds_compress},
                        {"seconds_decompress", c.seconds_decompress}};
    j["store"] = plan.strategy == "full" || plan.strategy == "multilevel" ? "memory" : o.job.strategy.store.value_or("memory");
    j["seconds"] = {{"total", total},
                    {"observed", job.seconds_observed},
                    {"forward", g.stats.seconds_forward},
                    {"reverse", g.stats.seconds_reverse},
                    {"checkpoint_copies", g.stats.seconds_copies}};
    j["peak_rss_bytes"] = peak_rss_bytes();
    if (backend.name == "cuda") {
      j["cuda"] = {{"device_slots", cuda_info.device_slots}, {"host_slots", cuda_info.host_slots},
                   {"history_tier", cuda_info.history_tier}, {"tiers", cuda_info.tier_choice},
                   {"seconds_spill", cuda_info.seconds_spill}};
    }
    j["shape"] = grid.shape;
    j["space_order"] = grid.space_order;
    j["backend"] = backend.name;
    j["backend_note"] = backend.note;
    j["precision"] = o.job.problem.precision;
    j["observed"] = job.observed_source == "file" ? o.job.observed.front() : std::string("modelled");
    j["out"] = o.out;
    j["config"] = cfg;
    j["png"] = pictures;
    print_json(j);
  } else {
    std::cout << "revwave gradient: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2] << " points, "
              << g.stats.steps << " steps of dt = " << job.time.dt * 1e3 << " ms, " << o.job.problem.precision << " on "
              << backend.name << (backend.note.empty() ? "" : " (" + backend.note + ")") << ", observed data " << (job.observed_source == "file" ? o.job.observed.front() : "modelled in the true model") << "\n"
              << "  objective       " << g.stats.objective << "\n"
              << "  gradient norm   " << std::sqrt(norm2) << " (dJ/dm, misfit per s^2/m^2)\n"
              << "  strategy        " << plan.choice << "\n"
              << "  forward steps   " << g.stats.forward_steps << " (" << ratio << " x N; "
              << (plan.strategy == "online" ? "offline optimum for this N " + std::to_string(report.offline_forward_steps)
                                            : "schedule predicts " + std::to_string(predicted))
              << "), reverse steps " << g.stats.reverse_steps << ", stores "
              << g.stats.stores << ", restores " << g.stats.restores << "\n"
              << "  time            " << total << " s total: " << job.seconds_observed << " s observed data, "
              << g.stats.seconds_forward << " s forward, " << g.stats.seconds_reverse << " s reverse\n"
              << "  memory          " << format_bytes(double(peak_rss_bytes())) << " peak, "
              << format_bytes(double(g.stats.wavefield_storage_bytes)) << " wavefield storage\n";
    if (plan.compression.enabled()) {
      const CompressionStats& c = g.stats.compression;
      std::cout << "  compression     " << plan.compression.text() << ": " << c.fields_compressed << " fields encoded, ratio "
                << c.ratio() << " (" << format_bytes(double(c.raw_bytes)) << " -> " << format_bytes(double(c.compressed_bytes))
                << "), " << c.seconds_compress << " s compressing, " << c.seconds_decompress << " s decompressing (lossy: "
                << "the gradient differs from full's within the mode's error)\n";
    }
    if (backend.name == "cuda") {
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
    if (o->job.problem.precision == "double") run<double>(*o, *cmd);
    else run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
