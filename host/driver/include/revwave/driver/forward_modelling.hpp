// Forward modelling on any backend: N steps, the receivers sampled at every n = 0..N where the
// backend computes (device memory on a GPU) and read back once; the growth guard watches the field.
#pragma once
#include <chrono>
#include <vector>

#include "revwave/core/progress.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/propagator.hpp"

namespace revwave {

template <class T>
struct ShotData {
  index_t nt = 0, nrec = 0;
  std::vector<T> traces;    // nt x nrec, C order
  double step_seconds = 0;  // the time loop alone (and the traces' read-back)
};

template <class P, class T = typename P::value_type>
ShotData<T> run_forward(P& prop, const Progress& progress = {}) {
  static_assert(is_forward_propagator_v<P>, "run_forward needs a propagator (revwave/driver/propagator.hpp)");
  const auto& p = prop.problem();
  ShotData<T> shot;
  shot.nt = p.time.nt();
  shot.nrec = p.rec.count;
  GrowthGuard guard(p);
  const auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  prop.record_trace(0);
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.record_trace(n + 1);
    guard.after_step(prop, n + 1);
    if (progress) progress(n + 1, p.time.steps);
  }
  shot.traces = prop.traces(shot.nt);
  shot.step_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return shot;
}

}  // namespace revwave
