// Gaussian smoothing: a symmetric operator (so it can precondition a gradient), the width it
// promises, and a constant kept away from the edges.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/gaussian_smoothing.hpp"

namespace revwave {
namespace {

TEST(GaussianSmoothing, IsASymmetricOperator) {
  const std::array<index_t, 3> shape{9, 7, 11};
  std::mt19937 rng(3);
  std::normal_distribution<double> z;
  std::vector<double> a(9 * 7 * 11), b(a.size());
  for (double& v : a) v = z(rng);
  for (double& v : b) v = z(rng);
  std::vector<double> sa = a, sb = b;
  gaussian_smooth(sa, shape, 1.3);
  gaussian_smooth(sb, shape, 1.3);
  double sab = 0, asb = 0, aa = 0, asa = 0;
  std::vector<double> saa = a;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += sa[i] * b[i];
    asb += a[i] * sb[i];
    aa += a[i] * a[i];
    asa += a[i] * sa[i];
  }
  EXPECT_NEAR(sab, asb, 1e-12 * std::abs(sab));
  EXPECT_GT(asa, 0);
  EXPECT_LT(asa, aa);  // it damps
}

TEST(GaussianSmoothing, SpreadsADeltaWithTheGivenStandardDeviation) {
  const std::array<index_t, 3> shape{41, 41, 41};
  std::vector<double> f(41 * 41 * 41, 0.0);
  auto at = [](index_t i, index_t j, index_t k) { return static_cast<std::size_t>((i * 41 + j) * 41 + k); };
  f[at(20, 20, 20)] = 1;
  const double sigma = 2.5;
  gaussian_smooth(f, shape, sigma);
  double mass = 0, second[3] = {0, 0, 0};
  for (index_t i = 0; i < 41; ++i)
    for (index_t j = 0; j < 41; ++j)
      for (index_t k = 0; k < 41; ++k) {
        const double v = f[at(i, j, k)];
        mass += v;
        second[0] += v * double((i - 20) * (i - 20));
        second[1] += v * double((j - 20) * (j - 20));
        second[2] += v * double((k - 20) * (k - 20));
      }
  EXPECT_NEAR(mass, 1.0, 1e-12);
  for (double s : second) EXPECT_NEAR(s, sigma * sigma, 1e-3 * sigma * sigma);  // truncation at 4 sigma: -0.05%
}

TEST(GaussianSmoothing, KeepsAConstantAwayFromTheEdgesAndRefusesBadInput) {
  const std::array<index_t, 3> shape{30, 1, 30};
  std::vector<double> f(30 * 30, 4.0);
  gaussian_smooth(f, shape, 1.0);
  EXPECT_NEAR(f[15 * 30 + 15], 4.0, 1e-12);
  EXPECT_LT(f[0], 4.0);  // zero outside the box
  EXPECT_THROW(gaussian_smooth(f, shape, -1), InputError);
  EXPECT_THROW(gaussian_smooth(f, shape, std::nan("")), InputError);
  EXPECT_THROW(gaussian_smooth(f, {3, 3, 3}, 1), InputError);
}

}  // namespace
}  // namespace revwave
