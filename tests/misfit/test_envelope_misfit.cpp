// The envelope misfit: the envelope of a tone is its amplitude, the discrete Hilbert transform is
// antisymmetric (so the adjoint source is exact), the adjoint source equals central differences of
// J, and a trace of zeros is handled.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "misfit_test_support.hpp"
#include "revwave/misfit/envelope_misfit.hpp"

namespace revwave {
namespace {

using testing::adjoint_source_error;
using testing::smooth_traces;

TEST(Envelope, OfAGaussianModulatedToneIsItsEnvelope) {
  // s(t) = exp(-((t - t0) / w)^2) cos(2 pi f t): a narrow-band signal whose envelope is the Gaussian.
  const index_t nt = 400;
  std::vector<double> s(nt), zero(nt, 0.0);
  const double dt = 1e-3, f = 60.0, t0 = 0.2, w = 0.04;
  for (index_t n = 0; n < nt; ++n) {
    const double t = n * dt;
    s[n] = std::exp(-std::pow((t - t0) / w, 2)) * std::cos(2 * M_PI * f * t);
  }
  // J against zeros is 1/2 sum E[s]^2: compare with 1/2 sum of the Gaussian squared.
  double expected = 0;
  for (index_t n = 0; n < nt; ++n) expected += 0.5 * std::exp(-2 * std::pow((n * dt - t0) / w, 2));
  const double j = EnvelopeMisfit<double>().evaluate({nt, 1, dt, s.data()}, {nt, 1, dt, zero.data()}, nullptr);
  EXPECT_NEAR(j, expected, 1e-3 * expected);
}

TEST(Envelope, AdjointSourceIsTheDerivativeOfJ) {
  const index_t nt = 32, nrec = 3;
  const std::vector<double> s = smooth_traces<double>(nt, nrec, 11), d = smooth_traces<double>(nt, nrec, 12);
  EXPECT_LT(adjoint_source_error(EnvelopeMisfit<double>(), s, d, nt, nrec), 1e-6);
  // Odd length too: the padded transform has a Nyquist bin only for even lengths.
  const std::vector<double> s7 = smooth_traces<double>(7, 2, 13), d7 = smooth_traces<double>(7, 2, 14);
  EXPECT_LT(adjoint_source_error(EnvelopeMisfit<double>(), s7, d7, 7, 2), 1e-6);
}

TEST(Envelope, IsZeroForEqualTracesAndBlindToAPhaseShift) {
  const index_t nt = 300;
  std::vector<double> a(nt), b(nt);
  for (index_t n = 0; n < nt; ++n) {
    const double g = std::exp(-std::pow((n - 150.0) / 30.0, 2));
    a[n] = g * std::cos(0.4 * n);
    b[n] = g * std::sin(0.4 * n);  // the same envelope, phase turned by 90 degrees
  }
  EXPECT_EQ(EnvelopeMisfit<double>().evaluate({nt, 1, 1e-3, a.data()}, {nt, 1, 1e-3, a.data()}, nullptr), 0.0);
  double l2 = 0;
  for (index_t n = 0; n < nt; ++n) l2 += 0.5 * (a[n] - b[n]) * (a[n] - b[n]);
  EXPECT_LT(EnvelopeMisfit<double>().evaluate({nt, 1, 1e-3, a.data()}, {nt, 1, 1e-3, b.data()}, nullptr), 1e-3 * l2);
}

template <class T>
class EnvelopeTyped : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(EnvelopeTyped, Precisions);

TYPED_TEST(EnvelopeTyped, ATraceOfZerosHasNoAdjointSourceAndEveryCallTheSameBits) {
  using T = TypeParam;
  const index_t nt = 25, nrec = 2;
  std::vector<T> s = smooth_traces<T>(nt, nrec, 15), d = smooth_traces<T>(nt, nrec, 16);
  for (index_t n = 0; n < nt; ++n) s[n * nrec] = T(0);  // receiver 0: E[s] = 0 everywhere
  std::vector<T> r(s.size(), T(7));
  const double j = EnvelopeMisfit<T>().evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d.data()}, r.data());
  EXPECT_TRUE(std::isfinite(j));
  for (index_t n = 0; n < nt; ++n) EXPECT_EQ(r[n * nrec], T(0)) << "sample " << n;
  // Every call the same bits (FFTW_ESTIMATE plans, fixed order).
  std::vector<T> r2(s.size());
  EXPECT_EQ(j, EnvelopeMisfit<T>().evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, d.data()}, r2.data()));
  EXPECT_EQ(r, r2);
}

}  // namespace
}  // namespace revwave
