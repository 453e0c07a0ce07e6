// The checks that prove the discrete adjoint and gradient: the dot-product test of the
// modelling operator and the Taylor test of the misfit. Used by the CLI and by the tests.
#pragma once
#include <vector>

#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

struct DotProductResult {
  double forward_product = 0;  // <F w, d>
  double adjoint_product = 0;  // <w, F^T d>
  double relative_error = 0;
};

// The dot-product test's inputs, the same on every backend: replaces the problem's wavelet
// by a random signature w (q[N] stays 0: it would act after the last step) and returns
// random data d (nt x nrec), both drawn from `seed` in a fixed order.
template <class T>
std::vector<T> randomize_dot_test(Problem<T>& problem, unsigned seed);

// F: source signature w(t) (all sources fire it) -> receiver data, with random w and d.
template <class T>
DotProductResult dot_product_test(const Grid& grid, const VelocityModel& model, const Acquisition& acq,
                                  const TimeAxis& time, unsigned seed);

// J(m) = 1/2 sum_n |S u[n] - d[n]|^2 by forward modelling alone (same order of summation as the gradient).
template <class T>
double forward_misfit(const Problem<T>& problem, const T* observed);

struct TaylorResult {
  double objective = 0;              // J(m)
  double directional = 0;            // <g, dm>
  std::vector<double> h, first, second;  // |J(m+h dm) - J(m)|, |... - h <g, dm>|
  double rate_first = 0, rate_second = 0;  // least-squares slopes of log error vs log h
};

// dm: perturbation of m = 1/c^2 at the interior points.
template <class T>
TaylorResult taylor_test(const Grid& grid, const VelocityModel& model, const std::vector<double>& dm,
                         const Acquisition& acq, const TimeAxis& time, const std::vector<T>& observed,
                         const StrategyOptions& strategy, int halvings);

// The model whose m is m(model) + dm (interior points).
VelocityModel perturbed_model(const VelocityModel& model, const std::vector<double>& dm, double h);

}  // namespace revwave
