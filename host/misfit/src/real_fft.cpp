#include "real_fft.hpp"

#include <fftw3.h>

#include <algorithm>
#include <mutex>
#include <new>

namespace revwave::detail {
namespace {
std::mutex& planner_lock() {
  static std::mutex m;
  return m;
}
}  // namespace

RealFft::RealFft(std::size_t n) : n_(n) {
  const std::lock_guard<std::mutex> lock(planner_lock());
  real_ = static_cast<double*>(fftw_malloc(sizeof(double) * n_));
  spectrum_ = reinterpret_cast<std::complex<double>*>(fftw_malloc(sizeof(fftw_complex) * bins()));
  if (real_ == nullptr || spectrum_ == nullptr) {
    fftw_free(real_);
    fftw_free(spectrum_);
    throw std::bad_alloc();
  }
  auto* c = reinterpret_cast<fftw_complex*>(spectrum_);
  const int len = static_cast<int>(n_);
  forward_plan_ = fftw_plan_dft_r2c_1d(len, real_, c, FFTW_ESTIMATE);
  inverse_plan_ = fftw_plan_dft_c2r_1d(len, c, real_, FFTW_ESTIMATE);
}

RealFft::~RealFft() {
  const std::lock_guard<std::mutex> lock(planner_lock());
  fftw_destroy_plan(static_cast<fftw_plan>(forward_plan_));
  fftw_destroy_plan(static_cast<fftw_plan>(inverse_plan_));
  fftw_free(real_);
  fftw_free(spectrum_);
}

void RealFft::forward() { fftw_execute(static_cast<fftw_plan>(forward_plan_)); }
// c2r overwrites its input: the spectrum is scratch afterwards.
void RealFft::inverse() { fftw_execute(static_cast<fftw_plan>(inverse_plan_)); }

void hilbert(RealFft& fft, const double* x, std::size_t nt, double* h) {
  const std::size_t n = fft.size();
  double* buf = fft.real();
  std::copy(x, x + nt, buf);
  std::fill(buf + nt, buf + n, 0.0);
  fft.forward();
  std::complex<double>* X = fft.spectrum();
  X[0] = 0.0;
  for (std::size_t k = 1; k < fft.bins(); ++k) X[k] = std::complex<double>(X[k].imag(), -X[k].real());  // -i X[k]
  if (n % 2 == 0) X[n / 2] = 0.0;
  fft.inverse();
  const double scale = 1.0 / static_cast<double>(n);
  for (std::size_t i = 0; i < nt; ++i) h[i] = buf[i] * scale;
}

}  // namespace revwave::detail
