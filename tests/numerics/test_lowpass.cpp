// The zero-phase low-pass against its closed-form response: sinusoids come out scaled by
// |H(f)|^2 with no phase shift, a symmetric pulse stays symmetric, a constant passes unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/lowpass.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {
namespace {

// Least-squares amplitude and phase of a sinusoid of frequency f over samples [lo, hi).
void fit(const std::vector<double>& x, double f, double dt, std::size_t lo, std::size_t hi, double& amp,
         double& phase) {
  double cc = 0, ss = 0, cs = 0, xc = 0, xs = 0;
  for (std::size_t n = lo; n < hi; ++n) {
    const double c = std::cos(2 * M_PI * f * n * dt), s = std::sin(2 * M_PI * f * n * dt);
    cc += c * c;
    ss += s * s;
    cs += c * s;
    xc += x[n] * c;
    xs += x[n] * s;
  }
  const double det = cc * ss - cs * cs;
  const double a = (xc * ss - xs * cs) / det, b = (xs * cc - xc * cs) / det;  // x ~ a cos + b sin
  amp = std::hypot(a, b);
  phase = std::atan2(-b, a);
}

TEST(ZeroPhaseLowpass, ScalesSinusoidsByTheClosedFormGainWithoutPhase) {
  const double dt = 0.002, fc = 12;
  for (int order : {2, 4, 8}) {
    const ZeroPhaseLowpass lp(fc, dt, order);
    EXPECT_DOUBLE_EQ(lp.gain(fc), 0.5);
    for (double f : {3.0, 9.0, 12.0, 15.0, 25.0}) {
      const std::size_t n = 8000;
      std::vector<double> x(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = std::cos(2 * M_PI * f * i * dt + 0.3);
      lp.apply(x.data(), n);
      double amp = 0, phase = 0;
      fit(x, f, dt, n / 4, 3 * n / 4, amp, phase);
      EXPECT_NEAR(amp, lp.gain(f), 2e-4 + 1e-3 * lp.gain(f)) << "order " << order << ", " << f << " Hz";
      if (lp.gain(f) > 1e-3) {
        EXPECT_NEAR(phase, 0.3, 1e-3) << "order " << order << ", " << f << " Hz";
      }
    }
  }
}

TEST(ZeroPhaseLowpass, KeepsASymmetricPulseSymmetricAndAConstantUnchanged) {
  const double dt = 0.001;
  const ZeroPhaseLowpass lp(15, dt, 4);
  const std::size_t n = 1001;
  std::vector<double> pulse(n);
  for (std::size_t i = 0; i < n; ++i) pulse[i] = ricker_value(i * dt, 20, 0.5);
  lp.apply(pulse.data(), n);
  double peak = 0;
  for (double v : pulse) peak = std::max(peak, std::abs(v));
  for (std::size_t i = 0; i < n / 2; ++i) EXPECT_NEAR(pulse[i], pulse[n - 1 - i], 1e-9 * peak) << i;
  EXPECT_LT(peak, 1.0);  // the 20 Hz Ricker loses part of its band above 15 Hz

  std::vector<double> flat(300, 2.5);
  lp.apply(flat.data(), flat.size());
  for (double v : flat) EXPECT_NEAR(v, 2.5, 1e-9);
}

TEST(ZeroPhaseLowpass, FiltersEveryTraceOfARecordAlike) {
  const double dt = 0.002;
  const ZeroPhaseLowpass lp(10, dt, 4);
  const std::size_t nt = 400, nr = 3;
  std::vector<float> record(nt * nr);
  std::vector<double> one(nt);
  for (std::size_t n = 0; n < nt; ++n) {
    one[n] = ricker_value(n * dt, 25, 0.2);
    for (std::size_t r = 0; r < nr; ++r) record[n * nr + r] = static_cast<float>((r + 1) * one[n]);
  }
  std::vector<double> one_f(one.begin(), one.end());
  for (std::size_t n = 0; n < nt; ++n) one_f[n] = static_cast<float>(one[n]);
  lp.apply(one_f.data(), nt);
  lp.apply_all(record, nt, nr);
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t n = 0; n < nt; ++n)
      EXPECT_NEAR(record[n * nr + r], static_cast<float>((r + 1) * one_f[n]), 1e-5) << r << "," << n;
}

TEST(ZeroPhaseLowpass, RefusesCutoffsOutsideTheBandAndOddOrders) {
  EXPECT_THROW(ZeroPhaseLowpass(250, 0.002), InputError);  // Nyquist
  EXPECT_THROW(ZeroPhaseLowpass(0, 0.002), InputError);
  EXPECT_THROW(ZeroPhaseLowpass(std::nan(""), 0.002), InputError);
  EXPECT_THROW(ZeroPhaseLowpass(10, 0), InputError);
  EXPECT_THROW(ZeroPhaseLowpass(10, 0.002, 3), InputError);
}

}  // namespace
}  // namespace revwave
