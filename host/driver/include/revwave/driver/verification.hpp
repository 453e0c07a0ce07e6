// The checks that prove the discrete adjoint and gradient: the dot-product test of the
// modelling operator and the Taylor test of the misfit, on any backend through the same drivers.
// Used by the CLI, the Python package and the tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/dot_product.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// The test on a random w and d from `seed`, on `backend` (resolved: cpu or cuda). Defined here,
// not in the library: it reaches the CUDA backend, which links after the host parts.
template <class T>
DotProductResult dot_product_test(const Grid& grid, const VelocityModel& model, const Acquisition& acq,
                                  const TimeAxis& time, unsigned seed, Backend backend = host_backend,
                                  const DeviceBudgets& budgets = {}) {
  Problem<T> p = make_problem<T>(grid, model, acq, time);
  const std::vector<T> d = randomize_dot_test(p, seed);
  return run_on_backend(backend, p, budgets, DotProductCall<T>{&d});
}

// J(m) = misfit(S u, d) by forward modelling alone (the same order of summation as the gradient).
template <class T>
double forward_misfit(const Problem<T>& problem, const Misfit<T>& misfit, const T* observed,
                      Backend backend = host_backend, const DeviceBudgets& budgets = {}) {
  const ShotData<T> shot = run_on_backend(backend, problem, budgets, ForwardCall<T>{});
  const Traces<T> synthetic{shot.nt, shot.nrec, problem.time.dt, shot.traces.data()};
  return misfit.evaluate(synthetic, Traces<T>{shot.nt, shot.nrec, problem.time.dt, observed}, nullptr);
}
template <class T>
double forward_misfit(const Problem<T>& problem, const T* observed, Backend backend = host_backend,
                      const DeviceBudgets& budgets = {}) {
  return forward_misfit(problem, l2_misfit<T>(), observed, backend, budgets);
}

struct TaylorResult {
  double objective = 0;                    // J(m)
  double directional = 0;                  // <g, dm>
  std::vector<double> h, first, second;    // |J(m+h dm) - J(m)|, |... - h <g, dm>|
  double rate_first = 0, rate_second = 0;  // least-squares slopes of log error vs log h
};

// The model whose m is m(model) + dm (interior points).
VelocityModel perturbed_model(const VelocityModel& model, const std::vector<double>& dm, double h);
// Least-squares slope of log e against log h, over the points with e > 0 (0 with fewer than two).
double log_log_slope(const std::vector<double>& h, const std::vector<double>& e);

// dm: perturbation of m = 1/c^2 at the interior points. The gradient and every J on `backend`, of `misfit`.
template <class T>
TaylorResult taylor_test(const Grid& grid, const VelocityModel& model, const std::vector<double>& dm,
                         const Acquisition& acq, const TimeAxis& time, const std::vector<T>& observed,
                         const StrategyOptions& strategy, int halvings, Backend backend = host_backend,
                         const DeviceBudgets& budgets = {}, const Misfit<T>& misfit = l2_misfit<T>()) {
  TaylorResult t;
  {
    const Problem<T> p = make_problem<T>(grid, model, acq, time);
    const StrategyPlan plan =
        plan_strategy(strategy, time.steps, physics_state(p.grid, physics_of(p)), field_layout<T>(p.grid));
    const GradientOutput g =
        run_on_backend(backend, p, budgets, GradientCall<T>{&misfit, observed.data(), &strategy, &plan, {}, nullptr});
    t.objective = g.stats.objective;
    for (std::size_t i = 0; i < dm.size(); ++i) t.directional += g.gradient[i] * dm[i];
  }
  double h = 1.0;
  for (int k = 0; k <= halvings; ++k, h *= 0.5) {
    const Problem<T> p = make_problem<T>(grid, perturbed_model(model, dm, h), acq, time);
    const double j = forward_misfit(p, misfit, observed.data(), backend, budgets);
    t.h.push_back(h);
    t.first.push_back(std::abs(j - t.objective));
    t.second.push_back(std::abs(j - t.objective - h * t.directional));
  }
  t.rate_first = log_log_slope(t.h, t.first);
  t.rate_second = log_log_slope(t.h, t.second);
  return t;
}

}  // namespace revwave
