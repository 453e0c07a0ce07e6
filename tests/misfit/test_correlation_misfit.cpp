// The correlation misfit against its formula: J = - sum over traces <s/|s|, d/|d|>, its adjoint
// source against central differences of J, blind to the scale of either trace, and what a trace of
// zeros does (nothing).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "misfit_test_support.hpp"
#include "revwave/misfit/correlation_misfit.hpp"

namespace revwave {
namespace {

using testing::adjoint_source_error;
using testing::smooth_traces;

template <class T>
class Correlation : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Correlation, Precisions);

TYPED_TEST(Correlation, ObjectiveIsMinusTheSumOfNormalisedCorrelations) {
  using T = TypeParam;
  const index_t nt = 41, nrec = 5;
  const std::vector<T> s = smooth_traces<T>(nt, nrec, 1), d = smooth_traces<T>(nt, nrec, 2);
  long double expected = 0;
  for (index_t r = 0; r < nrec; ++r) {
    long double ss = 0, dd = 0, sd = 0;
    for (index_t n = 0; n < nt; ++n) {
      const long double a = s[n * nrec + r], b = d[n * nrec + r];
      ss += a * a;
      dd += b * b;
      sd += a * b;
    }
    expected -= sd / std::sqrt(ss * dd);
  }
  const double j = CorrelationMisfit<T>().evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d.data()}, nullptr);
  EXPECT_NEAR(j, double(expected), 1e-13 * nrec);
  // Each trace against itself: J = -nrec, the minimum.
  EXPECT_NEAR(CorrelationMisfit<T>().evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, s.data()}, nullptr),
              -double(nrec), 1e-12 * nrec);
}

TEST(Correlation, AdjointSourceIsTheDerivativeOfJ) {
  const index_t nt = 30, nrec = 4;
  const std::vector<double> s = smooth_traces<double>(nt, nrec, 3), d = smooth_traces<double>(nt, nrec, 4);
  EXPECT_LT(adjoint_source_error(CorrelationMisfit<double>(), s, d, nt, nrec), 1e-7);
}

TYPED_TEST(Correlation, IsBlindToTheScaleOfTheObservedData) {
  using T = TypeParam;
  const index_t nt = 50, nrec = 6;
  const std::vector<T> s = smooth_traces<T>(nt, nrec, 5), d = smooth_traces<T>(nt, nrec, 6);
  std::vector<T> r(s.size()), r4(s.size()), r37(s.size()), d4(d), d37(d);
  for (T& v : d4) v *= T(4);     // a power of two: every step scales exactly, the same bits
  for (T& v : d37) v *= T(3.7);  // any other: the same to rounding
  const CorrelationMisfit<T> m;
  const double j = m.evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d.data()}, r.data());
  const double j4 = m.evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d4.data()}, r4.data());
  const double j37 = m.evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d37.data()}, r37.data());
  EXPECT_EQ(j, j4);
  EXPECT_EQ(0, std::memcmp(r.data(), r4.data(), r.size() * sizeof(T)));
  const double eps = 8 * std::numeric_limits<T>::epsilon();
  EXPECT_NEAR(j37, j, eps * nrec);
  double peak = 0;
  for (T v : r) peak = std::max(peak, double(std::abs(v)));
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(double(r37[i]), double(r[i]), eps * peak) << i;
  // And to the scale of the synthetic traces: J only (the adjoint source scales by 1/k).
  std::vector<T> s2(s);
  for (T& v : s2) v *= T(2);
  EXPECT_EQ(m.evaluate({nt, nrec, 1e-3, s2.data()}, {nt, nrec, 1e-3, d.data()}, nullptr), j);
}

TYPED_TEST(Correlation, ATraceOfZerosAddsNothing) {
  using T = TypeParam;
  const index_t nt = 20, nrec = 3;
  std::vector<T> s = smooth_traces<T>(nt, nrec, 7), d = smooth_traces<T>(nt, nrec, 8);
  for (index_t n = 0; n < nt; ++n) {
    s[n * nrec + 0] = T(0);  // receiver 0: the synthetic trace is zero (no wave reaches it yet)
    d[n * nrec + 2] = T(0);  // receiver 2: the observed trace is zero (a dead trace)
  }
  std::vector<T> r(s.size(), T(1));
  const double j = CorrelationMisfit<T>().evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d.data()}, r.data());
  // Only receiver 1 counts.
  std::vector<T> s1(static_cast<std::size_t>(nt)), d1(static_cast<std::size_t>(nt));
  for (index_t n = 0; n < nt; ++n) {
    s1[n] = s[n * nrec + 1];
    d1[n] = d[n * nrec + 1];
  }
  EXPECT_EQ(j, CorrelationMisfit<T>().evaluate({nt, 1, 1e-3, s1.data()}, {nt, 1, 1e-3, d1.data()}, nullptr));
  for (index_t n = 0; n < nt; ++n) {
    EXPECT_EQ(r[n * nrec + 0], T(0));
    EXPECT_EQ(r[n * nrec + 2], T(0));
  }
  EXPECT_TRUE(std::isfinite(j));
}

}  // namespace
}  // namespace revwave
