// The seam between the sweeps: the synthetic traces the first forward sweep recorded (one read-back
// from where the backend keeps them), the misfit's J and adjoint source, and the adjoint source
// handed to the backend for the reverse sweep (one copy to it). Once per run: no step waits.
#pragma once
#include <utility>
#include <vector>

#include "revwave/misfit/misfit.hpp"

namespace revwave::detail {

// J of samples 0..steps, after the propagator has recorded all of them; the observed data have
// at least steps + 1 samples (an online run uses the first ones).
template <class P, class T>
double adjoint_source_from_traces(P& prop, const Misfit<T>& misfit, const T* observed, index_t steps) {
  const auto& p = prop.problem();
  const index_t nt = steps + 1, nrec = p.rec.count;
  const std::vector<T> synthetic = prop.traces(nt);
  std::vector<T> r(synthetic.size());
  const double j = misfit.evaluate(Traces<T>{nt, nrec, p.time.dt, synthetic.data()},
                                   Traces<T>{nt, nrec, p.time.dt, observed}, r.data());
  prop.set_adjoint_source(std::move(r));
  return j;
}

}  // namespace revwave::detail
