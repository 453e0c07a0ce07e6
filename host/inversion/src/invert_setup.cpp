// An inversion's set-up from its options: the checks of `revwave invert`, in the order it makes them.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/inversion/invert_run.hpp"
#include "revwave/inversion/run_directory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/setup/plausibility.hpp"

namespace revwave {
namespace {

void check_bounds_given(const InvertOptions& o) {
  // --resume DIR reads the bounds from DIR's configuration: where DIR holds no inversion, say so,
  // not that the bounds are missing.
  if (!o.resume.empty()) check_inversion_directory(o.resume, true);
  if (!o.vmin || !o.vmax)
    throw InputError("--vmin and --vmax are required: the velocities the inversion may take (m/s)");
  if (!(*o.vmax > *o.vmin)) {
    throw InputError("--vmax " + number_text(*o.vmax) + " m/s is invalid: it must exceed --vmin " +
                     number_text(*o.vmin) + " m/s");
  }
}

// Where the run writes: a new directory, or the one it resumes; no output may be an input.
void choose_directory(const InvertOptions& o, InvertJob& job) {
  job.resuming = !o.resume.empty();
  job.dir = job.resuming ? o.resume : o.out_dir;
  if (job.resuming && o.out_dir_given && !same_file(o.out_dir, o.resume)) {
    throw InputError("--out-dir " + o.out_dir + " and --resume " + o.resume +
                     " differ: a resumed inversion writes where it began");
  }
  if (job.dir.empty()) return;
  check_inversion_directory(job.dir, job.resuming);
  std::vector<NamedPath> inputs = job_inputs(o.job);
  inputs.insert(inputs.end(), o.more_inputs.begin(), o.more_inputs.end());
  if (!o.mask.empty()) inputs.push_back({"--mask", o.mask});
  if (!o.survey.wavelet.empty()) inputs.push_back({"--wavelet", o.survey.wavelet});
  refuse_inputs_in_run_directory(job.dir, inputs, job.resuming);
}

// --vmax must keep every shot's time step stable: the inversion may reach it anywhere (survey_inputs
// chose each shot's substeps for it).
void check_vmax_stable(const Survey& survey, const Grid& grid, double vmax, double physics_factor) {
  for (const Shot& shot : survey.shots) {
    try {
      check_stable(simulation_time(shot).dt, grid, vmax, physics_factor);
    } catch (const InputError& e) {
      throw InputError("--vmax " + number_text(vmax) + " m/s is too fast for " + shot.name + ": " + e.what());
    }
  }
}

std::vector<double> mask_weights(const InvertOptions& o, const Grid& grid) {
  if (!o.mask.empty()) {
    const NpyArray a = read_npy(o.mask);
    check_mask(a.data, a.shape, grid, o.mask);
    return a.data;
  }
  if (o.mask_values) {
    check_mask(o.mask_values->data, o.mask_values->shape, grid, "(an array)");
    return o.mask_values->data;
  }
  if (o.mask_depth) return depth_mask(grid, *o.mask_depth);
  return {};
}

// --first-step: no wider than the bounds (a larger step is projected onto them anyway, and one so large
// that the trial overflows would become a model that is not finite).
void check_first_step(const InvertOptions& o) {
  if (!o.first_step) return;
  const double width = *o.vmax - *o.vmin;
  if (!(*o.first_step <= width)) {
    throw InputError("--first-step " + number_text(*o.first_step) + " m/s is invalid: it must be in (0, " +
                     number_text(width) +
                     "] m/s, no more than --vmax - --vmin (a larger step only lands on the bounds)");
  }
}

// --smooth: 0 (none), or a Gaussian of at least a tenth of the grid spacing (narrower changes nothing and
// its weights underflow) and at most the model's largest extent (wider is flat across the model).
void check_smooth(double smooth, const Grid& grid) {
  if (smooth == 0) return;
  const double widest = std::max({grid.extent(0), grid.extent(1), grid.extent(2)});
  if (!(smooth >= 0.1 * grid.spacing && smooth <= widest)) {
    throw InputError("--smooth " + number_text(smooth) + " m is invalid: it must be 0 (no smoothing) or in [" +
                     number_text(0.1 * grid.spacing) + ", " + number_text(widest) +
                     "] m, from a tenth of --spacing to the "
                     "model's largest extent");
  }
}

// Every band of every shot as it will run, before anything is written: the cut-offs (check_bands), and
// the strategy and memory for each shot's lengthened time axis.
template <class T>
void check_banded_runs(const InvertJob& job, const std::vector<double>& bands) {
  check_bands(job.inputs.survey, bands);
  SurveyRunOptions check = job.run;
  check.true_model = &job.inputs.model;  // stands for data: only the sizes matter here
  for (double cutoff : bands) {
    Survey banded;
    for (const Shot& shot : job.inputs.survey.shots) {
      Shot s = shot;
      s.data.clear();
      s.wavelet.clear();
      s.time.steps += band_lead(shot, cutoff);
      banded.shots.push_back(std::move(s));
    }
    check_survey_run<T>(banded, job.inputs.grid, job.inputs.model, check);
  }
}

template <class T>
void finish_settings(const InvertOptions& o, const InvertJob& job, InversionSettings& s) {
  const Grid& grid = job.inputs.grid;
  s.lbfgs_memory = o.lbfgs_memory;
  s.iterations = o.iterations;
  s.tolerance = o.tolerance;
  check_first_step(o);
  s.first_step = o.first_step.value_or(0.0);
  s.illumination = o.illumination;
  check_smooth(o.smooth, grid);
  s.smooth = o.smooth / grid.spacing;
  s.bands = parse_bands(o.bands);
  s.weights = mask_weights(o, grid);
  velocity_bounds(grid, job.inputs.model.velocity, s.vmin, s.vmax, s.weights);  // refuses a start outside them
  check_banded_runs<T>(job, s.bands);
}

}  // namespace

void check_invert_numbers(const InvertOptions& o) {
  check_problem_numbers(o.job.problem);
  if (o.job.strategy.snaps) check_integer("--snaps", *o.job.strategy.snaps, at_least(1));
  if (o.job.strategy.stop_energy) check_number("--stop-energy", *o.job.strategy.stop_energy, {0.0, 1.0, true, true});
  if (o.vmin) check_number("--vmin", *o.vmin, positive(), "m/s");
  if (o.vmax) check_number("--vmax", *o.vmax, positive(), "m/s");
  check_integer("--lbfgs-memory", o.lbfgs_memory, int_within(1, 100));
  check_integer("--iterations", o.iterations, int_within(1, 100000));
  check_number("--tolerance", o.tolerance, within(0, 1));
  if (o.first_step) check_number("--first-step", *o.first_step, positive(), "m/s");
  if (o.mask_depth) check_number("--mask-depth", *o.mask_depth, non_negative(), "m");
  check_number("--smooth", o.smooth, non_negative(), "m");
}

std::vector<double> parse_bands(const std::string& text) {
  std::vector<double> bands;
  if (text.empty()) return bands;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const double f = parse_number("--bands", item, positive(), "Hz");
    if (!bands.empty() && !(f > bands.back())) {
      throw InputError("--bands '" + text + "' is invalid: the cut-offs must increase (" + number_text(f) +
                       " Hz after " + number_text(bands.back()) + " Hz)");
    }
    bands.push_back(f);
  }
  if (bands.empty() || text.back() == ',')
    throw InputError("--bands '" + text + "' is invalid: F1,F2,... cut-offs in Hz");
  return bands;
}

template <class T>
InvertJob prepare_invert(InvertOptions& o) {
  InvertJob job;
  GradientJobOptions& go = o.job;
  job.precision = go.problem.precision;
  job.backend = resolve_backend(go.problem.backend);
  refuse_cuda_options_on_cpu(go.problem, job.backend.kind);
  go.strategy.backend = job.backend.kind;
  apply_threads(go.problem.threads);
  check_bounds_given(o);
  check_velocity_floor(*o.vmin, "--vmin", go.problem.precision);
  require_data_for_user_model(go, o.survey.observed_records != nullptr, "an inversion");
  refuse_unused_survey_options(go.observed, o.survey.observed_records != nullptr, o.survey);
  // A resumed inversion must be the one that began: a callable has no fingerprint.
  if (go.misfit.kind == MisfitKind::custom)
    throw InputError("invert takes a built-in misfit: l2, correlation or envelope");
  job.estimate_wavelet = go.estimate_wavelet;
  job.settings.vmin = *o.vmin;
  job.settings.vmax = *o.vmax;
  check_aperture(o.survey.aperture);
  choose_directory(o, job);
  // The inputs: observed data read, or a survey whose data the true model will give (for modelled
  // data without --dt, the time step is stable for every velocity the inversion may reach).
  job.inputs = survey_inputs<T>(go, o.survey, job.settings.vmax);
  check_aperture_fits(o.survey.aperture, job.inputs.grid);  // before any window is cut with it
  job.run = survey_run_options(go, o.survey.aperture, job.backend.kind, o.local_rank);
  // The data are modelled before the run (every shot has data then); for the check, the true model
  // stands in for them.
  SurveyRunOptions check = job.run;
  if (job.inputs.has_truth) check.true_model = &job.inputs.truth;
  check_survey_run<T>(job.inputs.survey, job.inputs.grid, job.inputs.model, check);
  check_vmax_stable(job.inputs.survey, job.inputs.grid, job.settings.vmax,
                    physics_dt_factor(job.inputs.grid, job.inputs.model));
  finish_settings<T>(o, job, job.settings);
  job.warnings = job.inputs.warnings;
  return job;
}

template InvertJob prepare_invert<float>(InvertOptions&);
template InvertJob prepare_invert<double>(InvertOptions&);

}  // namespace revwave
