// Source-signature estimation: a wavelet that is not a Ricker (a Ricker delayed and turned in phase
// by 60 degrees) recovered from noise-free data within 1% relative L2, from one record and from a
// survey on any runner; and the refusal when no receiver sees the source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/misfit/wavelet_estimate.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "revwave/setup/wavelet_estimation.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

// cos(phi) R(t - t1) + sin(phi) H[R](t - t1) sampled at n dt: the quadrature part from a long,
// finely sampled Ricker by a plain DFT (no FFT library in the test, independent of the one tested).
std::vector<double> rotated_ricker(double f0, double t1, double phi, double dt, index_t nt) {
  const int L = 4096;
  const double dtf = dt / 2, start = t1 - L / 2 * dtf;  // the Ricker centred in a window of 4096 half samples
  std::vector<double> r(L);
  for (int i = 0; i < L; ++i) r[i] = ricker_value(start + i * dtf, f0, t1);
  std::vector<std::complex<double>> twiddle(L), spec(L);
  for (int i = 0; i < L; ++i) twiddle[i] = std::polar(1.0, -2 * M_PI * i / L);
  for (int k = 0; k < L; ++k) {
    std::complex<double> s = 0;
    for (int i = 0; i < L; ++i) s += r[i] * twiddle[(static_cast<long>(k) * i) % L];
    spec[k] = s;
  }
  // -i sgn(k) in the fine spectrum, then back: the Hilbert transform on the fine grid.
  for (int k = 1; k < L / 2; ++k) {
    spec[k] *= std::complex<double>(0, -1);
    spec[L - k] *= std::complex<double>(0, 1);
  }
  spec[0] = spec[L / 2] = 0;
  std::vector<double> w(static_cast<std::size_t>(nt), 0.0);
  for (index_t n = 0; n < nt; ++n) {
    const double pos = (n * dt - start) / dtf;
    const int i = static_cast<int>(std::lround(pos));
    if (i < 0 || i >= L) continue;
    std::complex<double> h = 0;
    for (int k = 0; k < L; ++k) h += spec[k] * std::conj(twiddle[(static_cast<long>(k) * i) % L]);
    w[static_cast<std::size_t>(n)] = std::cos(phi) * r[i] + std::sin(phi) * h.real() / L;
  }
  return w;
}

double relative_l2(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

// A small model with an anomaly, the source near the top and receivers below, recorded for 1 s: long
// enough that little energy runs past the record's end, which the estimate cannot see (with 0.5 s
// the error is about 4%: docs/physics/misfits.md).
testing::SmallCase estimation_case() {
  testing::SmallCase c = testing::case_on({20, 18, 16}, 10, 4, 0);
  c.acq.sources = {{100, 90, 60}};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) c.acq.receivers.push_back({20.0 + 40 * i, 30.0 + 40 * j, 100});
  c.time.steps = static_cast<index_t>(std::ceil(1.0 / c.time.dt));
  return c;
}

TEST(WaveletEstimate, RecoversADelayedPhaseRotatedRickerFromOneRecord) {
  testing::SmallCase c = estimation_case();
  const std::vector<double> truth = rotated_ricker(15.0, 0.11, M_PI / 3, c.time.dt, c.time.nt());
  c.acq.wavelet = truth;
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  c.acq.wavelet.clear();  // the estimate sees only the data and the impulse response
  Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  const std::vector<double> w = estimate_record_wavelet<double>(p, d.data(), Backend::cpu, {});
  ASSERT_EQ(w.size(), truth.size());
  EXPECT_LT(relative_l2(w, truth), 0.01);
  // Not a Ricker: the best Ricker of the same peak frequency is far from it.
  EXPECT_GT(relative_l2(ricker_samples(15.0, 0.11, c.time.dt, c.time.nt()), truth), 0.3);
}

// With a density rising with depth (10 kg/m^3 a metre from 1000, clipped at 2500) under either
// layer: before the density operator was semi-definite the C-PML's run grew without bound and the
// estimate was 100% off (1.3% with the sponge); now it is as good as without a density.
TEST(WaveletEstimate, ADensityEstimatesAsWellAsNone) {
  for (bool cpml : {false, true}) {
    testing::SmallCase c = estimation_case();
    c.grid.cpml = cpml;
    c.true_model.density.resize(c.true_model.velocity.size());
    for (std::size_t i = 0; i < c.true_model.density.size(); ++i)
      c.true_model.density[i] =
          std::min(2500.0, 1000.0 + 10.0 * c.grid.spacing * double(i % static_cast<std::size_t>(c.grid.shape[2])));
    c.time.dt = default_dt(c.grid, c.true_model);
    c.time.steps = static_cast<index_t>(std::ceil(1.0 / c.time.dt));
    const std::vector<double> truth = rotated_ricker(15.0, 0.11, M_PI / 3, c.time.dt, c.time.nt());
    c.acq.wavelet = truth;
    const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
    c.acq.wavelet.clear();
    Problem<double> p = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
    const std::vector<double> w = estimate_record_wavelet<double>(p, d.data(), Backend::cpu, {});
    EXPECT_LT(relative_l2(w, truth), 0.01) << (cpml ? "cpml" : "sponge");
  }
}

// The estimation case's two shots, sources apart, on a time axis of their data's; no data yet.
Survey two_shots(const testing::SmallCase& c, const TimeAxis& time) {
  Survey survey;
  for (const Vec3 s : {Vec3{50, 50, 60}, Vec3{150, 130, 60}}) {
    Shot shot;
    shot.name = "shot";
    shot.acquisition = c.acq;
    shot.acquisition.sources = {s};
    shot.time = time;
    survey.shots.push_back(shot);
  }
  return survey;
}

TEST(WaveletEstimate, OneSignatureForASurveyOnAnyRunner) {
  testing::SmallCase c = estimation_case();
  const std::vector<double> truth = rotated_ricker(15.0, 0.11, M_PI / 3, c.time.dt, c.time.nt());
  Survey survey = two_shots(c, c.time);
  for (Shot& shot : survey.shots) {
    testing::SmallCase one = c;
    one.acq = shot.acquisition;
    one.acq.wavelet = truth;
    shot.data = testing::observed_in<double>(one, c.true_model);
  }
  SurveyRunOptions o;
  SerialShotRunner runner;
  const std::vector<double> w = estimate_survey_wavelet<double>(c.grid, c.true_model, survey, o, runner);
  EXPECT_LT(relative_l2(w, truth), 0.01);
  // Shots of another time axis cannot share one signature.
  survey.shots[1].time.steps -= 1;
  survey.shots[1].data.resize(survey.shots[1].data.size() - c.acq.receivers.size());
  EXPECT_THROW(estimate_survey_wavelet<double>(c.grid, c.true_model, survey, o, runner), InputError);
}

// Records sampled every 2.5 stable steps, run in 3 steps a sample (record_resampling.hpp): the
// estimate is the signature at the records' samples that such a run interpolates, so it must give
// back the one the data were modelled with (an impulse probed at the run's start would lose half of
// its interpolation before it: 38% off at k = 2).
TEST(WaveletEstimate, RecoversTheSignatureOfRecordsRunInSubsteps) {
  testing::SmallCase c = estimation_case();
  const double dt = 2.5 * c.time.dt;
  const auto nt = static_cast<index_t>(std::ceil(1.0 / dt)) + 1;
  const std::vector<double> truth = rotated_ricker(15.0, 0.11, M_PI / 3, dt, nt);
  Survey survey = two_shots(c, TimeAxis{dt, nt - 1});
  choose_substeps(survey, c.grid, max_velocity(c.true_model), 1.0);
  ASSERT_EQ(survey.shots[0].substeps, 3);
  for (Shot& shot : survey.shots) {
    shot.wavelet = truth;
    shot.data = model_shot_data<double>(c.grid, c.true_model, shot, Backend::cpu, {});
    shot.wavelet.clear();
  }
  SurveyRunOptions o;
  SerialShotRunner runner;
  const std::vector<double> w = estimate_survey_wavelet<double>(c.grid, c.true_model, survey, o, runner);
  ASSERT_EQ(w.size(), truth.size());
  EXPECT_LT(relative_l2(w, truth), 0.01);
}

TEST(WaveletEstimate, RefusesWhenNoReceiverSeesTheSourceOrThereAreNoData) {
  const index_t nt = 16, nrec = 2;
  const std::vector<double> zero(nt * nrec, 0.0), d(nt * nrec, 1.0);
  EXPECT_THROW(wavelet_from_sums(wavelet_spectral_sums(zero.data(), d.data(), nt, nrec), nt), InputError);
  EXPECT_THROW(wavelet_from_sums(wavelet_spectral_sums(d.data(), zero.data(), nt, nrec), nt), InputError);
}

}  // namespace
}  // namespace revwave
