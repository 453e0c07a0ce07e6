// The constant-Q fit of the visco-acoustic physics (numerics/visco/visco_model.hpp): three standard
// linear solids whose Q over the band 0.25 f0 .. 3 f0 is the asked one to 0.3% (Q >= 30) and 1.1%
// (Q = 5; measured 0.33% and 1.08%), with positive strengths; kappa puts the phase velocity at the reference frequency on the
// model's velocity; the dispersion follows Kjartansson's constant-Q law (to 0.1% for Q >= 30, 0.4%
// for Q = 8, over the band and for a reference anywhere in it); Q = infinity is no
// attenuation at all.
#include <gtest/gtest.h>

#include <cmath>

#include "revwave/numerics/visco/visco_model.hpp"

namespace revwave {
namespace {

constexpr double pi = 3.14159265358979323846;

// The largest relative error of Q(f) over the band, on 400 log-spaced frequencies (not the fit's 200).
double worst_q_error(const SlsBand& band, double q) {
  const auto tau = sls_strengths(band, q);
  double worst = 0;
  for (int k = 0; k < 400; ++k) {
    const double f = band.f_lo * std::pow(band.f_hi / band.f_lo, k / 399.0);
    worst = std::max(worst, std::abs(sls_quality(band, tau, f) / q - 1));
  }
  return worst;
}

TEST(SlsFit, QualityIsConstantOverTheBand) {
  const SlsBand band = sls_band(12.0);
  EXPECT_DOUBLE_EQ(band.f_lo, 3.0);
  EXPECT_DOUBLE_EQ(band.f_hi, 36.0);
  for (double q : {30.0, 100.0, 1000.0}) EXPECT_LT(worst_q_error(band, q), 0.0035) << "Q " << q;
  EXPECT_LT(worst_q_error(band, 10.0), 0.005);
  EXPECT_LT(worst_q_error(band, min_quality), 0.011);
  for (double q : {min_quality, 10.0, 100.0, 1e5})
    for (double t : sls_strengths(band, q)) EXPECT_GT(t, 0.0) << "Q " << q;
  for (double t : sls_strengths(band, INFINITY)) EXPECT_EQ(t, 0.0);
  // A huge finite Q (a .npy's "none" marker, say) is almost none, not NaN: q^2 would overflow.
  for (double t : sls_strengths(band, 1e300)) {
    EXPECT_TRUE(std::isfinite(t));
    EXPECT_LT(std::abs(t), 1e-290);
  }
  // A band outside the fitted one is not constant Q: the fit is for the source's band.
  const auto tau = sls_strengths(band, 30.0);
  EXPECT_GT(sls_quality(band, tau, 0.05 * 12.0), 1.5 * 30.0);
}

TEST(SlsFit, TheReferenceFrequencyCarriesTheModelsVelocity) {
  const SlsBand band = sls_band(10.0);
  for (double q : {8.0, 30.0, 200.0}) {
    const auto tau = sls_strengths(band, q);
    for (double f_ref : {10.0, 4.0, 25.0}) {
      const double kappa = sls_kappa(band, tau, f_ref);
      EXPECT_LT(kappa, 1.0);
      EXPECT_NEAR(sls_phase_velocity(band, tau, kappa, 2000.0, f_ref), 2000.0, 1e-9) << q << " " << f_ref;
      // Kjartansson: c(f) = c(f_ref) (f / f_ref)^(atan(1/Q) / pi) over the band
      const double gamma = std::atan(1.0 / q) / pi;
      for (double f : {3.0, 7.0, 15.0, 28.0}) {
        const double c = sls_phase_velocity(band, tau, kappa, 2000.0, f);
        EXPECT_NEAR(c / (2000.0 * std::pow(f / f_ref, gamma)), 1.0, q < 30 ? 4e-3 : 1e-3)
            << "Q " << q << " at " << f << " Hz, reference " << f_ref << " Hz";
      }
    }
  }
  const auto none = sls_strengths(band, INFINITY);
  EXPECT_EQ(sls_kappa(band, none, 10.0), 1.0);
}

}  // namespace
}  // namespace revwave
