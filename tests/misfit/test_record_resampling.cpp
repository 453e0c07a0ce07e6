// The records' resampling against independent truth: the transpose by a dot product, the low-pass
// by a Ricker wavelet sampled analytically at both rates and by a sinusoid above the records'
// Nyquist frequency, the resampled misfit's adjoint source by central differences of J.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {
namespace {

std::vector<double> normal_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng);
  return v;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

TEST(RecordResampling, TheAdjointIsTheTransposeByADotProduct) {
  for (const index_t k : {2, 3, 4, 7})
    for (const index_t extra : {index_t(0), k - 1}) {  // a run that stopped between two record samples too
      const index_t nt_rec = 41, nrec = 3, nt_sim = simulation_samples(nt_rec, k) + extra;
      ASSERT_EQ(record_samples(nt_sim, k), nt_rec);
      const std::vector<double> x = normal_values(static_cast<std::size_t>(nt_sim * nrec), 1);
      const std::vector<double> y = normal_values(static_cast<std::size_t>(nt_rec * nrec), 2);
      std::vector<double> rx(y.size()), rty(x.size());
      resample_to_records(x.data(), nt_sim, nrec, k, rx.data());
      resample_to_simulation(y.data(), nt_sim, nrec, k, rty.data());
      const double lhs = dot(rx, y), rhs = dot(x, rty);
      EXPECT_LT(std::abs(lhs - rhs), 1e-14 * std::abs(lhs)) << "k " << k << ": " << lhs << " vs " << rhs;
    }
}

// Rows go to threads where there are many: one thread and two give the same bits.
TEST(RecordResampling, AnyThreadCountGivesTheSameBits) {
  const index_t k = 4, nt_rec = 200, nrec = 400, nt_sim = simulation_samples(nt_rec, k);
  const std::vector<double> x = normal_values(static_cast<std::size_t>(nt_sim * nrec), 6);
  const std::vector<double> y = normal_values(static_cast<std::size_t>(nt_rec * nrec), 7);
  std::vector<double> rx[2], rty[2];
  const int threads = omp_get_max_threads();
  for (int t = 0; t < 2; ++t) {
    omp_set_num_threads(t + 1);
    rx[t].resize(y.size());
    rty[t].resize(x.size());
    resample_to_records(x.data(), nt_sim, nrec, k, rx[t].data());
    resample_to_simulation(y.data(), nt_sim, nrec, k, rty[t].data());
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(std::memcmp(rx[0].data(), rx[1].data(), y.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(rty[0].data(), rty[1].data(), x.size() * sizeof(double)), 0);
}

TEST(RecordResampling, OneSubstepIsTheIdentity) {
  EXPECT_EQ(resampling_taps(1), std::vector<double>{1.0});
  const std::vector<double> x = normal_values(30, 3);
  std::vector<double> y(x.size());
  resample_to_records(x.data(), 10, 3, 1, y.data());
  EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)), 0);
  EXPECT_EQ(interpolate_signature(x, 1), x);
}

TEST(RecordResampling, AConstantPassesBothWays) {
  const index_t k = 4, nt_rec = 60, nt_sim = simulation_samples(nt_rec, k);
  const std::vector<double> ones_sim(static_cast<std::size_t>(nt_sim), 1.0), ones_rec(nt_rec, 1.0);
  std::vector<double> down(static_cast<std::size_t>(nt_rec));
  resample_to_records(ones_sim.data(), nt_sim, 1, k, down.data());
  const std::vector<double> up = interpolate_signature(ones_rec, k);
  ASSERT_EQ(static_cast<index_t>(up.size()), nt_sim);
  // Away from the ends (where the taps reach past the record) a constant is exact to rounding.
  // Taken to the records, a constant is exact from where the taps no longer reach before the run's
  // start (a run starts at rest: zeros before it) to the record's last sample (the run goes on past
  // it: simulation_samples); interpolated, where the taps reach record samples on both sides.
  for (index_t n = resampling_half_width; n < nt_rec; ++n)
    EXPECT_NEAR(down[static_cast<std::size_t>(n)], 1.0, 1e-13) << n;
  for (index_t j = k * resampling_half_width; j <= (nt_rec - 1 - resampling_half_width) * k; ++j)
    EXPECT_NEAR(up[static_cast<std::size_t>(j)], 1.0, 1e-13) << j;
  EXPECT_EQ(nt_sim, (nt_rec - 1 + resampling_half_width) * k + 1);
  EXPECT_EQ(record_samples(nt_sim, k), nt_rec);
  EXPECT_EQ(record_samples(nt_sim + k - 1, k), nt_rec);  // a run that stopped between two record samples
  EXPECT_THROW(record_samples(0, k), std::logic_error);
}

// A 12 Hz Ricker wavelet: sampled at 1 ms and taken to 4 ms, and sampled at 4 ms and interpolated
// to 1 ms, against the wavelet sampled analytically at the other rate.
TEST(RecordResampling, ABandLimitedSignalKeepsItsSamplesAtEitherRate) {
  const double f0 = 12, t0 = 0.1, dt_rec = 0.004;
  const index_t k = 4, nt_rec = 126, nt_sim = simulation_samples(nt_rec, k);
  const std::vector<double> fine = ricker_samples(f0, t0, dt_rec / k, nt_sim);
  const std::vector<double> coarse = ricker_samples(f0, t0, dt_rec, nt_rec);
  std::vector<double> down(static_cast<std::size_t>(nt_rec));
  resample_to_records(fine.data(), nt_sim, 1, k, down.data());
  const std::vector<double> up = interpolate_signature(coarse, k);
  double worst_down = 0, worst_up = 0;
  for (std::size_t n = 0; n < down.size(); ++n) worst_down = std::max(worst_down, std::abs(down[n] - coarse[n]));
  for (std::size_t j = 0; j < up.size(); ++j) {
    // Past the record's last sample the interpolation sees no more samples: only the record's span.
    if (static_cast<index_t>(j) <= (nt_rec - 1) * k) worst_up = std::max(worst_up, std::abs(up[j] - fine[j]));
  }
  // The Ricker's peak is 1; its spectrum at the 112 Hz pass-band edge is e^-87 of its peak.
  EXPECT_LT(worst_down, 1e-3);
  EXPECT_LT(worst_up, 1e-3);
}

// Above the records' Nyquist frequency a signal must not fold back onto them; at 0.65 of it a signal
// passes whole.
TEST(RecordResampling, ASignalAboveTheRecordsNyquistFrequencyIsRemoved) {
  const double dt_rec = 0.004, nyquist = 0.5 / dt_rec;
  const index_t k = 4, nt_rec = 200, nt_sim = simulation_samples(nt_rec, k);
  {
    const double f = 0.65 * nyquist;
    std::vector<double> s(static_cast<std::size_t>(nt_sim)), down(static_cast<std::size_t>(nt_rec));
    for (index_t j = 0; j < nt_sim; ++j) s[static_cast<std::size_t>(j)] = std::sin(2 * M_PI * f * j * dt_rec / k + 0.3);
    resample_to_records(s.data(), nt_sim, 1, k, down.data());
    double worst = 0;
    for (index_t n = resampling_half_width; n < nt_rec; ++n)
      worst = std::max(worst, std::abs(down[static_cast<std::size_t>(n)] - s[static_cast<std::size_t>(n * k)]));
    EXPECT_LT(worst, 1e-3) << "pass band";
  }
  for (const double f : {1.02 * nyquist, 1.1 * nyquist, 1.2 * nyquist, 1.5 * nyquist, 1.9 * nyquist, 3.0 * nyquist}) {
    std::vector<double> s(static_cast<std::size_t>(nt_sim));
    for (index_t j = 0; j < nt_sim; ++j) s[static_cast<std::size_t>(j)] = std::sin(2 * M_PI * f * j * dt_rec / k + 0.3);
    std::vector<double> down(static_cast<std::size_t>(nt_rec));
    resample_to_records(s.data(), nt_sim, 1, k, down.data());
    double worst = 0;
    for (index_t n = resampling_half_width; n < nt_rec; ++n)
      worst = std::max(worst, std::abs(down[static_cast<std::size_t>(n)]));
    EXPECT_LT(worst, 1e-3) << f << " Hz";
  }
}

// J = 1/2 |R s - d|^2 at the records' rate; its adjoint source on the simulation's samples against
// central differences of J, and J against the L2 misfit of the resampled traces.
TEST(RecordResampling, TheResampledMisfitsAdjointSourceIsItsDerivative) {
  const index_t k = 3, nt_rec = 30, nrec = 2, nt_sim = simulation_samples(nt_rec, k);
  const std::vector<double> syn = normal_values(static_cast<std::size_t>(nt_sim * nrec), 4);
  const std::vector<double> obs = normal_values(static_cast<std::size_t>(nt_rec * nrec), 5);
  const ResampledMisfit<double> misfit(l2_misfit<double>(), k);
  EXPECT_EQ(misfit.kind(), MisfitKind::l2);
  const double dt = 0.001;
  std::vector<double> r(syn.size());
  const double j = misfit.evaluate({nt_sim, nrec, dt, syn.data()}, {nt_sim, nrec, dt, obs.data()}, r.data());
  std::vector<double> rs(obs.size());
  resample_to_records(syn.data(), nt_sim, nrec, k, rs.data());
  double direct = 0;
  for (std::size_t i = 0; i < rs.size(); ++i) direct += 0.5 * (rs[i] - obs[i]) * (rs[i] - obs[i]);
  EXPECT_NEAR(j, direct, 1e-12 * direct);
  std::vector<double> s = syn;
  const double h = 1e-6;
  double worst = 0, peak = 0;
  for (double v : r) peak = std::max(peak, std::abs(v));
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] = syn[i] + h;
    const double plus = misfit.evaluate({nt_sim, nrec, dt, s.data()}, {nt_sim, nrec, dt, obs.data()}, nullptr);
    s[i] = syn[i] - h;
    const double minus = misfit.evaluate({nt_sim, nrec, dt, s.data()}, {nt_sim, nrec, dt, obs.data()}, nullptr);
    s[i] = syn[i];
    worst = std::max(worst, std::abs((plus - minus) / (2 * h) - r[i]));
  }
  EXPECT_LT(worst, 1e-7 * peak) << worst << " of " << peak;
}

}  // namespace
}  // namespace revwave
