// revwave invert: full-waveform inversion of a survey (revwave/inversion), band after band, with
// every iteration's model, pictures, history line and L-BFGS state written together into --out-dir,
// and --resume DIR going on from the last of them. Under mpirun every process runs the same
// optimiser on the root's J and g; rank 0 writes.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "number_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/inversion/inversion.hpp"
#include "revwave/inversion/survey_objective.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/png_image.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {
namespace {

struct InvertCmdOptions {
  GradientJobOptions job;
  SurveyOptions survey;
  std::optional<double> vmin, vmax;
  int memory = 5;
  int iterations = 10;
  double tolerance = 1e-4;
  std::optional<double> first_step;
  std::string mask;
  std::optional<double> mask_depth;
  std::string precondition = "illumination";
  double smooth = 0;
  std::string bands;
  std::string out_dir = "inversion";
  std::string resume;
};

std::vector<double> parse_bands(const std::string& text) {
  std::vector<double> bands;
  if (text.empty()) return bands;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const double f = parse_number("--bands", item, positive(), "Hz");
    if (!bands.empty() && !(f > bands.back())) {
      throw InputError("--bands '" + text + "' is invalid: the cut-offs must increase (" + number_text(f) + " Hz after " +
                       number_text(bands.back()) + " Hz)");
    }
    bands.push_back(f);
  }
  if (bands.empty() || text.back() == ',') throw InputError("--bands '" + text + "' is invalid: F1,F2,... cut-offs in Hz");
  return bands;
}

template <class T>
struct InvertJob {
  Grid grid;
  VelocityModel start;
  VelocityModel truth;  // modelled data only
  bool has_truth = false;
  Survey survey;        // with observed data
  SurveyRunOptions run;
  BackendChoice backend;
  InversionSettings settings;
  std::string dir;
  bool resuming = false;
  std::string fingerprint;
};

std::string fingerprint_of(const Grid& g, const VelocityModel& start, const Survey& survey, const InversionSettings& s,
                           double aperture, const std::string& precision) {
  std::uint64_t h = fnv1a(g.shape.data(), sizeof g.shape);
  const double scalars[] = {g.spacing, double(g.nbl), double(g.space_order), s.vmin, s.vmax, double(s.lbfgs_memory),
                            s.tolerance, s.first_step, double(s.max_evaluations), double(s.illumination), s.smooth, aperture};
  h = fnv1a(scalars, sizeof scalars, h);
  h = fnv1a(precision.data(), precision.size(), h);
  h = fnv1a(s.bands.data(), s.bands.size() * sizeof(double), h);
  h = fnv1a(s.weights.data(), s.weights.size() * sizeof(double), h);
  h = fnv1a(start.velocity.data(), start.velocity.size() * sizeof(double), h);
  for (const Shot& shot : survey.shots) {
    const double t[] = {shot.time.dt, double(shot.time.steps), shot.acquisition.f0, shot.acquisition.t0};
    h = fnv1a(t, sizeof t, h);
    for (const auto& p : shot.acquisition.sources) h = fnv1a(p.data(), sizeof(double) * 3, h);
    for (const auto& p : shot.acquisition.receivers) h = fnv1a(p.data(), sizeof(double) * 3, h);
    h = fnv1a(shot.wavelet.data(), shot.wavelet.size() * sizeof(double), h);
    h = fnv1a(shot.data.data(), shot.data.size() * sizeof(double), h);
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

template <class T>
InvertJob<T> prepare(InvertCmdOptions& o, const CLI::App& cmd, const MpiSession& mpi) {
  InvertJob<T> job;
  GradientJobOptions& go = o.job;
  finish_strategy_options(go);
  job.backend = resolve_backend(go.problem.backend);
  refuse_cuda_options_on_cpu(go.problem, job.backend.kind);
  go.strategy.backend = job.backend.kind;
  apply_threads_per_process(go.problem.threads, mpi);
  if (!o.vmin || !o.vmax) throw InputError("--vmin and --vmax are required: the velocities the inversion may take (m/s)");
  job.settings.vmin = *o.vmin;
  job.settings.vmax = *o.vmax;
  if (!(job.settings.vmax > job.settings.vmin)) {
    throw InputError("--vmax " + number_text(*o.vmax) + " m/s is invalid: it must exceed --vmin " + number_text(*o.vmin) + " m/s");
  }
  const SurveyOptions& so = o.survey;
  if (so.aperture != -1 && !(std::isfinite(so.aperture) && so.aperture >= 0)) {
    throw InputError("--aperture " + std::to_string(so.aperture) + " m is invalid: a finite distance >= 0");
  }

  // Where the run writes: a new directory, or the one it resumes.
  job.resuming = !o.resume.empty();
  job.dir = job.resuming ? o.resume : o.out_dir;
  if (job.resuming && cmd.get_option("--out-dir")->count() > 0 && !same_file(o.out_dir, o.resume)) {
    throw InputError("--out-dir " + o.out_dir + " and --resume " + o.resume + " differ: a resumed inversion writes where it began");
  }
  const std::string state_path = job.dir + "/state.bin";
  std::error_code ec;
  if (job.resuming && !std::filesystem::exists(state_path, ec)) {
    throw InputError("--resume " + job.dir + ": no inversion state there (" + state_path + " is missing)");
  }
  if (!job.resuming && std::filesystem::exists(state_path, ec)) {
    throw InputError("--out-dir " + job.dir + " already holds an inversion (" + state_path +
                     "): --resume " + job.dir + " continues it, or choose another --out-dir");
  }
  if (std::filesystem::exists(job.dir, ec) && !std::filesystem::is_directory(job.dir, ec)) {
    throw InputError("--out-dir " + job.dir + " exists and is not a directory");
  }
  std::vector<NamedPath> outputs = {{"--out-dir", job.dir + "/model.npy"},
                                    {"--out-dir", state_path},
                                    {"--out-dir", job.dir + "/start_model.npy"},
                                    {"--out-dir", job.dir + "/true_model.npy"}};
  std::vector<NamedPath> inputs = job_inputs(go, cmd);
  if (!o.mask.empty()) inputs.push_back({"--mask", o.mask});
  refuse_overwriting_inputs(outputs, inputs);

  // The inputs: observed data read, or modelled in the true model.
  if (!go.observed.empty()) {
    ObservedSurvey read = read_observed_survey(go.problem, go.f0_given, go.observed, so);
    job.grid = read.setup.grid;
    job.start = std::move(read.setup.model);
    job.survey = std::move(read.survey);
  } else {
    GradientJob<T> single = prepare_gradient_job<T>(go);
    job.grid = single.start.grid;
    job.start = single.start.model;
    job.truth = single.truth;
    job.has_truth = true;
    TimeAxis time = single.time;
    if (!go.problem.dt) {
      // The default dt is stable for every velocity the inversion may reach, not only the models'.
      ProblemSetup timing = single.start;
      timing.model = homogeneous_model({2, 2, 2}, std::max({job.settings.vmax, max_velocity(job.truth), max_velocity(job.start)}));
      time = make_time(go.problem, timing);
    }
    job.survey = layout_survey(make_layout(so, single.start, time), job.grid);
    job.survey.description = "modelled in the true model, " + job.survey.description;
  }
  job.run.strategy = go.strategy;
  job.run.backend = job.backend.kind;
  job.run.budgets = cuda_budgets(go.problem);
  job.run.aperture = so.aperture;
  if (job.backend.kind == Backend::cuda) {
    const auto devices = static_cast<int>(cuda_devices().size());
    job.run.budgets.device = devices > 0 ? mpi.local_rank() % devices : 0;
  }
  // The data are modelled before the run (every shot has data then); for the check, the true model
  // stands in for them. No pointer into `job` outlives this function (it is moved).
  if (job.has_truth) job.run.true_model = &job.truth;
  check_survey_run<T>(job.survey, job.grid, job.start, job.run);
  job.run.true_model = nullptr;
  // --vmax must keep every shot's time step stable: the inversion may reach it anywhere.
  for (const Shot& shot : job.survey.shots) {
    try {
      check_stable(shot.time.dt, job.grid, job.settings.vmax);
    } catch (const InputError& e) {
      throw InputError("--vmax " + number_text(job.settings.vmax) + " m/s is too fast for " + shot.name + ": " + e.what());
    }
  }
  InversionSettings& s = job.settings;
  s.lbfgs_memory = o.memory;
  s.iterations = o.iterations;
  s.tolerance = o.tolerance;
  s.first_step = o.first_step.value_or(0.0);
  s.illumination = o.precondition == "illumination";
  s.smooth = o.smooth / job.grid.spacing;
  s.bands = parse_bands(o.bands);
  if (!o.mask.empty()) {
    const NpyArray a = read_npy(o.mask);
    check_mask(a.data, a.shape, job.grid, o.mask);
    s.weights = a.data;
  } else if (o.mask_depth) {
    s.weights = depth_mask(job.grid, *o.mask_depth);
  }
  velocity_bounds(job.grid, job.start.velocity, s.vmin, s.vmax, s.weights);  // refuses a start outside them
  for (double f : s.bands) band_survey(Survey{{job.survey.shots.front()}, ""}, f);  // refuses a cut-off above Nyquist
  return job;
}

// Slices through the middle of model - reference (x-z, y-z, x-y) on one colour scale (clip 0: the
// 99th percentile). The inversion draws every model against the starting model (the update; the
// truth too when known, on the same scale), and the starting model against its mean.
std::vector<std::string> write_slices(const std::string& prefix, const Grid& g, const std::vector<double>& model,
                                      const std::vector<double>& reference, double clip) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2];
  auto at = [&](index_t i, index_t j, index_t k) {
    const auto idx = static_cast<std::size_t>((i * ny + j) * nz + k);
    return model[idx] - reference[idx];
  };
  const int up = static_cast<int>(std::max<index_t>(1, 400 / std::max({nx, ny, nz})));
  std::vector<std::string> files;
  std::vector<double> s;
  for (index_t k = 0; k < nz; ++k)
    for (index_t i = 0; i < nx; ++i) s.push_back(at(i, ny / 2, k));
  files.push_back(prefix + "_xz.png");
  write_png_signed(files.back(), s.data(), nz, nx, clip, up);
  s.clear();
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j) s.push_back(at(nx / 2, j, k));
  files.push_back(prefix + "_yz.png");
  write_png_signed(files.back(), s.data(), nz, ny, clip, up);
  s.clear();
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j) s.push_back(at(i, j, nz / 2));
  files.push_back(prefix + "_xy.png");
  write_png_signed(files.back(), s.data(), nx, ny, clip, up);
  return files;
}

double largest_change(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

template <class T>
void write_model(const std::string& path, const Grid& g, const std::vector<double>& v) {
  const std::vector<T> values(v.begin(), v.end());
  write_npy(path, {g.shape[0], g.shape[1], g.shape[2]}, values.data());
}

// Testing only: REVWAVE_INVERT_KILL_AFTER=K ends the process by SIGKILL right after iteration K's
// outputs are in place, as a power cut or an out-of-memory kill would: --resume must go on from there.
void kill_if_asked(int iteration) {
  const char* v = std::getenv("REVWAVE_INVERT_KILL_AFTER");
  if (v != nullptr && *v != '\0' && std::atoi(v) == iteration) std::raise(SIGKILL);
}

std::string padded_iteration(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "%04d", k);
  return text;
}

template <class T>
void run_on(MpiSession& mpi, InvertCmdOptions& o, const CLI::App& cmd) {
  const auto t_start = std::chrono::steady_clock::now();
  const bool root = mpi.rank() == 0;
  const bool talk = root && !o.job.problem.json;
  InvertJob<T> job;
  InversionState state;
  std::vector<std::string> history;
  std::exception_ptr failure;
  try {
    job = prepare<T>(o, cmd, mpi);
    if (job.has_truth) {
      if (talk) std::cout << "revwave invert: modelling the observed data of " << job.survey.shots.size() << " shots in the true model\n";
      survey_forward<T>(job.grid, job.truth, job.survey, job.backend.kind, job.run.budgets);
    }
    job.fingerprint = fingerprint_of(job.grid, job.start, job.survey, job.settings, job.run.aperture, to_string(o.job.problem.precision));
    if (job.resuming) {
      state = load_inversion_state(job.dir + "/state.bin");
      if (state.fingerprint != job.fingerprint) {
        throw InputError("--resume " + job.dir + ": that inversion ran on other inputs or settings (fingerprint " +
                         state.fingerprint + ", this run's " + job.fingerprint + "): resume with the options it began with");
      }
      if (state.model.size() != job.start.velocity.size()) throw IoError(job.dir + "/state.bin: the model has the wrong size");
      history = read_lines(job.dir + "/history.jsonl");
    } else {
      state.fingerprint = job.fingerprint;
      if (root) std::filesystem::create_directories(job.dir);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  mpi.agree(failure);

  const Grid& grid = job.grid;
  const double clip = job.has_truth ? largest_change(job.truth.velocity, job.start.velocity) : 0.0;
  const auto runner = mpi.runner();
  const BandProblem band_problem = survey_band_problem<T>(grid, job.survey, job.run, *runner);
  const std::vector<double> bands = job.settings.bands.empty() ? std::vector<double>{0.0} : job.settings.bands;
  double last_objective = std::nan("");
  struct BandRun {
    int band = 0;
    double cutoff = 0, objective_start = 0, objective_end = 0;
    int iterations = 0;
    std::string reason;
  };
  std::vector<BandRun> runs;  // the bands this run worked on
  std::vector<std::string> pictures;

  if (root && !job.resuming) {
    // The pictures of the start (and of the truth), against the starting model, once.
    OutputTransaction together;
    if (job.has_truth) {
      write_model<T>(job.dir + "/true_model.npy", grid, job.truth.velocity);
      pictures = write_slices(job.dir + "/true", grid, job.truth.velocity, job.start.velocity, clip);
    }
    write_model<T>(job.dir + "/start_model.npy", grid, job.start.velocity);
    double mean = 0;
    for (double v : job.start.velocity) mean += v;
    mean /= static_cast<double>(job.start.velocity.size());
    const std::vector<double> level(job.start.velocity.size(), mean);
    write_slices(job.dir + "/start", grid, job.start.velocity, level, 0.0);
    together.commit();
  }

  // Everything of one iteration (or a band's end) appears together: model, pictures, history, state.
  const auto write_all = [&](const InversionState& s, const nlohmann::json& line, bool model) {
    std::exception_ptr failed;
    if (root) {
      try {
        history.push_back(line.dump());
        OutputTransaction together;
        if (model) {
          write_model<T>(job.dir + "/model_" + padded_iteration(s.iteration) + ".npy", grid, s.model);
          write_model<T>(job.dir + "/model.npy", grid, s.model);
          pictures = write_slices(job.dir + "/model", grid, s.model, job.start.velocity, clip);
        }
        write_file_atomically(job.dir + "/history.jsonl", [&](std::ostream& os) {
          for (const std::string& l : history) os << l << "\n";
        });
        save_inversion_state(job.dir + "/state.bin", s);
        together.commit();
      } catch (...) {
        failed = std::current_exception();
      }
    }
    mpi.agree(failed);
  };

  InversionHooks hooks;
  hooks.band_start = [&](int band, double cutoff, double objective) {
    last_objective = objective;
    runs.push_back({band + 1, cutoff, objective, objective, 0, "running"});
    if (talk) {
      std::cout << "band " << band + 1 << "/" << bands.size() << ": "
                << (cutoff > 0 ? "data and wavelet low-passed at " + number_text(cutoff) + " Hz" : std::string("the data as they are"))
                << ", J = " << objective << "\n";
    }
  };
  hooks.iteration = [&](const InversionState& s, const IterationRecord& r) {
    last_objective = r.objective;
    runs.back().objective_end = r.objective;
    ++runs.back().iterations;
    nlohmann::json j;
    j["event"] = "iteration";
    j["iteration"] = r.iteration;
    j["band"] = r.band + 1;
    j["cutoff_hz"] = r.cutoff;
    j["objective"] = r.objective;
    j["objective_before"] = r.objective_before;
    j["gradient_norm"] = r.gradient_norm;
    j["step"] = r.step;
    j["evaluations"] = r.evaluations;
    j["memory_reset"] = r.memory_reset;
    j["seconds"] = r.seconds;
    write_all(s, j, true);
    kill_if_asked(s.iteration);
    if (talk) {
      std::cout << "  iteration " << r.iteration << ": J = " << r.objective << " (" << 100.0 * (r.objective / r.objective_before - 1.0)
                << " %), |g| = " << r.gradient_norm << ", step " << r.step << ", " << r.evaluations << " evaluations, " << r.seconds
                << " s\n";
    }
  };
  hooks.band_end = [&](const InversionState& s, int band, BandEnd reason) {
    nlohmann::json j;
    j["event"] = "band_end";
    j["band"] = band + 1;
    j["iteration"] = s.iteration;
    j["reason"] = to_string(reason);
    j["objective"] = last_objective;
    runs.back().reason = to_string(reason);
    write_all(s, j, false);
    if (talk) {
      const char* why = reason == BandEnd::iterations          ? "--iterations reached"
                        : reason == BandEnd::relative_decrease ? "the objective fell by less than --tolerance"
                        : reason == BandEnd::line_search_failed ? "the line search found no decrease (twice)"
                                                                : "the projected gradient is zero";
      std::cout << "  band " << band + 1 << " ends after iteration " << s.iteration << ": " << why << "\n";
    }
  };

  if (talk) {
    std::cout << "revwave invert: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2] << " points, "
              << job.survey.shots.size() << " shots (" << job.survey.description << "), " << to_string(o.job.problem.precision) << " on "
              << to_string(job.backend.kind) << ", " << mpi.size() << (mpi.size() == 1 ? " process" : " processes") << "\n";
    if (job.resuming) std::cout << "  resuming " << job.dir << " after iteration " << state.iteration << "\n";
  }
  if (state.band >= static_cast<int>(bands.size())) {
    if (talk) std::cout << "  every band of " << job.dir << " has ended: nothing left to do\n";
  } else {
    run_inversion(grid, job.start.velocity, job.settings, band_problem, state, hooks);
  }
  if (!root) return;

  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  if (o.job.problem.json) {
    nlohmann::json j;
    j["command"] = "invert";
    j["iterations"] = state.iteration;
    j["objective"] = last_objective;
    j["bands"] = bands;
    j["band_ends"] = nlohmann::json::array();
    for (BandEnd e : state.ended) j["band_ends"].push_back(to_string(e));
    j["this_run"] = nlohmann::json::array();
    for (const BandRun& b : runs) {
      j["this_run"].push_back({{"band", b.band}, {"cutoff_hz", b.cutoff}, {"objective_start", b.objective_start},
                               {"objective_end", b.objective_end}, {"iterations", b.iterations}, {"end", b.reason}});
    }
    j["out_dir"] = job.dir;
    j["seconds"] = total;
    j["fingerprint"] = job.fingerprint;
    print_json(j);
    return;
  }
  std::cout << "  done: " << state.iteration << " iterations in all, " << total << " s";
  for (const BandRun& b : runs) {
    std::cout << "\n  band " << b.band << "          J " << b.objective_start << " -> " << b.objective_end << " ("
              << 100.0 * (b.objective_end / b.objective_start - 1.0) << " %) in " << b.iterations << " iterations";
  }
  std::cout << "\n  model           " << job.dir << "/model.npy (model_NNNN.npy per iteration, history.jsonl, state.bin)\n";
  for (const std::string& p : pictures) std::cout << "  picture         " << p << "\n";
}

template <class T>
void run(InvertCmdOptions& o, const CLI::App& cmd) {
  quiet_unless_root();
  MpiSession mpi;
  try {
    run_on<T>(mpi, o, cmd);
  } catch (...) {
    if (mpi.rank() == 0) throw;  // every process has the error; rank 0 reports it
  }
}

}  // namespace

void register_invert(CLI::App& app) {
  auto o = std::make_shared<InvertCmdOptions>();
  CLI::App* cmd = app.add_subcommand("invert", "full-waveform inversion: L-BFGS on the velocity, band after band, resumable");
  add_gradient_job_options(cmd, o->job, CudaOptions::all);
  add_origin_and_wavelet_options(cmd, o->survey);
  add_layout_options(cmd, o->survey);
  add_aperture_option(cmd, o->survey);
  cmd->get_option("--observed")->excludes(cmd->get_option("--src-grid"));
  add_number(cmd, "--vmin", o->vmin, positive(), "m/s", "smallest velocity the inversion may take (m/s, required)");
  add_number(cmd, "--vmax", o->vmax, positive(), "m/s",
             "largest velocity the inversion may take (m/s, required; the data's dt must be stable for it)");
  add_integer(cmd, "--lbfgs-memory", o->memory, int_within(1, 100), "L-BFGS curvature pairs kept");
  add_integer(cmd, "--iterations", o->iterations, int_within(1, 100000), "iterations per band at most");
  add_number(cmd, "--tolerance", o->tolerance, within(0, 1), "",
             "a band ends when an iteration lowers the objective by less than this fraction of it");
  add_number(cmd, "--first-step", o->first_step, positive(), "m/s",
             "largest velocity change of a band's first trial step (default 2% of --vmax)");
  auto* mask = cmd->add_option("--mask", o->mask, "weights in [0, 1] per grid point (.npy, shape of the model): 0 is never updated")
                   ->check(CLI::ExistingFile);
  auto* depth = add_number(cmd, "--mask-depth", o->mask_depth, non_negative(), "m", "no update above this depth (m)");
  mask->excludes(depth);
  cmd->add_option("--precondition", o->precondition,
                  "illumination (divide by the source-side illumination, sum of u^2 over steps and shots) or none")
      ->check(CLI::IsMember({"illumination", "none"}))
      ->capture_default_str();
  add_number(cmd, "--smooth", o->smooth, non_negative(), "m", "smooth the update with a Gaussian of this standard deviation (m)");
  cmd->add_option("--bands", o->bands, "F1,F2,...: invert the data low-passed at F1 Hz, then F2, ... (zero-phase Butterworth)");
  cmd->add_option("--out-dir", o->out_dir, "directory of the models, pictures, history.jsonl and state")->capture_default_str();
  cmd->add_option("--resume", o->resume, "continue the inversion in this directory (same options) from its last iteration");
  cmd->callback([o, cmd] {
    if (o->job.problem.precision == Precision::float64) run<double>(*o, *cmd);
    else run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
