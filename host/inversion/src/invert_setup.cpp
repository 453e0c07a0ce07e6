// An inversion's set-up from its options: the checks of `revwave invert`, in the order it makes them.
#include <cmath>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/inversion/invert_run.hpp"
#include "revwave/inversion/run_directory.hpp"
#include "revwave/io/atomic_file.hpp"

namespace revwave {
namespace {

void check_bounds_given(const InvertOptions& o) {
  if (!o.vmin || !o.vmax) throw InputError("--vmin and --vmax are required: the velocities the inversion may take (m/s)");
  if (!(*o.vmax > *o.vmin)) {
    throw InputError("--vmax " + number_text(*o.vmax) + " m/s is invalid: it must exceed --vmin " + number_text(*o.vmin) + " m/s");
  }
}

// Where the run writes: a new directory, or the one it resumes; no output may be an input.
void choose_directory(const InvertOptions& o, InvertJob& job) {
  job.resuming = !o.resume.empty();
  job.dir = job.resuming ? o.resume : o.out_dir;
  if (job.resuming && o.out_dir_given && !same_file(o.out_dir, o.resume)) {
    throw InputError("--out-dir " + o.out_dir + " and --resume " + o.resume + " differ: a resumed inversion writes where it began");
  }
  if (job.dir.empty()) return;
  check_inversion_directory(job.dir, job.resuming);
  std::vector<NamedPath> inputs = job_inputs(o.job);
  inputs.insert(inputs.end(), o.more_inputs.begin(), o.more_inputs.end());
  if (!o.mask.empty()) inputs.push_back({"--mask", o.mask});
  refuse_overwriting_inputs(inversion_outputs(job.dir), inputs);
}

// --vmax must keep every shot's time step stable: the inversion may reach it anywhere.
void check_vmax_stable(const Survey& survey, const Grid& grid, double vmax, double density_factor) {
  for (const Shot& shot : survey.shots) {
    try {
      check_stable(shot.time.dt, grid, vmax, density_factor);
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

void finish_settings(const InvertOptions& o, const InvertJob& job, InversionSettings& s) {
  const Grid& grid = job.inputs.grid;
  s.lbfgs_memory = o.lbfgs_memory;
  s.iterations = o.iterations;
  s.tolerance = o.tolerance;
  s.first_step = o.first_step.value_or(0.0);
  s.illumination = o.illumination;
  s.smooth = o.smooth / grid.spacing;
  s.bands = parse_bands(o.bands);
  s.weights = mask_weights(o, grid);
  velocity_bounds(grid, job.inputs.model.velocity, s.vmin, s.vmax, s.weights);  // refuses a start outside them
  for (double f : s.bands) band_survey(Survey{{job.inputs.survey.shots.front()}, ""}, f);  // refuses a cut-off above Nyquist
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
      throw InputError("--bands '" + text + "' is invalid: the cut-offs must increase (" + number_text(f) + " Hz after " +
                       number_text(bands.back()) + " Hz)");
    }
    bands.push_back(f);
  }
  if (bands.empty() || text.back() == ',') throw InputError("--bands '" + text + "' is invalid: F1,F2,... cut-offs in Hz");
  return bands;
}

template <class T>
InvertJob prepare_invert(InvertOptions& o) {
  InvertJob job;
  GradientJobOptions& go = o.job;
  job.precision = go.problem.precision;
  finish_strategy_options(go);
  job.backend = resolve_backend(go.problem.backend);
  refuse_cuda_options_on_cpu(go.problem, job.backend.kind);
  go.strategy.backend = job.backend.kind;
  apply_threads(go.problem.threads);
  check_bounds_given(o);
  job.settings.vmin = *o.vmin;
  job.settings.vmax = *o.vmax;
  check_aperture(o.survey.aperture);
  choose_directory(o, job);
  // The inputs: observed data read, or a survey whose data the true model will give (for modelled
  // data without --dt, the time step is stable for every velocity the inversion may reach).
  job.inputs = survey_inputs<T>(go, o.survey, job.settings.vmax);
  job.run = survey_run_options(go, o.survey.aperture, job.backend.kind, o.local_rank);
  // The data are modelled before the run (every shot has data then); for the check, the true model
  // stands in for them.
  SurveyRunOptions check = job.run;
  if (job.inputs.has_truth) check.true_model = &job.inputs.truth;
  check_survey_run<T>(job.inputs.survey, job.inputs.grid, job.inputs.model, check);
  check_vmax_stable(job.inputs.survey, job.inputs.grid, job.settings.vmax,
                    density_dt_factor(job.inputs.grid, job.inputs.model));
  finish_settings(o, job, job.settings);
  return job;
}

template InvertJob prepare_invert<float>(InvertOptions&);
template InvertJob prepare_invert<double>(InvertOptions&);

}  // namespace revwave
