// The L2 misfit against a direct computation: J = 1/2 sum |s - d|^2 and r = s - d, summed per
// sample over the receivers, then over the samples in ascending order (the order the gradient
// has always summed J in, so that its bits stay).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/misfit/l2_misfit.hpp"

namespace revwave {
namespace {

template <class T>
class L2 : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(L2, Precisions);

template <class T>
std::vector<T> random_traces(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(normal(rng));
  return v;
}

TYPED_TEST(L2, ObjectiveAndAdjointSourceEqualADirectComputation) {
  using T = TypeParam;
  const index_t nt = 37, nrec = 11;
  const std::vector<T> syn = random_traces<T>(nt * nrec, 1), obs = random_traces<T>(nt * nrec, 2);
  std::vector<T> r(syn.size());
  const double j = L2Misfit<T>().evaluate({nt, nrec, 1e-3, syn.data()}, {nt, nrec, 1e-3, obs.data()}, r.data());
  double direct = 0;
  long double exact = 0;
  for (index_t n = 0; n < nt; ++n) {
    double sample = 0;
    for (index_t k = 0; k < nrec; ++k) {
      const std::size_t i = static_cast<std::size_t>(n * nrec + k);
      const T res = syn[i] - obs[i];
      EXPECT_EQ(std::memcmp(&r[i], &res, sizeof(T)), 0) << "r at sample " << n << ", receiver " << k;
      sample += 0.5 * double(res) * double(res);
      exact += 0.5L * (static_cast<long double>(syn[i]) - obs[i]) * (static_cast<long double>(syn[i]) - obs[i]);
    }
    direct += sample;
  }
  EXPECT_EQ(std::memcmp(&j, &direct, sizeof j), 0) << j << " vs " << direct;
  // The residual in T rounds once per value: J to the precision's epsilon of the exact sum.
  EXPECT_NEAR(j, double(exact), 4 * std::numeric_limits<T>::epsilon() * double(exact));
  // J alone, without an adjoint source.
  EXPECT_EQ(L2Misfit<T>().evaluate({nt, nrec, 1e-3, syn.data()}, {nt, nrec, 1e-3, obs.data()}, nullptr), j);
  EXPECT_EQ(&l2_misfit<T>(), &l2_misfit<T>());
  EXPECT_EQ(l2_misfit<T>().kind(), MisfitKind::l2);
}

TYPED_TEST(L2, AZeroSyntheticSampleGivesHalfTheDataSquared) {
  using T = TypeParam;  // the first sample of every run: u[0] = 0, so r[0] = -d[0]
  const std::vector<T> syn(3, T(0)), obs = {T(1.5), T(-2), T(0.25)};
  std::vector<T> r(3);
  const double j = L2Misfit<T>().evaluate({1, 3, 1.0, syn.data()}, {1, 3, 1.0, obs.data()}, r.data());
  double direct = 0;
  for (T d : obs) direct += 0.5 * double(d) * double(d);
  EXPECT_EQ(j, direct);
  EXPECT_EQ(r, (std::vector<T>{T(-1.5), T(2), T(-0.25)}));
}

TEST(L2Shapes, DifferentShapesAreAProgrammingError) {
  const std::vector<float> a(6), b(6);
  EXPECT_THROW(L2Misfit<float>().evaluate({2, 3, 1.0, a.data()}, {3, 2, 1.0, b.data()}, nullptr), std::logic_error);
}

TEST(MisfitKinds, AreParsedWhereTextEntersAndMadeByKind) {
  EXPECT_EQ(parse_misfit("l2"), MisfitKind::l2);
  EXPECT_STREQ(to_string(MisfitKind::l2), "l2");
  try {
    parse_misfit("l1");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--misfit 'l1' is unknown: use l2, correlation or envelope");
  }
  EXPECT_EQ(make_misfit<double>(MisfitKind::l2)->kind(), MisfitKind::l2);
}

TEST(MisfitKinds, EveryBuiltInRoundTripsAndCustomHasNoName) {
  for (MisfitKind k : {MisfitKind::l2, MisfitKind::correlation, MisfitKind::envelope}) {
    EXPECT_EQ(parse_misfit(to_string(k)), k);
    EXPECT_EQ(make_misfit<float>(k)->kind(), k);
    EXPECT_EQ(builtin_misfit<double>(k).kind(), k);
    EXPECT_EQ(&builtin_misfit<double>(k), &builtin_misfit<double>(k));  // one stateless instance
  }
  EXPECT_EQ(&builtin_misfit<float>(MisfitKind::l2), &l2_misfit<float>());
  // A custom misfit is supplied by the caller (the Python bindings), never named on a command line.
  EXPECT_THROW(parse_misfit("custom"), InputError);
  EXPECT_THROW(builtin_misfit<float>(MisfitKind::custom), InputError);
}

}  // namespace
}  // namespace revwave
