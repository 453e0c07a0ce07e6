#include "revwave/misfit/wavelet_estimate.hpp"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <stdexcept>

#include "real_fft.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {

std::vector<double> wavelet_spectral_sums(const double* impulse_response, const double* observed, index_t nt,
                                          index_t nrec) {
  const auto n = static_cast<std::size_t>(nt);
  detail::RealFft fft(2 * n);
  const std::size_t bins = fft.bins();  // nt + 1
  std::vector<double> sums(wavelet_sum_blocks * bins, 0.0);
  std::vector<std::complex<double>> g(bins);
  for (index_t k = 0; k < nrec; ++k) {
    double* buf = fft.real();
    std::fill(buf, buf + fft.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) buf[i] = impulse_response[i * nrec + k];
    fft.forward();
    std::copy(fft.spectrum(), fft.spectrum() + bins, g.begin());
    std::fill(buf, buf + fft.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) buf[i] = observed[i * nrec + k];
    fft.forward();
    const std::complex<double>* d = fft.spectrum();
    for (std::size_t b = 0; b < bins; ++b) {
      const std::complex<double> gd = std::conj(g[b]) * d[b];
      sums[b] += gd.real();
      sums[bins + b] += gd.imag();
      sums[2 * bins + b] += std::norm(g[b]);
      sums[3 * bins + b] += std::norm(d[b]);
    }
  }
  return sums;
}

std::vector<double> wavelet_from_sums(const std::vector<double>& sums, index_t nt, double water_level) {
  const auto n = static_cast<std::size_t>(nt);
  detail::RealFft fft(2 * n);
  const std::size_t bins = fft.bins();
  if (sums.size() != wavelet_sum_blocks * bins)
    throw std::logic_error("wavelet estimate: spectral sums of the wrong length");
  const double* gg = sums.data() + 2 * bins;
  const double* dd = sums.data() + 3 * bins;
  double weighted = 0, power = 0;  // sum_f P sum|G|^2 and sum_f P, in ascending f
  for (std::size_t b = 0; b < bins; ++b) {
    weighted += dd[b] * gg[b];
    power += dd[b];
  }
  if (!(power > 0))
    throw InputError("--estimate-wavelet: the observed data are zero: there is no signature to estimate");
  if (!(weighted > 0)) {
    throw InputError(
        "--estimate-wavelet: the modelled response to an impulse is zero at every receiver within the record: "
        "no source signature can be estimated (a longer record, or receivers nearer the sources)");
  }
  const double eps = water_level * weighted / power;
  std::complex<double>* s = fft.spectrum();
  for (std::size_t b = 0; b < bins; ++b) s[b] = std::complex<double>(sums[b], sums[bins + b]) / (gg[b] + eps);
  fft.inverse();
  const double scale = 1.0 / static_cast<double>(fft.size());
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = fft.real()[i] * scale;
  return w;
}

double data_peak_frequency(const double* traces, index_t nt, index_t nrec, double dt) {
  const auto n = static_cast<std::size_t>(nt);
  detail::RealFft fft(4 * n);
  std::vector<double> power(fft.bins(), 0.0);
  for (index_t k = 0; k < nrec; ++k) {
    double* buf = fft.real();
    std::fill(buf, buf + fft.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) buf[i] = traces[i * static_cast<std::size_t>(nrec) + k];
    fft.forward();
    for (std::size_t b = 0; b < power.size(); ++b) power[b] += std::norm(fft.spectrum()[b]);
  }
  std::size_t peak = 1;
  for (std::size_t b = 1; b < power.size(); ++b)
    if (power[b] > power[peak]) peak = b;
  if (power.size() < 2 || !(power[peak] > 0)) return 0.0;
  return static_cast<double>(peak) / (static_cast<double>(fft.size()) * dt);
}

}  // namespace revwave
