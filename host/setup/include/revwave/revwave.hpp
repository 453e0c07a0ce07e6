// The C++ API of the installed package (find_package(revwave CONFIG), target revwave::revwave): a
// shot record and a gradient from plain options, on the backend they choose. A thin face over
// revwave/setup, which the command line and the Python package run too: the same options, the
// same refusals (revwave::InputError, ...) and the same bits.
//
//   revwave::GradientJobOptions o;            // every field has the CLI's default
//   o.problem.shape = {24, 24, 24};           // o.problem: ProblemOptions (problem_setup.hpp), typed
//   o.strategy.strategy = revwave::Strategy::revolve;
//   o.strategy.snaps = 4;                      // o.strategy: StrategyOptions (gradient_strategy.hpp)
//   revwave::GradientResult g = revwave::gradient(o);
#pragma once
#include <cmath>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/gradient_run.hpp"

namespace revwave {

struct GradientResult {
  double objective = 0;            // J, the misfit (L2: 1/2 sum of squared residuals)
  double gradient_norm = 0;        // |dJ/dm|_2 over the interior points, as `revwave gradient --json` reports it
  std::vector<double> gradient;    // dJ/dm (m = 1/c^2, s^2/m^2) at the interior points, C order
  GradientStats stats;             // steps, forward and reverse steps, stores, restores, seconds, bytes
  StrategyPlan plan;               // the strategy, its slots and the schedule's predicted forward steps
  Backend backend = host_backend;  // the backend that ran (never automatic)
};

struct ForwardResult {
  index_t nt = 0, nrec = 0;
  std::vector<double> traces;  // nt x nrec, C order (sample-major), in the run's precision widened to double
  TimeAxis time;
  Backend backend = host_backend;
};

namespace detail {

template <class T>
GradientResult gradient_result(GradientJobOptions& options, const Progress& progress) {
  GradientRun<T> run = run_gradient_job<T>(options, {}, progress);
  GradientResult g;
  g.objective = run.output.stats.objective;
  double norm2 = 0;
  for (double v : run.output.gradient) norm2 += v * v;
  g.gradient_norm = std::sqrt(norm2);
  g.gradient = std::move(run.output.gradient);
  g.stats = run.output.stats;
  g.plan = run.plan;
  g.backend = run.backend.kind;
  return g;
}

template <class T>
ForwardResult forward_result(const ProblemOptions& options, const Progress& progress) {
  ForwardRun<T> run = run_forward_job<T>(options, {}, progress);
  ForwardResult f;
  f.nt = run.shot.nt;
  f.nrec = run.shot.nrec;
  f.traces.assign(run.shot.traces.begin(), run.shot.traces.end());
  f.time = run.time;
  f.backend = run.backend.kind;
  return f;
}

}  // namespace detail

// One gradient (`revwave gradient`): the observed data modelled in the true model unless given,
// then J and dJ/dm in the starting model with the chosen strategy. `options` is finished in place
// (its text budgets become bytes). Throws revwave::InputError and its kin on bad options.
inline GradientResult gradient(GradientJobOptions options, const Progress& progress = {}) {
  if (options.problem.precision == Precision::float64) return detail::gradient_result<double>(options, progress);
  return detail::gradient_result<float>(options, progress);
}

// One shot record (`revwave forward`).
inline ForwardResult forward(const ProblemOptions& options, const Progress& progress = {}) {
  if (options.precision == Precision::float64) return detail::forward_result<double>(options, progress);
  return detail::forward_result<float>(options, progress);
}

}  // namespace revwave
