// A real discrete Fourier transform of one length through FFTW3 (double), for the envelope misfit's
// Hilbert transform and the source-signature estimate. Planned with FFTW_ESTIMATE: the plan, and
// so the bits, depend only on the length (FFTW_MEASURE picks plans by timing them, so two runs could
// round differently). FFTW's planner is not thread-safe: planning and destroying plans hold one
// process-wide lock; executing a plan on its own buffers needs none, so shots may run side by side.
#pragma once
#include <complex>
#include <cstddef>

namespace revwave::detail {

class RealFft {
 public:
  explicit RealFft(std::size_t n);
  ~RealFft();
  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;

  std::size_t size() const { return n_; }
  std::size_t bins() const { return n_ / 2 + 1; }
  double* real() { return real_; }                        // n values
  std::complex<double>* spectrum() { return spectrum_; }  // n / 2 + 1 bins
  void forward();                                         // real -> spectrum: X[k] = sum_n x[n] exp(-2 pi i k n / N)
  void inverse();  // spectrum -> real, unnormalised: N times the inverse transform

 private:
  std::size_t n_;
  double* real_ = nullptr;
  std::complex<double>* spectrum_ = nullptr;
  void* forward_plan_ = nullptr;
  void* inverse_plan_ = nullptr;
};

// h = H x: the discrete Hilbert transform of the nt samples x, zero-padded to fft.size() >= 2 nt
// so that the transform's circular wrap does not fold the end of the trace onto its start. The
// spectrum is multiplied by -i sgn(k) with the zero and Nyquist bins zeroed, which makes H a real
// antisymmetric operator (H^T = -H): the adjoint of anything built on it applies H again.
void hilbert(RealFft& fft, const double* x, std::size_t nt, double* h);

}  // namespace revwave::detail
