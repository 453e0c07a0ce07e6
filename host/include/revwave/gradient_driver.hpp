// The gradient driver: J(m) = 1/2 sum_n |S u[n] - d[n]|^2 and dJ/dm on any backend,
// either from the stored history (`full`) or by executing a checkpoint schedule
// against a checkpoint store. Both run the same reverse step, so they agree bit for bit.
#pragma once
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/checkpoint_store.hpp"
#include "revwave/errors.hpp"
#include "revwave/progress.hpp"
#include "revwave/schedule.hpp"

namespace revwave {

struct GradientStats {
  double objective = 0;
  index_t steps = 0;           // N
  index_t forward_steps = 0;   // every forward step executed, recomputations included
  index_t reverse_steps = 0;
  index_t stores = 0, restores = 0;
  double seconds_forward = 0;  // until the first reverse step
  double seconds_reverse = 0;  // from the first reverse step to the end
  std::size_t wavefield_storage_bytes = 0;  // history or checkpoint slots
};

struct GradientOutput {
  GradientStats stats;
  std::vector<double> gradient;  // interior, C order
};

namespace detail {

inline double elapsed(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// J summed in ascending n whatever order the reverse steps ran in, so every strategy gives the same bits.
template <class T>
double objective(const std::vector<double>& misfit_per_sample, const T* observed, index_t nrec) {
  double j0 = 0;  // n = 0: u[0] = 0, the residual is -d[0]
  for (index_t r = 0; r < nrec; ++r) j0 += 0.5 * static_cast<double>(observed[r]) * static_cast<double>(observed[r]);
  double j = j0;
  for (std::size_t n = 1; n < misfit_per_sample.size(); ++n) j += misfit_per_sample[n];
  return j;
}

}  // namespace detail

// Memory the stored history needs: one wavefield per step (u[1..N]).
inline std::size_t full_history_bytes(index_t steps, std::size_t field_bytes) {
  return static_cast<std::size_t>(steps) * field_bytes;
}

// `full`: N forward steps keeping u[1..N] (where is the backend's choice), then N
// reverse steps reading them back. The backend refuses, before allocating, a history
// that does not fit.
template <class Propagator, class T = typename Propagator::value_type>
GradientOutput gradient_full(Propagator& prop, const T* observed, const Progress& progress = {}) {
  const auto& p = prop.problem();
  const index_t N = p.time.steps, nrec = p.rec.count;
  GradientOutput out;
  out.stats.steps = N;
  out.stats.wavefield_storage_bytes = prop.allocate_history(N);

  auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  for (index_t n = 0; n < N; ++n) {
    prop.forward_step(n);
    prop.record_history(n + 1);
    ++out.stats.forward_steps;
    if (progress) progress(n + 1, 2 * N);
  }
  out.stats.seconds_forward = detail::elapsed(t0);

  auto t1 = std::chrono::steady_clock::now();
  prop.reset_adjoint();
  std::vector<double> misfit(static_cast<std::size_t>(N + 1), 0.0);
  for (index_t n = N - 1; n >= 0; --n) {
    misfit[n + 1] = prop.reverse_step_from_history(n, observed + (n + 1) * nrec);
    ++out.stats.reverse_steps;
    if (progress) progress(2 * N - n, 2 * N);
  }
  prop.release_history();
  out.stats.seconds_reverse = detail::elapsed(t1);
  out.stats.objective = detail::objective(misfit, observed, nrec);
  out.gradient = prop.interior_gradient();
  return out;
}

// Any checkpoint schedule against any store. `expected_forward_steps` (0 if unknown) only scales progress.
// A Store has slots(), slot_bytes(), store(slot, state) and restore(slot, state, last_use)
// for the backend's state type (CheckpointStore for the CPU backend).
template <class Propagator, class Store, class T = typename Propagator::value_type>
GradientOutput gradient_checkpointed(Propagator& prop, const T* observed, Schedule& schedule, Store& store,
                                     index_t expected_forward_steps = 0, const Progress& progress = {}) {
  const auto& p = prop.problem();
  const index_t N = p.time.steps, nrec = p.rec.count;
  GradientOutput out;
  out.stats.steps = N;
  out.stats.wavefield_storage_bytes = static_cast<std::size_t>(store.slots()) * store.slot_bytes();
  std::vector<double> misfit(static_cast<std::size_t>(N + 1), 0.0);
  const index_t total_work = expected_forward_steps + N;
  auto report = [&] {
    if (progress && total_work > 0) progress(std::min(out.stats.forward_steps + out.stats.reverse_steps, total_work), total_work);
  };

  const auto t0 = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point t_rev{};
  index_t position = 0;
  index_t next_reverse = N - 1;
  prop.reset_forward();
  prop.reset_adjoint();
  for (;;) {
    const Action a = schedule.next();
    switch (a.kind) {
      case ActionKind::advance:
        if (a.step < position || a.step > N) throw std::logic_error("schedule: bad " + to_string(a));
        for (; position < a.step; ++position) {
          prop.forward_step(position);
          ++out.stats.forward_steps;
          report();
        }
        break;
      case ActionKind::store:
        if (a.step != position) throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position));
        store.store(a.slot, prop.state());
        ++out.stats.stores;
        break;
      case ActionKind::restore:
        if (a.slot == initial_slot) {
          prop.reset_forward();
        } else {
          store.restore(a.slot, prop.state(), schedule.restore_is_last_use());
        }
        position = a.step;
        ++out.stats.restores;
        break;
      case ActionKind::first_reverse:
      case ActionKind::reverse:
        if (a.step != position || a.step != next_reverse) {
          throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position));
        }
        if (out.stats.reverse_steps == 0) t_rev = std::chrono::steady_clock::now();
        misfit[a.step + 1] = prop.reverse_step(a.step, observed + (a.step + 1) * nrec);
        ++out.stats.forward_steps;
        ++out.stats.reverse_steps;
        --next_reverse;
        report();
        break;
      case ActionKind::end:
        if (next_reverse != -1) throw std::logic_error("schedule ended with steps left to reverse");
        out.stats.seconds_forward = std::chrono::duration<double>(t_rev - t0).count();
        out.stats.seconds_reverse = detail::elapsed(t_rev);
        out.stats.objective = detail::objective(misfit, observed, nrec);
        out.gradient = prop.interior_gradient();
        return out;
    }
  }
}

}  // namespace revwave
