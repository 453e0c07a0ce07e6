// The global normalised zero-lag cross-correlation: J = - sum over traces <s/|s|, d/|d|> (s the
// synthetic and d the observed trace of one receiver over all samples), blind to the amplitude of
// either trace. Its adjoint source, trace by trace: r = (c s / |s|^2 - d / (|s| |d|)) with
// c = <s, d> / (|s| |d|). A trace of zeros (synthetic or observed) has no direction: it adds 0 to J
// and 0 to the adjoint source (J is not differentiable there; 0 is its value and the choice of
// subgradient). docs/physics/misfits.md derives it.
#pragma once
#include "revwave/misfit/misfit.hpp"

namespace revwave {

template <class T>
class CorrelationMisfit final : public Misfit<T> {
 public:
  MisfitKind kind() const override { return MisfitKind::correlation; }
  // Sums in double, per receiver over the samples in ascending order, then over the receivers in
  // ascending order; the adjoint source rounded to T once.
  double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const override;
};

}  // namespace revwave
