// An inversion run: its start (modelled data, fingerprint, resume), the band loop with the run
// directory written after every iteration and band, and its summary.
#include "revwave/inversion/invert_run.hpp"

#include <cmath>
#include <filesystem>
#include <memory>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/inversion/run_directory.hpp"
#include "revwave/inversion/survey_objective.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/wavelet_estimation.hpp"

namespace revwave {
namespace {

double largest_change(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// What a state must be for this inversion beyond its own consistency (revwave/inversion/inversion_state.hpp):
// its model and vectors the grid's size, its band one of the bands, its optimiser's memory and
// preconditioner the settings', its velocities within the bounds.
void check_state_fits(const InversionState& s, const InvertJob& job, const std::string& path) {
  const std::size_t n = job.inputs.model.velocity.size();
  const InversionSettings& set = job.settings;
  const auto bands = static_cast<int>(std::max<std::size_t>(set.bands.size(), 1));
  const auto bad = [&](const std::string& why) {
    throw IoError(path + ": the inversion state does not fit this inversion: " + why +
                  " (the run directory's state.bin was changed: resume from a copy, or start again)");
  };
  if (s.model.size() != n)
    bad("its model has " + std::to_string(s.model.size()) + " values, the grid " + std::to_string(n));
  if (!s.optimizer.x.empty() && s.optimizer.x.size() != n) bad("its iterate has the wrong size");
  if (s.band > bands || (s.band == bands && s.band_started))
    bad("band " + std::to_string(s.band + 1) + " of " + std::to_string(bands));
  if (!s.optimizer.x.empty() && s.optimizer.memory.capacity() != set.lbfgs_memory)
    bad("its L-BFGS memory is not --lbfgs-memory's");
  if (!s.optimizer.x.empty() && s.diagonal.size() != (set.illumination ? n : 0))
    bad("its preconditioner is not --precondition's");
  for (const std::vector<double>* v : {&s.model, &s.optimizer.x}) {
    for (double c : *v)
      if (!(c >= set.vmin && c <= set.vmax))
        bad("a velocity of " + number_text(c) + " m/s lies outside [--vmin, --vmax]");
  }
}

// A band that ended after its --iterations goes on when this run allows it more: the state kept its
// optimiser for that. Only the band that ended last (a later band would start from another model).
void reopen_band_for_more_iterations(InvertJob& job, InversionState& s, std::vector<std::string>& history) {
  if (s.band_started || s.band == 0 || s.ended.back() != BandEnd::iterations || s.optimizer.x.empty()) return;
  if (s.band_iteration >= job.settings.iterations) return;
  --s.band;
  s.ended.pop_back();
  s.band_started = true;
  s.band_end = BandEnd::running;
  job.reopened_band = s.band;
  nlohmann::json j;
  j["event"] = "band_resumed";
  j["band"] = s.band + 1;
  j["iteration"] = s.iteration;
  j["iterations"] = job.settings.iterations;
  history.push_back(j.dump());
}

// Models the observed data (modelled surveys), fingerprints the run, and loads the state and
// history of the inversion it resumes (or creates its directory).
template <class T>
void begin_invert(InvertJob& job, InversionState& state, std::vector<std::string>& history, bool root,
                  const InvertReporter& report) {
  SurveyInputs& in = job.inputs;
  if (in.has_truth) {
    if (report.modelling) report.modelling(in.survey.shots.size());
    survey_forward<T>(in.grid, in.truth, in.survey, job.backend.kind, job.run.budgets, report.progress);
  }
  // The misfit and --estimate-wavelet join the fingerprint only where chosen (an L2 run's stays what it was).
  std::string label = to_string(job.precision);
  if (job.run.misfit.kind != MisfitKind::l2) label += std::string(" misfit ") + to_string(job.run.misfit.kind);
  if (job.estimate_wavelet) label += " estimated wavelet";
  job.fingerprint = inversion_fingerprint(in.grid, in.model, in.survey, job.settings, job.run.aperture, label);
  if (!job.resuming) {
    state.fingerprint = job.fingerprint;
    if (root && !job.dir.empty()) {
      std::filesystem::create_directories(job.dir);
      job.lock = std::make_shared<RunDirectoryLock>(job.dir);
      check_inversion_directory(job.dir, false);  // again, held: another run may have begun there since
    }
    return;
  }
  if (root) job.lock = std::make_shared<RunDirectoryLock>(job.dir);
  state = load_inversion_state(inversion_state_path(job.dir));
  // A state of format 2 (revwave 0.2.0) holds the FNV-1a fingerprint; the next save writes format 4 with this one.
  const std::string expected = state.format == 2 ? inversion_fingerprint(in.grid, in.model, in.survey, job.settings,
                                                                         job.run.aperture, label, HashKind::fnv1a)
                                                 : job.fingerprint;
  if (state.fingerprint != expected) {
    throw InputError("--resume " + job.dir + ": that inversion ran on other inputs or settings (fingerprint " +
                     state.fingerprint + ", this run's " + expected + "): resume with the options it began with");
  }
  state.fingerprint = job.fingerprint;
  check_state_fits(state, job, inversion_state_path(job.dir));
  history = read_history(job.dir);
  reopen_band_for_more_iterations(job, state, history);
}

// --estimate-wavelet: the signature fitted in the starting model to the data as given (every band
// low-passes it with the data), used by every shot; DIR/wavelet.npy on a new run. Collective.
template <class T>
void estimate_invert_wavelet(InvertJob& job, ShotRunner& runner, bool root) {
  SurveyInputs& in = job.inputs;
  job.wavelet = estimate_survey_wavelet<T>(in.grid, in.model, in.survey, job.run, runner);
  use_wavelet(in.survey, job.wavelet);
  std::exception_ptr failed;
  if (root && !job.dir.empty() && !job.resuming) {
    try {
      write_npy(job.dir + "/wavelet.npy", {static_cast<std::int64_t>(job.wavelet.size())}, job.wavelet.data());
    } catch (...) {
      failed = std::current_exception();
    }
  }
  runner.agree(failed);
}

nlohmann::json iteration_line(const IterationRecord& r) {
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
  j["seconds_time_loops"] = r.seconds_time_loops;
  j["seconds_outside_loops"] = r.seconds - r.seconds_time_loops;
  return j;
}

// The band loop's hooks: the result's bookkeeping, the history, the directory's files (written by
// the root, then agreed on by every process) and the front end's reports.
class InvertHooks {
 public:
  InvertHooks(InvertResult& result, ShotRunner& runner, const InvertReporter& report, const RunDirectory* files)
      : result_(result), runner_(runner), report_(report), files_(files) {}

  InversionHooks hooks() {
    InversionHooks h;
    h.band_start = [this](int band, double cutoff, double objective) {
      result_.objective = objective;
      result_.runs.push_back({band + 1, cutoff, objective, objective, 0, "running"});
      if (report_.band_start) report_.band_start(band, result_.bands.size(), cutoff, objective);
    };
    h.iteration = [this](const InversionState& s, const IterationRecord& r) {
      result_.objective = r.objective;
      result_.runs.back().objective_end = r.objective;
      ++result_.runs.back().iterations;
      write(s, iteration_line(r), true);
      if (report_.iteration) report_.iteration(r);
    };
    h.band_end = [this](const InversionState& s, int band, BandEnd reason) {
      nlohmann::json j;
      j["event"] = "band_end";
      j["band"] = band + 1;
      j["iteration"] = s.iteration;
      j["reason"] = to_string(reason);
      j["objective"] = result_.objective;
      result_.runs.back().end = to_string(reason);
      write(s, j, false);
      if (report_.band_end) report_.band_end(band, s.iteration, reason);
    };
    return h;
  }

 private:
  // Everything of one iteration (or a band's end) appears together: model, pictures, history, state.
  void write(const InversionState& s, const nlohmann::json& line, bool model) {
    std::exception_ptr failed;
    if (result_.root) {
      try {
        result_.history.push_back(line.dump());
        if (files_ != nullptr) {
          std::vector<std::string> pictures = files_->write_step(s, result_.history, model);
          if (model) result_.pictures = std::move(pictures);
        }
      } catch (...) {
        failed = std::current_exception();
      }
    }
    runner_.agree(failed);
  }

  InvertResult& result_;
  ShotRunner& runner_;
  const InvertReporter& report_;
  const RunDirectory* files_;
};

// The band loop from `state`, with the starting files first on a new run.
template <class T>
void continue_invert(const InvertJob& job, InversionState& state, InvertResult& result, ShotRunner& runner,
                     const InvertReporter& report) {
  const SurveyInputs& in = job.inputs;
  const double clip = in.has_truth ? largest_change(in.truth.velocity, in.model.velocity) : 0.0;
  const auto loops = std::make_shared<double>(0.0);
  const BandProblem band_problem =
      survey_band_problem<T>(in.grid, in.survey, job.run, runner, report.progress, loops, in.model);
  const std::unique_ptr<RunDirectory> files =
      job.dir.empty() ? nullptr
                      : std::make_unique<RunDirectory>(job.dir, in.grid, job.precision, in.model.velocity, clip);
  if (result.root && files && !job.resuming) {
    const std::function<void()> config = [&] {
      if (report.write_configuration) report.write_configuration(job, inversion_config_path(job.dir));
    };
    result.pictures = files->write_start(in.has_truth ? &in.truth.velocity : nullptr, config);
  }
  InvertHooks hooks(result, runner, report, files.get());
  if (report.started) report.started(job, state);
  if (state.band >= static_cast<int>(result.bands.size())) {
    if (report.nothing_left) report.nothing_left(job);
  } else {
    run_inversion(in.grid, in.model.velocity, job.settings, band_problem, state, hooks.hooks());
  }
  result.seconds_time_loops = *loops;
}

}  // namespace

template <class T>
InvertResult run_invert(InvertOptions& o, ShotRunner& runner, const InvertReporter& report) {
  InvertResult result;
  result.root = runner.rank() == 0;
  InvertJob job;
  InversionState state;
  std::exception_ptr failure;
  try {
    job = prepare_invert<T>(o);
    begin_invert<T>(job, state, result.history, result.root, report);
  } catch (...) {
    failure = std::current_exception();
  }
  runner.agree(failure);  // every process has the same inputs now, or every process stops with the first error
  if (job.estimate_wavelet) estimate_invert_wavelet<T>(job, runner, result.root);

  result.dir = job.dir;
  result.fingerprint = job.fingerprint;
  result.shape = job.inputs.grid.shape;
  result.objective = std::nan("");
  result.bands = job.settings.bands.empty() ? std::vector<double>{0.0} : job.settings.bands;
  result.warnings = job.warnings;
  result.layouts = job.inputs.layouts;
  continue_invert<T>(job, state, result, runner, report);
  result.iterations = state.iteration;
  result.band_ends = state.ended;
  result.model = state.model.empty() ? job.inputs.model.velocity : state.model;
  result.misfit = job.run.misfit.kind;
  result.wavelet = job.wavelet;
  return result;
}

nlohmann::json invert_summary(const InvertResult& r) {
  nlohmann::json j;
  j["iterations"] = r.iterations;
  j["objective"] = r.objective;
  j["bands"] = r.bands;
  j["band_ends"] = nlohmann::json::array();
  for (BandEnd e : r.band_ends) j["band_ends"].push_back(to_string(e));
  j["this_run"] = nlohmann::json::array();
  for (const BandRun& b : r.runs) {
    j["this_run"].push_back({{"band", b.band},
                             {"cutoff_hz", b.cutoff},
                             {"objective_start", b.objective_start},
                             {"objective_end", b.objective_end},
                             {"iterations", b.iterations},
                             {"end", b.end}});
  }
  j["out_dir"] = r.dir;
  j["fingerprint"] = r.fingerprint;
  j["seconds_time_loops"] = r.seconds_time_loops;  // this run's evaluations and illumination sweeps
  // Only where chosen, so that an L2 run's fields stay those it always printed.
  if (r.misfit != MisfitKind::l2) j["misfit"] = to_string(r.misfit);
  if (!r.wavelet.empty()) j["estimated_wavelet"] = estimated_wavelet_summary(r.wavelet);
  j["layouts"] = layouts_json(r.layouts);
  j["warnings"] = r.warnings;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["peak_rss_counts"] = peak_rss_counts();
  return j;
}

template InvertResult run_invert<float>(InvertOptions&, ShotRunner&, const InvertReporter&);
template InvertResult run_invert<double>(InvertOptions&, ShotRunner&, const InvertReporter&);

}  // namespace revwave
