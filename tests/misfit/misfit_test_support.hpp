// Random traces and a central-difference check of an adjoint source, for the misfits' unit tests.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "revwave/misfit/misfit.hpp"

namespace revwave::testing {

// Smooth random traces (nt x nrec, sample-major): band-limited noise, so that envelopes and
// correlations behave as for seismic traces rather than white noise.
template <class T>
std::vector<T> smooth_traces(index_t nt, index_t nrec, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(nt * nrec));
  for (index_t r = 0; r < nrec; ++r) {
    double a = 0, b = 0;
    for (index_t n = 0; n < nt; ++n) {
      a = 0.8 * a + normal(rng);
      b = 0.8 * b + a;
      v[static_cast<std::size_t>(n * nrec + r)] = static_cast<T>(0.1 * b * std::sin(0.07 * double(n + 5 * r)));
    }
  }
  return v;
}

// The largest relative difference between the adjoint source and central differences of J over
// every sample (double traces), relative to the largest adjoint-source value.
inline double adjoint_source_error(const Misfit<double>& misfit, const std::vector<double>& syn,
                                   const std::vector<double>& obs, index_t nt, index_t nrec, double h = 1e-6) {
  std::vector<double> r(syn.size());
  misfit.evaluate({nt, nrec, 1e-3, syn.data()}, {nt, nrec, 1e-3, obs.data()}, r.data());
  double worst = 0, peak = 0;
  for (double v : r) peak = std::max(peak, std::abs(v));
  std::vector<double> s = syn;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double keep = s[i];
    s[i] = keep + h;
    const double up = misfit.evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, obs.data()}, nullptr);
    s[i] = keep - h;
    const double down = misfit.evaluate({nt, nrec, 1e-3, s.data()}, {nt, nrec, 1e-3, obs.data()}, nullptr);
    s[i] = keep;
    worst = std::max(worst, std::abs((up - down) / (2 * h) - r[i]));
  }
  return worst / peak;
}

}  // namespace revwave::testing
