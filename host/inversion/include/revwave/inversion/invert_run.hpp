// `revwave invert` and `revwave.invert` from their options: the set-up and its checks, the observed
// data (read, or modelled in the true model), the fingerprint, --resume, the band loop over a survey
// on any ShotRunner with the run directory written as it goes, and the fields of its JSON summary.
// Every process of a run calls run_invert with the same options and takes the same steps; rank 0
// writes. The front ends parse options and report (InvertReporter).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/inversion/inversion.hpp"
#include "revwave/inversion/run_directory.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/run_files.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "revwave/setup/survey_setup.hpp"
#include "revwave/survey/shot_runner.hpp"

namespace revwave {

// The options of `revwave invert` (its long options) beyond the gradient's and the survey's.
struct InvertOptions {
  GradientJobOptions job;
  SurveyOptions survey;
  std::optional<double> vmin, vmax;  // m/s, required
  int lbfgs_memory = 5;
  int iterations = 10;  // per band
  double tolerance = 1e-4;
  std::optional<double> first_step;             // m/s (default 2% of vmax)
  std::string mask;                             // weights .npy
  std::shared_ptr<const NpyArray> mask_values;  // the same given in memory (the bindings')
  std::optional<double> mask_depth;             // m
  bool illumination = true;                     // --precondition illumination (else none)
  double smooth = 0;                            // m
  std::string bands;                            // "F1,F2,...", Hz
  std::string out_dir = "inversion";            // empty: nothing written (the bindings' default)
  bool out_dir_given = false;                   // --out-dir was given (with --resume it must name the same directory)
  std::string resume;                           // the directory of the inversion to continue
  int local_rank = 0;                           // among the processes of this node: its GPU is local_rank % devices
  std::vector<NamedPath> more_inputs;           // files the front end read (the CLI's --config): never overwritten
};

// The CLI's parse-time rules for these numbers (--lbfgs-memory in 1..100, ...), for options filled
// without the CLI (the bindings); the problem's and the strategy's numbers too.
void check_invert_numbers(const InvertOptions& o);
// "F1,F2,...": increasing cut-offs in Hz (InputError naming the text and the rule).
std::vector<double> parse_bands(const std::string& text);

// An inversion set up and checked, the same on every process.
struct InvertJob {
  BackendChoice backend;
  SurveyInputs inputs;  // inputs.model is the starting model
  SurveyRunOptions run;
  InversionSettings settings;
  Precision precision = Precision::float32;
  std::string dir;  // empty: nothing written
  bool resuming = false;
  std::string fingerprint;
  bool estimate_wavelet = false;  // --estimate-wavelet: `wavelet`, fitted in the starting model, is every shot's
  std::vector<double> wavelet;
  std::vector<std::string> warnings;  // revwave/setup/plausibility.hpp, the survey's readers'
  int reopened_band = -1;             // a resumed band that had ended after its --iterations, taken further (from 0)
  std::shared_ptr<RunDirectoryLock> lock;  // the root's hold on `dir` while the run lives
};

// Resolves the backend, checks the bounds and the run directory (new, or --resume), refuses outputs
// that would overwrite inputs, reads or lays out the survey, checks it, --vmax's stability and the
// settings (mask, bands, every band of every shot, --first-step, --smooth, --aperture). Every
// InputError names the option and the rule.
template <class T>
InvertJob prepare_invert(InvertOptions& o);

// What a front end says while the inversion runs; called on every process (the front end decides
// which one speaks), each after what it reports is done (and, for an iteration, written).
struct InvertReporter {
  std::function<void(std::size_t shots)> modelling;  // the observed data are about to be modelled in the true model
  std::function<void(const InvertJob& job, const InversionState& state)> started;
  std::function<void(int band, std::size_t bands, double cutoff, double objective)> band_start;
  std::function<void(const IterationRecord& record)> iteration;
  std::function<void(int band, int iteration, BandEnd reason)> band_end;
  std::function<void(const InvertJob& job)> nothing_left;  // every band of the resumed inversion had ended
  // Between time steps and shots (the CLI's progress, Python's Ctrl-C: it may throw RunCancelled).
  Progress progress;
  // A new run's configuration (the CLI's, `path` in the run directory), written with the starting files.
  std::function<void(const InvertJob& job, const std::string& path)> write_configuration;
};

// A band this run worked on.
struct BandRun {
  int band = 0;  // from 1
  double cutoff = 0, objective_start = 0, objective_end = 0;
  int iterations = 0;
  std::string end = "running";
};

struct InvertResult {
  bool root = true;  // the process that wrote; the others hold the same numbers
  std::string dir, fingerprint;
  std::array<index_t, 3> shape{};
  int iterations = 0;         // completed in all (a resumed run's included)
  double objective = 0;       // J after the last iteration (NaN if none ran)
  std::vector<double> bands;  // cut-offs, Hz (0: the data as they are)
  std::vector<BandEnd> band_ends;
  std::vector<BandRun> runs;          // this run's bands
  std::vector<std::string> pictures;  // the latest pictures written
  std::vector<double> model;          // the latest velocity, m/s
  std::vector<std::string> history;   // history.jsonl's lines, a resumed run's earlier ones included
  double seconds_time_loops = 0;      // this run's time loops (evaluations, illumination), per process
  MisfitKind misfit = MisfitKind::l2;
  std::vector<double> wavelet;        // --estimate-wavelet: the signature every shot used (else empty)
  std::vector<std::string> warnings;  // the job's
  std::vector<GridLayout> layouts;    // where --src-grid and --rec-grid put their points
};

// Runs (or resumes) the inversion the options describe. Collective over the runner's processes: an
// error on any of them before the first band is every process's error.
template <class T>
InvertResult run_invert(InvertOptions& o, ShotRunner& runner, const InvertReporter& report = {});

// The fields of `revwave invert --json` (not the command, nor the total time).
nlohmann::json invert_summary(const InvertResult& result);

}  // namespace revwave
