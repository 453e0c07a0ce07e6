#include "revwave/inversion/inversion.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

// A band's first iterate: its preconditioner's diagonal in the band's starting model, and the
// optimiser at that model.
void start_band(InversionState& state, const Objective& objective, const Illumination& illumination, const Grid& grid,
                const InversionSettings& settings, const Bounds& bounds, const LbfgsOptions& lo) {
  state.diagonal =
      settings.illumination ? illumination_diagonal(illumination(state.model), grid) : std::vector<double>{};
  state.optimizer = start_minimisation(state.model, objective, bounds, lo);
  state.band_iteration = 0;
  state.band_end = BandEnd::running;
  state.band_started = true;
}

IterationRecord record_of(const IterationReport& rep, const InversionState& state, double cutoff, double seconds,
                          double loops) {
  IterationRecord r;
  r.iteration = state.iteration;
  r.band = state.band;
  r.cutoff = cutoff;
  r.objective = rep.f;
  r.objective_before = rep.f_before;
  r.gradient_norm = rep.reduced_gradient_norm;
  r.step = rep.step;
  r.evaluations = rep.evaluations;
  r.memory_reset = rep.memory_reset;
  r.seconds = seconds;
  r.seconds_time_loops = loops;
  return r;
}

// Iterates until the band ends (state.band_end says why).
void run_band(InversionState& state, const Objective& objective, const std::function<double()>& loops,
              const Preconditioner& m, double cutoff, const InversionSettings& settings, const Bounds& bounds,
              const LbfgsOptions& lo, const InversionHooks& hooks) {
  while (state.band_end == BandEnd::running) {
    if (state.band_iteration >= settings.iterations) {
      state.band_end = BandEnd::iterations;
      break;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double loops0 = loops ? loops() : 0.0;
    const IterationReport rep = iterate(state.optimizer, objective, bounds, lo, m);
    if (rep.outcome == StepOutcome::stationary) {
      state.band_end = BandEnd::stationary;
      break;
    }
    if (rep.outcome == StepOutcome::line_search_failed) {
      state.band_end = BandEnd::line_search_failed;
      break;
    }
    ++state.band_iteration;
    ++state.iteration;
    state.model = state.optimizer.x;
    const IterationRecord r =
        record_of(rep, state, cutoff, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  loops ? loops() - loops0 : 0.0);
    if (!(rep.f_before - rep.f > settings.tolerance * std::abs(rep.f_before)))
      state.band_end = BandEnd::relative_decrease;
    if (hooks.iteration) hooks.iteration(state, r);
  }
}

}  // namespace

void run_inversion(const Grid& grid, const std::vector<double>& start, const InversionSettings& settings,
                   const BandProblem& band_problem, InversionState& state, const InversionHooks& hooks) {
  if (settings.lbfgs_memory < 1)
    throw InputError("--lbfgs-memory " + std::to_string(settings.lbfgs_memory) + " is invalid: at least 1");
  if (settings.iterations < 1)
    throw InputError("--iterations " + std::to_string(settings.iterations) + " is invalid: at least 1");
  const Bounds bounds = velocity_bounds(grid, start, settings.vmin, settings.vmax, settings.weights);
  LbfgsOptions lo;
  lo.memory = settings.lbfgs_memory;
  lo.max_evaluations = settings.max_evaluations;
  lo.first_step = settings.first_step > 0 ? settings.first_step : 0.02 * settings.vmax;
  const std::vector<double> bands = settings.bands.empty() ? std::vector<double>{0.0} : settings.bands;
  if (state.model.empty()) state.model = start;

  for (; state.band < static_cast<int>(bands.size()); ++state.band) {
    const double cutoff = bands[static_cast<std::size_t>(state.band)];
    const auto problem = band_problem(cutoff);
    const Objective objective = [&](const std::vector<double>& x, std::vector<double>& g) {
      return problem.objective(x, g);
    };
    if (!state.band_started) start_band(state, objective, problem.illumination, grid, settings, bounds, lo);
    if (hooks.band_start) hooks.band_start(state.band, cutoff, state.optimizer.f);
    const Preconditioner m = make_preconditioner(state.diagonal, settings.weights, grid.shape, settings.smooth);
    run_band(state, objective, problem.time_loops, m, cutoff, settings, bounds, lo, hooks);
    // The band's end is recorded with the next band's start pending: a resume goes on from there. Its
    // optimiser stays until then, so that a resume with more --iterations can take the band further.
    state.ended.push_back(state.band_end);
    const BandEnd reason = state.band_end;
    state.band_started = false;
    state.band_end = BandEnd::running;
    ++state.band;
    if (hooks.band_end) hooks.band_end(state, state.band - 1, reason);
    --state.band;  // the loop's increment
  }
}

}  // namespace revwave
