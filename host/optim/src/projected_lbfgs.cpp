#include "revwave/optim/projected_lbfgs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

bool finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// Variables held at a bound: the descent direction -g_i points out of the box.
std::vector<bool> binding_set(const std::vector<double>& x, const std::vector<double>& g, const Bounds& b) {
  std::vector<bool> held(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    held[i] = (x[i] <= b.lower[i] && g[i] > 0) || (x[i] >= b.upper[i] && g[i] < 0);
  return held;
}

struct Trial {
  bool accepted = false;
  double step = 0, f = 0;
  std::vector<double> x, g;
  int evaluations = 0;
};

Trial line_search(const OptimizerState& s, const std::vector<double>& d, double slope, double first_step,
                  const Objective& objective, const Bounds& bounds, const LbfgsOptions& o) {
  Trial t;
  double a = 1;
  if (first_step > 0) {
    double largest = 0;
    for (double v : d) largest = std::max(largest, std::abs(v));
    if (largest > 0) a = first_step / largest;
  }
  for (int e = 0; e < o.max_evaluations; ++e) {
    std::vector<double> x(s.x.size());
    const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t i = 0; i < n; ++i)
      x[static_cast<std::size_t>(i)] = s.x[static_cast<std::size_t>(i)] + a * d[static_cast<std::size_t>(i)];
    x = bounds.project(std::move(x));
    if (x == s.x) return t;  // the step no longer moves anything
    std::vector<double> g(x.size(), 0.0);
    const double f = objective(x, g);
    ++t.evaluations;
    double moved = 0;
    for (std::size_t i = 0; i < x.size(); ++i) moved += s.g[i] * (x[i] - s.x[i]);
    if (std::isfinite(f) && finite(g) && f <= s.f + o.armijo * moved) {
      t.accepted = true;
      t.step = a;
      t.f = f;
      t.x = std::move(x);
      t.g = std::move(g);
      return t;
    }
    double next = 0.1 * a;
    if (std::isfinite(f)) {
      const double curvature = f - s.f - slope * a;  // > 0 when the trial lies above the tangent
      if (curvature > 0)
        next = std::clamp(-slope * a * a / (2 * curvature), 0.1 * a, 0.5 * a);
      else
        next = 0.5 * a;
    }
    a = next;
  }
  return t;
}

}  // namespace

Bounds Bounds::uniform(std::size_t n, double lower, double upper) {
  return Bounds{std::vector<double>(n, lower), std::vector<double>(n, upper)};
}

std::vector<double> Bounds::project(std::vector<double> x) const {
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::size_t>(k);
    x[i] = std::min(std::max(x[i], lower[i]), upper[i]);
  }
  return x;
}

bool Bounds::contains(const std::vector<double>& x) const {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i] >= lower[i] && x[i] <= upper[i])) return false;
  return true;
}

std::string to_string(StepOutcome outcome) {
  switch (outcome) {
    case StepOutcome::accepted: return "accepted";
    case StepOutcome::stationary: return "stationary";
    case StepOutcome::line_search_failed: return "line search failed";
  }
  return "?";
}

OptimizerState start_minimisation(std::vector<double> x0, const Objective& objective, const Bounds& bounds,
                                  const LbfgsOptions& options) {
  if (bounds.lower.size() != x0.size() || bounds.upper.size() != x0.size()) {
    throw InputError("bounds for " + std::to_string(bounds.lower.size()) + " and " +
                     std::to_string(bounds.upper.size()) + " variables given for " + std::to_string(x0.size()));
  }
  for (std::size_t i = 0; i < x0.size(); ++i) {
    if (!(bounds.lower[i] <= bounds.upper[i])) {
      throw InputError("bound pair [" + std::to_string(bounds.lower[i]) + ", " + std::to_string(bounds.upper[i]) +
                       "] of variable " + std::to_string(i) + " is invalid: the lower bound must not exceed the upper");
    }
  }
  if (options.max_evaluations < 1) {
    throw InputError("line search evaluations " + std::to_string(options.max_evaluations) + " is invalid: at least 1");
  }
  OptimizerState s;
  s.memory = LbfgsMemory(options.memory);
  s.x = bounds.project(std::move(x0));
  s.g.assign(s.x.size(), 0.0);
  s.f = objective(s.x, s.g);
  s.evaluations = 1;
  if (!std::isfinite(s.f) || !finite(s.g)) {
    throw InputError("the objective or its gradient is not finite at the starting point: nothing to minimise from");
  }
  return s;
}

IterationReport iterate(OptimizerState& s, const Objective& objective, const Bounds& bounds, const LbfgsOptions& o,
                        const Preconditioner& m) {
  IterationReport rep;
  rep.f_before = rep.f = s.f;
  const std::vector<bool> held = binding_set(s.x, s.g, bounds);
  std::vector<double> r = s.g;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (held[i]) r[i] = 0;
  rep.reduced_gradient_norm = std::sqrt(dot(r, r));
  if (rep.reduced_gradient_norm == 0) {
    rep.outcome = StepOutcome::stationary;
    return rep;
  }
  auto direction = [&](bool use_memory) {
    std::vector<double> d = use_memory ? s.memory.apply(r, m) : (m ? m(r) : r);
    const auto n = static_cast<std::int64_t>(d.size());
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t i = 0; i < n; ++i)
      d[static_cast<std::size_t>(i)] = held[static_cast<std::size_t>(i)] ? 0.0 : -d[static_cast<std::size_t>(i)];
    return d;
  };
  // Memory cleared: the preconditioned steepest descent, or the plain one where that does not descend.
  auto restart = [&] {
    s.memory.clear();
    rep.memory_reset = true;
    std::vector<double> d = direction(false);
    if (!(dot(r, d) < 0)) {
      d = r;
      for (double& v : d) v = -v;
    }
    return d;
  };
  std::vector<double> d = direction(true);
  if (!(dot(r, d) < 0)) d = restart();
  Trial t = line_search(s, d, dot(r, d), s.memory.size() == 0 ? o.first_step : 0, objective, bounds, o);
  rep.evaluations = t.evaluations;
  if (!t.accepted && s.memory.size() > 0) {  // once more from the steepest descent, memory cleared
    d = restart();
    t = line_search(s, d, dot(r, d), o.first_step, objective, bounds, o);
    rep.evaluations += t.evaluations;
  }
  s.evaluations += rep.evaluations;
  if (!t.accepted) {
    rep.outcome = StepOutcome::line_search_failed;
    return rep;
  }
  std::vector<double> sx(s.x.size()), gy(s.x.size());
  for (std::size_t i = 0; i < sx.size(); ++i) {
    sx[i] = t.x[i] - s.x[i];
    gy[i] = t.g[i] - s.g[i];
  }
  s.memory.update(std::move(sx), std::move(gy));
  s.x = std::move(t.x);
  s.g = std::move(t.g);
  s.f = t.f;
  ++s.iteration;
  rep.f = s.f;
  rep.step = t.step;
  return rep;
}

}  // namespace revwave
