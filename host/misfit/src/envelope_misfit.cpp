#include "revwave/misfit/envelope_misfit.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "real_fft.hpp"

namespace revwave {

template <class T>
double EnvelopeMisfit<T>::evaluate(const Traces<T>& syn, const Traces<T>& obs, T* adjoint_source) const {
  if (syn.nt != obs.nt || syn.nrec != obs.nrec)
    throw std::logic_error("envelope misfit: synthetic and observed traces differ in shape");
  const auto nt = static_cast<std::size_t>(syn.nt);
  const index_t nrec = syn.nrec;
  detail::RealFft fft(2 * nt);
  std::vector<double> s(nt), d(nt), hs(nt), hd(nt), w(nt), hw(nt), r(nt);
  double j = 0;
  for (index_t k = 0; k < nrec; ++k) {
    for (std::size_t n = 0; n < nt; ++n) {
      s[n] = syn.values[n * nrec + k];
      d[n] = obs.values[n * nrec + k];
    }
    detail::hilbert(fft, s.data(), nt, hs.data());
    detail::hilbert(fft, d.data(), nt, hd.data());
    double trace = 0;
    for (std::size_t n = 0; n < nt; ++n) {
      const double e = std::sqrt(s[n] * s[n] + hs[n] * hs[n]);
      const double res = e - std::sqrt(d[n] * d[n] + hd[n] * hd[n]);
      trace += 0.5 * res * res;
      r[n] = e > 0 ? res * s[n] / e : 0.0;   // d e / d s[n] = s / e
      w[n] = e > 0 ? res * hs[n] / e : 0.0;  // d e / d (H s)[n] = (H s) / e, carried back through H^T = -H
    }
    j += trace;
    if (adjoint_source == nullptr) continue;
    detail::hilbert(fft, w.data(), nt, hw.data());
    for (std::size_t n = 0; n < nt; ++n) adjoint_source[n * nrec + k] = static_cast<T>(r[n] - hw[n]);
  }
  return j;
}

template class EnvelopeMisfit<float>;
template class EnvelopeMisfit<double>;

}  // namespace revwave
