// The bound-constrained L-BFGS against independent truth: the dense BFGS inverse update, the
// Rosenbrock minimum (free and with an active bound, both in closed form), and a convex quadratic
// whose constrained minimiser is built from its KKT conditions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/optim/lbfgs.hpp"
#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
using Matrix = std::vector<std::vector<double>>;

std::vector<double> times(const Matrix& a, const std::vector<double>& x) {
  std::vector<double> y(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) y[i] += a[i][j] * x[j];
  return y;
}

Matrix random_spd(std::size_t n, std::mt19937& rng) {
  std::normal_distribution<double> z;
  Matrix b(n, std::vector<double>(n));
  for (auto& row : b)
    for (double& v : row) v = z(rng);
  Matrix a(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t k = 0; k < n; ++k) a[i][j] += b[k][i] * b[k][j];
      if (i == j) a[i][j] += 0.5;
    }
  return a;
}

// H_{k+1} = (I - rho s y') H_k (I - rho y s') + rho s s', from H0 = gamma M with the newest pair's gamma.
Matrix dense_inverse_hessian(const std::vector<CurvaturePair>& pairs, const std::vector<double>& m_diag) {
  const std::size_t n = m_diag.size();
  const CurvaturePair& newest = pairs.back();
  double ymy = 0;
  for (std::size_t i = 0; i < n; ++i) ymy += newest.y[i] * m_diag[i] * newest.y[i];
  const double gamma = dot(newest.s, newest.y) / ymy;
  Matrix h(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) h[i][i] = gamma * m_diag[i];
  for (const CurvaturePair& p : pairs) {
    const double rho = 1 / dot(p.s, p.y);
    Matrix v(n, std::vector<double>(n));  // I - rho y s'
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) v[i][j] = (i == j ? 1.0 : 0.0) - rho * p.y[i] * p.s[j];
    Matrix hv(n, std::vector<double>(n, 0.0)), next(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t k = 0; k < n; ++k) hv[i][j] += h[i][k] * v[k][j];
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k < n; ++k) next[i][j] += v[k][i] * hv[k][j];
        next[i][j] += rho * p.s[i] * p.s[j];
      }
    h = next;
  }
  return h;
}

TEST(Lbfgs, TwoLoopRecursionEqualsTheDenseInverseUpdate) {
  std::mt19937 rng(7);
  std::normal_distribution<double> z;
  const std::size_t n = 7;
  const Matrix a = random_spd(n, rng);
  for (bool preconditioned : {false, true}) {
    std::vector<double> m_diag(n, 1.0);
    if (preconditioned)
      for (double& v : m_diag) v = 0.5 + std::abs(z(rng));
    LbfgsMemory memory(4);
    std::vector<CurvaturePair> kept;
    for (int k = 0; k < 6; ++k) {  // more pairs than the memory: the oldest drop out
      std::vector<double> s(n);
      for (double& v : s) v = z(rng);
      const std::vector<double> y = times(a, s);
      ASSERT_TRUE(memory.update(s, y));
      kept.push_back({s, y});
      if (kept.size() > 4) kept.erase(kept.begin());
    }
    std::vector<double> g(n);
    for (double& v : g) v = z(rng);
    const Preconditioner m = [&](const std::vector<double>& v) {
      std::vector<double> w(v.size());
      for (std::size_t i = 0; i < v.size(); ++i) w[i] = m_diag[i] * v[i];
      return w;
    };
    const std::vector<double> two_loop = memory.apply(g, preconditioned ? m : Preconditioner{});
    const std::vector<double> dense = times(dense_inverse_hessian(kept, m_diag), g);
    for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(two_loop[i], dense[i], 1e-10 * (1 + std::abs(dense[i]))) << i;
  }
}

TEST(Lbfgs, RejectsPairsWithoutPositiveCurvature) {
  LbfgsMemory memory(3);
  EXPECT_FALSE(memory.update({1, 0}, {-1, 0}));
  EXPECT_FALSE(memory.update({1, 0}, {0, 1}));
  EXPECT_TRUE(memory.update({1, 0}, {1, 0}));
  EXPECT_EQ(memory.size(), 1);
  EXPECT_THROW(LbfgsMemory(0), InputError);
}

double rosenbrock(const std::vector<double>& x, std::vector<double>& g) {
  const double a = 1 - x[0], b = x[1] - x[0] * x[0];
  g[0] = -2 * a - 400 * x[0] * b;
  g[1] = 200 * b;
  return a * a + 100 * b * b;
}

struct Minimisation {
  OptimizerState state;
  int outside = 0;  // objective calls outside the bounds
  StepOutcome last = StepOutcome::accepted;
};

Minimisation minimise(const Objective& f, std::vector<double> x0, const Bounds& b, const LbfgsOptions& o,
                      int iterations) {
  Minimisation run;
  const Objective watched = [&](const std::vector<double>& x, std::vector<double>& g) {
    if (!b.contains(x)) ++run.outside;
    return f(x, g);
  };
  run.state = start_minimisation(std::move(x0), watched, b, o);
  for (int k = 0; k < iterations; ++k) {
    run.last = iterate(run.state, watched, b, o).outcome;
    if (run.last != StepOutcome::accepted) break;
  }
  return run;
}

TEST(ProjectedLbfgs, FindsTheRosenbrockMinimum) {
  LbfgsOptions o;
  const Minimisation run = minimise(rosenbrock, {-1.2, 1.0}, Bounds::uniform(2, -inf, inf), o, 200);
  EXPECT_NEAR(run.state.x[0], 1.0, 1e-6);
  EXPECT_NEAR(run.state.x[1], 1.0, 1e-6);
  EXPECT_LT(run.state.f, 1e-12);
  EXPECT_LT(run.state.iteration, 100);
}

// With x0 <= 0.5 the minimiser is (0.5, 0.25): for fixed x0 the best x1 is x0^2, and (1 - x0)^2
// falls all the way to the bound.
TEST(ProjectedLbfgs, FindsTheRosenbrockMinimumOnAnActiveBound) {
  LbfgsOptions o;
  const Bounds b{{-2.0, -2.0}, {0.5, 2.0}};
  const Minimisation run = minimise(rosenbrock, {-1.2, 1.0}, b, o, 200);
  EXPECT_EQ(run.outside, 0);
  EXPECT_EQ(run.state.x[0], 0.5);
  EXPECT_NEAR(run.state.x[1], 0.25, 1e-7);
}

// f = 1/2 x'Ax - b'x with b = A x* - mu: mu_i >= 0 where x*_i sits on its lower bound, <= 0 on its
// upper bound, 0 where free, so x* satisfies the KKT conditions of the convex problem.
TEST(ProjectedLbfgs, FindsTheKktMinimiserOfABoundConstrainedQuadratic) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.2, 1.0);
  const std::size_t n = 24;
  const Matrix a = random_spd(n, rng);
  Bounds bounds = Bounds::uniform(n, -1.0, 2.0);
  std::vector<double> x_star(n), mu(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) {
      x_star[i] = bounds.lower[i];
      mu[i] = u(rng);
    } else if (i % 3 == 1) {
      x_star[i] = bounds.upper[i];
      mu[i] = -u(rng);
    } else {
      x_star[i] = -0.5 + 2 * u(rng);
    }
  }
  std::vector<double> b = times(a, x_star);
  for (std::size_t i = 0; i < n; ++i) b[i] -= mu[i];
  const Objective f = [&](const std::vector<double>& x, std::vector<double>& g) {
    const std::vector<double> ax = times(a, x);
    for (std::size_t i = 0; i < n; ++i) g[i] = ax[i] - b[i];
    return 0.5 * dot(x, ax) - dot(b, x);
  };
  LbfgsOptions o;
  o.memory = 7;
  const Minimisation run = minimise(f, std::vector<double>(n, 0.3), bounds, o, 500);
  EXPECT_EQ(run.outside, 0);
  // It ends on its own (stationary, or no further decrease in floating point) well before 500 iterations.
  EXPECT_NE(run.last, StepOutcome::accepted);
  EXPECT_LT(run.state.iteration, 200);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(run.state.x[i], x_star[i], 1e-7) << i;
}

TEST(ProjectedLbfgs, ResumingFromTheSavedPartsGivesTheSameBits) {
  LbfgsOptions o;
  o.memory = 3;
  const Bounds b{{-2.0, -2.0}, {0.9, 2.0}};
  const Minimisation straight = minimise(rosenbrock, {-1.2, 1.0}, b, o, 12);
  Minimisation first = minimise(rosenbrock, {-1.2, 1.0}, b, o, 5);
  // What an interrupted run keeps: x, g, f, the counters and the pairs, oldest first.
  OptimizerState resumed;
  resumed.x = first.state.x;
  resumed.g = first.state.g;
  resumed.f = first.state.f;
  resumed.iteration = first.state.iteration;
  resumed.evaluations = first.state.evaluations;
  resumed.memory = LbfgsMemory(o.memory);
  resumed.memory.assign(first.state.memory.pairs());
  for (int k = 5; k < 12; ++k) iterate(resumed, rosenbrock, b, o);
  ASSERT_EQ(resumed.iteration, straight.state.iteration);
  EXPECT_EQ(resumed.x, straight.state.x);
  EXPECT_EQ(resumed.f, straight.state.f);
  EXPECT_EQ(resumed.evaluations, straight.state.evaluations);
}

TEST(ProjectedLbfgs, ReportsALineSearchFailureAndLeavesTheStateAsItWas) {
  // The "gradient" points uphill: no trial along it can decrease f.
  const Objective wrong = [](const std::vector<double>& x, std::vector<double>& g) {
    g[0] = -2 * x[0];
    return x[0] * x[0];
  };
  LbfgsOptions o;
  OptimizerState s = start_minimisation({1.0}, wrong, Bounds::uniform(1, -inf, inf), o);
  const IterationReport r = iterate(s, wrong, Bounds::uniform(1, -inf, inf), o);
  EXPECT_EQ(r.outcome, StepOutcome::line_search_failed);
  EXPECT_EQ(r.evaluations, o.max_evaluations);
  EXPECT_EQ(s.x, std::vector<double>{1.0});
  EXPECT_EQ(s.iteration, 0);
}

TEST(ProjectedLbfgs, FirstStepMovesTheLargestComponentByTheGivenAmount) {
  const Objective f = [](const std::vector<double>& x, std::vector<double>& g) {
    g[0] = 2e-6 * x[0];
    g[1] = 1e-6 * x[1];
    return 1e-6 * x[0] * x[0] + 0.5e-6 * x[1] * x[1];
  };
  LbfgsOptions o;
  o.first_step = 0.25;
  OptimizerState s = start_minimisation({10.0, 10.0}, f, Bounds::uniform(2, -inf, inf), o);
  const IterationReport r = iterate(s, f, Bounds::uniform(2, -inf, inf), o);
  ASSERT_EQ(r.outcome, StepOutcome::accepted);
  EXPECT_EQ(r.evaluations, 1);
  EXPECT_DOUBLE_EQ(10.0 - s.x[0], 0.25);
}

TEST(ProjectedLbfgs, RefusesInconsistentBoundsAndAStartThatIsNotFinite) {
  LbfgsOptions o;
  EXPECT_THROW(start_minimisation({0.0, 0.0}, rosenbrock, Bounds::uniform(1, 0, 1), o), InputError);
  EXPECT_THROW(start_minimisation({0.0}, rosenbrock, Bounds{{1.0}, {0.0}}, o), InputError);
  const Objective nan = [](const std::vector<double>&, std::vector<double>&) { return std::nan(""); };
  EXPECT_THROW(start_minimisation({0.0}, nan, Bounds::uniform(1, -1, 1), o), InputError);
}

}  // namespace
}  // namespace revwave
