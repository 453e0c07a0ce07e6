// The envelope misfit: J = 1/2 sum over traces and samples (E[s] - E[d])^2, with E[x] =
// sqrt(x^2 + (H x)^2) the envelope and H the discrete Hilbert transform along time (FFTW3, each
// trace zero-padded to 2 nt). Its adjoint source, trace by trace, with e = E[s] and res = e - E[d]:
// r = res s / e - H(res (H s) / e), exact for the discrete H because H^T = -H. Where e = 0 (s and
// H s both zero at that sample) the envelope has no derivative: both weights are taken as 0.
// docs/physics/misfits.md derives it.
#pragma once
#include "revwave/misfit/misfit.hpp"

namespace revwave {

template <class T>
class EnvelopeMisfit final : public Misfit<T> {
 public:
  MisfitKind kind() const override { return MisfitKind::envelope; }
  // Transforms and sums in double: per receiver over the samples in ascending order, then over the
  // receivers in ascending order; the adjoint source rounded to T once.
  double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const override;
};

}  // namespace revwave
