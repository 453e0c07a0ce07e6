#include "revwave/misfit/l2_misfit.hpp"

#include <stdexcept>
#include <vector>

namespace revwave {

template <class T>
double L2Misfit<T>::evaluate(const Traces<T>& syn, const Traces<T>& obs, T* adjoint_source) const {
  if (syn.nt != obs.nt || syn.nrec != obs.nrec)
    throw std::logic_error("L2 misfit: synthetic and observed traces differ in shape");
  std::vector<T> residual(static_cast<std::size_t>(syn.nrec));
  double j = 0;
  for (index_t n = 0; n < syn.nt; ++n) {
    const T* s = syn.sample(n);
    const T* d = obs.sample(n);
    double sample = 0;
    for (index_t r = 0; r < syn.nrec; ++r) {
      const T res = s[r] - d[r];
      sample += 0.5 * static_cast<double>(res) * static_cast<double>(res);
      if (adjoint_source != nullptr) adjoint_source[n * syn.nrec + r] = res;
    }
    j += sample;
  }
  return j;
}

template <class T>
const Misfit<T>& l2_misfit() {
  static const L2Misfit<T> instance;
  return instance;
}

template class L2Misfit<float>;
template class L2Misfit<double>;
template const Misfit<float>& l2_misfit<float>();
template const Misfit<double>& l2_misfit<double>();

}  // namespace revwave
