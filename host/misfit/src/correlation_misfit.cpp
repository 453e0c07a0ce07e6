#include "revwave/misfit/correlation_misfit.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace revwave {

template <class T>
double CorrelationMisfit<T>::evaluate(const Traces<T>& syn, const Traces<T>& obs, T* adjoint_source) const {
  if (syn.nt != obs.nt || syn.nrec != obs.nrec)
    throw std::logic_error("correlation misfit: synthetic and observed traces differ in shape");
  const index_t nt = syn.nt, nrec = syn.nrec;
  const auto traces = static_cast<std::size_t>(nrec);
  // Per receiver: <s, s>, <d, d>, <s, d>, each summed over the samples in ascending order.
  std::vector<double> ss(traces, 0.0), dd(traces, 0.0), sd(traces, 0.0);
  for (index_t n = 0; n < nt; ++n) {
    const T* s = syn.sample(n);
    const T* d = obs.sample(n);
    for (index_t r = 0; r < nrec; ++r) {
      const double sv = s[r], dv = d[r];
      ss[r] += sv * sv;
      dd[r] += dv * dv;
      sd[r] += sv * dv;
    }
  }
  // Per receiver: c = <s, d> / (|s| |d|), and the adjoint source's two weights a s + b d.
  std::vector<double> a(traces, 0.0), b(traces, 0.0);
  double j = 0;
  for (std::size_t r = 0; r < traces; ++r) {
    if (!(ss[r] > 0 && dd[r] > 0)) continue;  // a trace of zeros: nothing to J, nothing to r
    const double norms = std::sqrt(ss[r]) * std::sqrt(dd[r]);
    const double c = sd[r] / norms;
    j -= c;
    a[r] = c / ss[r];
    b[r] = -1.0 / norms;
  }
  if (adjoint_source != nullptr) {
    for (index_t n = 0; n < nt; ++n) {
      const T* s = syn.sample(n);
      const T* d = obs.sample(n);
      T* out = adjoint_source + n * nrec;
      for (index_t r = 0; r < nrec; ++r) out[r] = static_cast<T>(a[r] * double(s[r]) + b[r] * double(d[r]));
    }
  }
  return j;
}

template class CorrelationMisfit<float>;
template class CorrelationMisfit<double>;

}  // namespace revwave
