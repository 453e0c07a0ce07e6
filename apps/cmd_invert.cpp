// revwave invert: full-waveform inversion of a survey (revwave/inversion/invert_run.hpp), band
// after band, with every iteration's model, pictures, history line and L-BFGS state written
// together into --out-dir, and --resume DIR going on from the last of them. Under mpirun every
// process runs the same optimiser on the root's J and g; rank 0 writes and reports.
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>

#include "choice_options.hpp"
#include "commands.hpp"
#include "gradient_job.hpp"
#include "number_options.hpp"
#include "revwave/inversion/invert_run.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/mpi/process_threads.hpp"
#include "revwave/setup/run_phases.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {
namespace {

// For an option whose empty text is the library's "not given" (--bands: the data as they are;
// --resume: a new inversion): given empty, it is refused with `rule` rather than read so.
std::function<void(const std::string&)> refuse_empty(const std::string& option, const std::string& rule) {
  return [option, rule](const std::string& text) {
    if (text.empty()) throw InputError(option + " '' is invalid: " + rule);
  };
}

struct InvertCmdOptions {
  InvertOptions invert;
  Presentation view;
  std::string precondition = "illumination";
};

// Testing only: REVWAVE_INVERT_KILL_AFTER=K ends the process by SIGKILL right after iteration K's
// outputs are in place, as a power cut or an out-of-memory kill would: --resume must go on from there.
void kill_if_asked(int iteration) {
  const char* v = std::getenv("REVWAVE_INVERT_KILL_AFTER");
  if (v != nullptr && *v != '\0' && std::atoi(v) == iteration) std::raise(SIGKILL);
}

const char* band_end_text(BandEnd reason) {
  return reason == BandEnd::iterations           ? "--iterations reached"
         : reason == BandEnd::relative_decrease  ? "the objective fell by less than --tolerance"
         : reason == BandEnd::line_search_failed ? "the line search found no decrease (twice)"
                                                 : "the projected gradient is zero";
}

// What the terminal shows as the run goes (rank 0, without --json); the configuration written into a
// new run directory (rank 0), which `--resume DIR` reads back.
InvertReporter reporter(bool talk, const MpiSession& mpi, const CLI::App& cmd, bool root) {
  InvertReporter r;
  r.write_configuration = [&cmd](const InvertJob& job, const std::string& path) {
    std::set<std::string> leave_out = unused_defaults(cmd);
    leave_out.insert({"resume", "out-dir", "json"});
    write_effective_config(cmd, path, {{"shape", shape_text(job.inputs.grid.shape)}}, leave_out,
                           "--out-dir OTHER (or continue it: revwave invert --resume DIR)");
  };
  r.modelling = [talk](std::size_t shots) {
    if (talk) std::cout << "revwave invert: modelling the observed data of " << shots << " shots in the true model\n";
  };
  r.started = [talk, root, &mpi](const InvertJob& job, const InversionState& state) {
    if (root) print_warnings(job.warnings);
    if (!talk) return;
    const Grid& grid = job.inputs.grid;
    std::cout << "revwave invert: " << grid.shape[0] << " x " << grid.shape[1] << " x " << grid.shape[2] << " points, "
              << job.inputs.survey.shots.size() << " shots (" << job.inputs.survey.description << "), "
              << to_string(job.precision) << " on " << to_string(job.backend.kind) << ", " << mpi.size()
              << (mpi.size() == 1 ? " process" : " processes") << "\n";
    for (const GridLayout& l : job.inputs.layouts) std::cout << layout_line(l);
    if (job.resuming) std::cout << "  resuming " << job.dir << " after iteration " << state.iteration << "\n";
    if (job.reopened_band >= 0) {
      std::cout << "  band " << job.reopened_band + 1 << " goes on: it ended after " << state.band_iteration
                << " iterations, --iterations is now " << job.settings.iterations << "\n";
    }
  };
  r.band_start = [talk](int band, std::size_t bands, double cutoff, double objective) {
    if (!talk) return;
    std::cout << "band " << band + 1 << "/" << bands << ": "
              << (cutoff > 0 ? "data and wavelet low-passed at " + number_text(cutoff) + " Hz"
                             : std::string("the data as they are"))
              << ", J = " << objective << "\n";
  };
  r.iteration = [talk](const IterationRecord& rec) {
    kill_if_asked(rec.iteration);
    if (!talk) return;
    std::cout << "  iteration " << rec.iteration << ": J = " << rec.objective << " ("
              << 100.0 * (rec.objective / rec.objective_before - 1.0) << " %), |g| = " << rec.gradient_norm << ", step "
              << rec.step << ", " << rec.evaluations << " evaluations, " << rec.seconds << " s\n";
  };
  r.band_end = [talk](int band, int iteration, BandEnd reason) {
    if (talk)
      std::cout << "  band " << band + 1 << " ends after iteration " << iteration << ": " << band_end_text(reason)
                << "\n";
  };
  r.nothing_left = [talk](const InvertJob& job) {
    if (talk) std::cout << "  every band of " << job.dir << " has ended: nothing left to do\n";
  };
  return r;
}

void print_summary(const InvertResult& result, const RunClock& clock) {
  std::cout << "  done: " << result.iterations << " iterations in all, " << clock.wall() << " s";
  for (const BandRun& b : result.runs) {
    std::cout << "\n  band " << b.band << "          J " << b.objective_start << " -> " << b.objective_end << " ("
              << 100.0 * (b.objective_end / b.objective_start - 1.0) << " %) in " << b.iterations << " iterations";
  }
  std::cout << "\n  model           " << result.dir
            << "/model.npy (model_NNNN.npy per iteration, history.jsonl, state.bin)\n";
  if (!result.wavelet.empty() && !result.dir.empty())
    std::cout << "  wavelet         " << result.dir << "/wavelet.npy (estimated)\n";
  for (const std::string& p : result.pictures) std::cout << "  picture         " << p << "\n";
  std::cout << "  time            " << clock.sentence() << "\n";
}

template <class T>
void run(InvertCmdOptions& o, const CLI::App& cmd) {
  RunClock clock = RunClock::since_process_start();
  warn_unused_f0(cmd);
  clock.mark(phase::start_up);
  quiet_unless_root();
  MpiSession mpi;
  clock.mark(phase::mpi_start);
  try {
    InvertOptions& io = o.invert;
    io.illumination = o.precondition == "illumination";
    io.out_dir_given = cmd.get_option("--out-dir")->count() > 0;
    io.local_rank = mpi.local_rank();
    io.more_inputs = config_inputs(cmd);
    apply_threads_per_process(io.job.problem.threads, mpi);
    const auto runner = mpi.runner();
    const InvertResult result =
        run_invert<T>(io, *runner, reporter(mpi.rank() == 0 && !o.view.json, mpi, cmd, mpi.rank() == 0));
    if (!result.root) return;
    // This process's time loops (evaluations, illumination); the rest of the inversion beside them
    // (set-up, misfits, L-BFGS, the run directory's files).
    clock.mark_part(phase::time_loop, result.seconds_time_loops, phase::inversion_other);
    if (o.view.json) {
      nlohmann::json j = invert_summary(result);
      j["command"] = "invert";
      j["seconds"] = clock.wall();
      j["wall_seconds"] = clock.wall();
      j["phases"] = phases_json(clock);
      print_json(j);
      return;
    }
    print_summary(result, clock);
  } catch (...) {
    if (mpi.rank() == 0) throw;  // every process has the error; rank 0 reports it
  }
}

}  // namespace

void register_invert(CLI::App& app) {
  auto o = std::make_shared<InvertCmdOptions>();
  InvertOptions& io = o->invert;
  CLI::App* cmd =
      app.add_subcommand("invert", "full-waveform inversion: L-BFGS on the velocity, band after band, resumable");
  add_gradient_job_options(cmd, io.job, o->view, CudaOptions::all);
  add_estimate_wavelet_option(cmd, io.job);
  add_origin_and_wavelet_options(cmd, io.survey);
  add_layout_options(cmd, io.survey);
  add_aperture_option(cmd, io.survey);
  add_segy_read_options(cmd, io.survey);
  cmd->get_option("--observed")->excludes(cmd->get_option("--src-grid"));
  cmd->get_option("--estimate-wavelet")->excludes(cmd->get_option("--wavelet"));
  add_number(cmd, "--vmin", io.vmin, positive(), "m/s", "smallest velocity the inversion may take (m/s, required)");
  add_number(cmd, "--vmax", io.vmax, positive(), "m/s",
             "largest velocity the inversion may take (m/s, required; the data's dt must be stable for it)");
  add_integer(cmd, "--lbfgs-memory", io.lbfgs_memory, int_within(1, 100), "L-BFGS curvature pairs kept");
  add_integer(cmd, "--iterations", io.iterations, int_within(1, 100000), "iterations per band at most");
  add_number(cmd, "--tolerance", io.tolerance, within(0, 1), "",
             "a band ends when an iteration lowers the objective by less than this fraction of it");
  add_number(cmd, "--first-step", io.first_step, positive(), "m/s",
             "largest velocity change of a band's first trial step (default 2% of --vmax; at most --vmax - --vmin)");
  auto* mask = cmd->add_option("--mask", io.mask,
                               "weights in [0, 1] per grid point (.npy, shape of the model): 0 is never updated")
                   ->check(CLI::ExistingFile);
  auto* depth = add_number(cmd, "--mask-depth", io.mask_depth, non_negative(), "m", "no update above this depth (m)");
  mask->excludes(depth);
  cmd->add_option("--precondition", o->precondition,
                  "illumination (divide by the source-side illumination, sum of u^2 over steps and shots) or none")
      ->check(one_of({"illumination", "none"}))
      ->capture_default_str();
  add_number(cmd, "--smooth", io.smooth, non_negative(), "m",
             "smooth the update with a Gaussian of this standard deviation (m; 0, or from a tenth of --spacing to the "
             "model's largest extent)");
  cmd->add_option(
         "--bands", io.bands,
         "F1,F2,...: invert the data low-passed at F1 Hz, then F2, ... (zero-phase Butterworth; each below every "
         "shot's Nyquist frequency, and at least one period within its record)")
      ->each(refuse_empty("--bands", "F1,F2,... cut-offs in Hz (leave --bands out to invert the data as they are)"));
  cmd->add_option(
         "--out-dir", io.out_dir,
         "directory of the models, pictures, history.jsonl, state.bin and the run's configuration invert.config.toml")
      ->capture_default_str()
      ->check(named_output());
  cmd->add_option(
         "--resume", io.resume,
         "continue the inversion in this directory from its last iteration, with the options it began with (read "
         "from DIR/invert.config.toml; options given here win, and a larger --iterations takes the band that ended "
         "last after its iterations further)")
      ->each(refuse_empty("--resume",
                          "give the directory of the inversion to continue (leave --resume out to begin one)"));
  cmd->callback([o, cmd] {
    if (o->invert.job.problem.precision == Precision::float64)
      run<double>(*o, *cmd);
    else
      run<float>(*o, *cmd);
  });
}

}  // namespace revwave::app
