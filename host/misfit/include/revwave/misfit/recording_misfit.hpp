// A misfit that keeps what it was given and what it gave: the synthetic traces and the adjoint
// source of its last evaluation, around any other misfit. For front ends that hand them to the user
// (revwave.gradient's `synthetic` and `residual`); one run at a time (it is not reentrant).
#pragma once
#include <vector>

#include "revwave/misfit/misfit.hpp"

namespace revwave {

template <class T>
class RecordingMisfit final : public Misfit<T> {
 public:
  explicit RecordingMisfit(const Misfit<T>& inner) : inner_(inner) {}
  MisfitKind kind() const override { return inner_.kind(); }
  double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const override {
    synthetic_.assign(synthetic.values, synthetic.values + synthetic.size());
    const double j = inner_.evaluate(synthetic, observed, adjoint_source);
    if (adjoint_source != nullptr) adjoint_source_.assign(adjoint_source, adjoint_source + synthetic.size());
    return j;
  }
  // nt x nrec, sample-major, of the last evaluation (empty before it).
  std::vector<T>& synthetic() { return synthetic_; }
  std::vector<T>& adjoint_source() { return adjoint_source_; }

 private:
  const Misfit<T>& inner_;
  mutable std::vector<T> synthetic_, adjoint_source_;
};

}  // namespace revwave
