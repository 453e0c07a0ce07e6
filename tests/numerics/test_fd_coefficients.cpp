// Finite-difference weights against polynomials, and the stability bound against the operator.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/fd_coefficients.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {
namespace {

class FdOrder : public ::testing::TestWithParam<int> {};

TEST_P(FdOrder, DifferentiatesPolynomialsExactlyUpToItsOrder) {
  const int order = GetParam(), k = order / 2;
  const std::vector<double> c = second_derivative_weights(order);
  ASSERT_EQ(static_cast<int>(c.size()), k + 1);
  const double x0 = 0.3;
  // Exact for x^p, p <= order + 1 (odd powers cancel by symmetry); wrong for p = order + 2.
  for (int p = 0; p <= order + 2; ++p) {
    double approx = c[0] * std::pow(x0, p);
    for (int j = 1; j <= k; ++j) approx += c[j] * (std::pow(x0 + j, p) + std::pow(x0 - j, p));
    const double exact = p >= 2 ? p * (p - 1) * std::pow(x0, p - 2) : 0.0;
    double scale = 1;
    for (int j = 0; j <= k; ++j) scale += std::abs(c[j]) * std::pow(k + 1.0, p);
    if (p <= order + 1) {
      EXPECT_NEAR(approx, exact, 1e-13 * scale) << "order " << order << " power " << p;
    } else {
      EXPECT_GT(std::abs(approx - exact), 1e-6) << "order " << order << " should not be exact for power " << p;
    }
  }
}

TEST_P(FdOrder, SpectralRadiusMatchesPowerIterationOnTheOperator) {
  // Largest eigenvalue of -L on a zero-padded box, by power iteration with the
  // propagator's own Laplacian: with m = 1/dt^2 and eta = 0, one leapfrog step from
  // (u, 0) gives u + L u dt^2 / m = u + L u, so -L u = u - step(u).
  const int order = GetParam();
  Grid g;
  g.shape = {24, 24, 24};
  g.nbl = 0;
  g.spacing = 1.0;
  g.space_order = order;
  const double bound = laplacian_spectral_radius(order, g.spacing);
  // The symbol's maximum is what an infinite grid reaches; a 24^3 box gets within a few percent.
  Acquisition acq;
  acq.sources = {{0, 0, 0}};
  acq.receivers = {{0, 0, 0}};
  // c = 1 and dt = 1 would be unstable: build with a stable dt, then overwrite the coefficients.
  Problem<double> p = make_problem<double>(g, homogeneous_model(g.shape, 1.0), acq, TimeAxis{0.1, 1});
  p.coeffs.inv_dt2 = 1.0;
  p.coeffs.half_inv_dt = 0.0;
  p.wavelet.assign(p.wavelet.size(), 0.0);
  CpuPropagator<double> prop(p);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> v(static_cast<std::size_t>(g.alloc_points()), 0.0);
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t kk = 0; kk < g.padded(2); ++kk) v[g.index(i, j, kk)] = uni(rng);
  double lambda = 0;
  for (int it = 0; it < 400; ++it) {
    prop.reset_forward();
    std::copy(v.begin(), v.end(), prop.state().u.as<double>());
    prop.forward_step(0);  // state.u = 2u - 0 + L u... with m/dt^2 = 1: u1 = 2u + Lu - u_prev(=0)
    const double* u1 = prop.state().u.as<double>();
    double norm = 0, dot = 0;
    std::vector<double> w(v.size());
    for (std::size_t q = 0; q < v.size(); ++q) {
      w[q] = 2 * v[q] - u1[q];  // -L v
      dot += w[q] * v[q];
      norm += w[q] * w[q];
    }
    double vn = 0;
    for (double x : v) vn += x * x;
    lambda = dot / vn;
    norm = std::sqrt(norm);
    for (std::size_t q = 0; q < v.size(); ++q) v[q] = w[q] / norm;
  }
  EXPECT_LE(lambda, bound * (1 + 1e-9)) << "order " << order;
  EXPECT_GE(lambda, bound * 0.97) << "order " << order;
}

INSTANTIATE_TEST_SUITE_P(EvenOrders, FdOrder, ::testing::Values(2, 4, 6, 8, 10, 12, 14, 16));

TEST(FdCoefficients, OddOrOutOfRangeOrdersAreRefused) {
  for (int order : {0, 1, 3, 7, 18, -2}) EXPECT_THROW(second_derivative_weights(order), InputError) << order;
}

TEST(Stability, DtAboveTheBoundIsRefusedNamingTheLargestStableDt) {
  Grid g;
  g.shape = {10, 10, 10};
  g.spacing = 10;
  g.space_order = 8;
  const double limit = max_stable_dt(g, 3000.0);
  EXPECT_NO_THROW(check_stable(limit * 0.999, g, 3000.0));
  try {
    check_stable(limit * 1.01, g, 3000.0);
    FAIL() << "an unstable dt was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("unstable"), std::string::npos) << msg;
    EXPECT_NE(msg.find("largest stable dt"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace revwave
