// Forward modelling on any backend: N steps, the receivers sampled at every n = 0..N.
#pragma once
#include <chrono>
#include <vector>

#include "revwave/core/progress.hpp"

namespace revwave {

template <class T>
struct ShotData {
  index_t nt = 0, nrec = 0;
  std::vector<T> traces;       // nt x nrec, C order
  double step_seconds = 0;     // the time loop alone
};

template <class Propagator, class T = typename Propagator::value_type>
ShotData<T> run_forward(Propagator& prop, const Progress& progress = {}) {
  const auto& p = prop.problem();
  ShotData<T> shot;
  shot.nt = p.time.nt();
  shot.nrec = p.rec.count;
  shot.traces.assign(static_cast<std::size_t>(shot.nt * shot.nrec), T(0));
  const auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  prop.sample(shot.traces.data());
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.sample(shot.traces.data() + (n + 1) * shot.nrec);
    if (progress) progress(n + 1, p.time.steps);
  }
  shot.step_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return shot;
}

}  // namespace revwave
