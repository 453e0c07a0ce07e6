// The least-squares misfit J = 1/2 sum_n |S u[n] - d[n]|^2 and its adjoint source r = S u - d.
#pragma once
#include "revwave/misfit/misfit.hpp"

namespace revwave {

template <class T>
class L2Misfit final : public Misfit<T> {
 public:
  MisfitKind kind() const override { return MisfitKind::l2; }
  // The residual in T (as the reverse step injects it), each sample's 1/2 |r|^2 summed in double
  // over the receivers in order, and the samples' sums added in ascending n: the order the
  // gradient has always summed J in, so the bits of every existing result stay.
  double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const override;
};

// The default misfit of every driver (one instance per precision, stateless).
template <class T>
const Misfit<T>& l2_misfit();

}  // namespace revwave
