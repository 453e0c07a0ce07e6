// The survey gradient as it was computed before the shot engine, for the tests that hold the engine
// to its bits (and one shot's illumination the same way, shot_illumination): every shot on a propagator of its own, built by make_problem on the window's cut of
// the model, its gradient read back, added into a whole-model vector of zeros (or taken as it is
// for a whole-model window), and the vectors summed on the dense fixed tree. J_s is the options' misfit.
#pragma once
#include <utility>
#include <vector>

#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/survey/model_window.hpp"
#include "revwave/survey/summation_tree.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave::testing {

template <class T>
std::pair<double, std::vector<double>> reference_survey_gradient(const Grid& grid, const VelocityModel& model,
                                                                 const Survey& survey, const SurveyRunOptions& o,
                                                                 const std::vector<std::size_t>& order = {}) {
  const auto n = static_cast<index_t>(survey.shots.size());
  SummationTree tree(n, static_cast<std::size_t>(grid.interior_points()));
  std::vector<std::size_t> shots = order;
  if (shots.empty())
    for (std::size_t s = 0; s < survey.shots.size(); ++s) shots.push_back(s);
  for (std::size_t s : shots) {
    const Shot& shot = survey.shots[s];
    const ModelWindow w = shot_window(grid, shot.acquisition, o.aperture);
    const Problem<T> p = shot_problem<T>(grid, model, shot, w);
    const std::vector<T> observed(shot.data.begin(), shot.data.end());
    const StrategyPlan plan = plan_strategy(o.strategy, p.time.steps, field_layout<T>(p.grid));
    GradientOutput g = run_on_backend(
        o.backend, p, o.budgets, GradientCall<T>{&o.misfit.get<T>(), observed.data(), &o.strategy, &plan, {}, nullptr});
    std::vector<double> whole;
    if (w.shape == grid.shape) {
      whole = std::move(g.gradient);
    } else {
      whole.assign(static_cast<std::size_t>(grid.interior_points()), 0.0);
      add_window_gradient(grid, w, g.gradient, whole);
    }
    tree.add(static_cast<index_t>(s), g.stats.objective, std::move(whole));
  }
  return {tree.value(), std::move(tree.vector())};
}

// sum over steps n = 1..N of u[n]^2 at the interior points of the whole grid, for one shot, on a
// CPU propagator of its own: the reference the engines' illumination is tested against.
template <class T>
std::vector<double> shot_illumination(const Grid& grid, const VelocityModel& model, const Shot& shot, double aperture,
                                      const Progress& progress = {}) {
  const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
  const Problem<T> p = shot_problem<T>(grid, model, shot, w);
  CpuPropagator<T> prop(p);
  std::vector<double> local(static_cast<std::size_t>(p.grid.interior_points()), 0.0);
  GrowthGuard guard(p);
  prop.reset_forward();
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.add_squared_interior(local);
    guard.after_step(prop, n + 1);
    if (progress) progress(n + 1, p.time.steps);
  }
  if (w.shape == grid.shape) return local;
  std::vector<double> whole(static_cast<std::size_t>(grid.interior_points()), 0.0);
  add_window_gradient(grid, w, local, whole);
  return whole;
}

}  // namespace revwave::testing
