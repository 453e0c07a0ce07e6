// The gradient driver: J(m) = misfit(S u, d) and dJ/dm on any backend, either from the stored
// history (`full`) or by executing a checkpoint schedule against a checkpoint store. Every
// strategy runs the same three phases: the first forward sweep records the synthetic traces
// S u[n] (n = 0..N), the misfit turns them into J and the adjoint source r, and the reverse
// sweep injects r; all run the same reverse step, so they agree bit for bit. The growth guard
// watches the first forward sweep (driver/growth_guard.hpp).
#pragma once
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/core/seconds_since.hpp"
#include "revwave/driver/gradient_output.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/driver/schedule_runner.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/memory_store.hpp"

namespace revwave {

// `full`: N forward steps keeping u[1..N] (where is the backend's choice), then N reverse steps
// reading them back. The backend refuses, before allocating, a history that does not fit.
template <class P, class T = typename P::value_type>
GradientOutput gradient_full(P& prop, const Misfit<T>& misfit, const T* observed, const Progress& progress = {}) {
  static_assert(is_gradient_propagator_v<P> && keeps_history_v<P>,
                "gradient_full needs a propagator that keeps a history (revwave/driver/propagator.hpp)");
  const index_t N = prop.problem().time.steps;
  GradientOutput out;
  out.stats.steps = N;
  const auto ta = std::chrono::steady_clock::now();
  // A long history takes seconds to allocate: the progress hears it field by field (0 steps done).
  out.stats.wavefield_storage_bytes = prop.allocate_history(N, [&] {
    if (progress) progress(0, 2 * N);
  });
  out.stats.seconds_allocate = seconds_since(ta);

  GrowthGuard guard(prop.problem());
  auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  prop.reset_adjoint();
  prop.record_history(0);
  prop.record_trace(0);
  for (index_t n = 0; n < N; ++n) {
    // S u[N] as every strategy takes it: from the state at N - 1 (see ScheduleRunner).
    if (n + 1 == N) prop.record_next_trace(N);
    prop.forward_step(n);
    prop.record_history(n + 1);
    if (n + 1 < N) prop.record_trace(n + 1);
    guard.after_step(prop, n + 1);
    ++out.stats.forward_steps;
    if (progress) progress(n + 1, 2 * N);
  }
  out.stats.objective = detail::adjoint_source_from_traces(prop, misfit, observed, N);
  out.stats.seconds_forward = seconds_since(t0);

  auto t1 = std::chrono::steady_clock::now();
  for (index_t n = N - 1; n >= 0; --n) {
    prop.reverse_step_from_history(n);
    ++out.stats.reverse_steps;
    if (progress) progress(2 * N - n, 2 * N);
  }
  out.stats.checkpoint_copy_bytes = prop.history_copy_bytes();
  prop.release_history();
  out.gradient = prop.interior_gradient();  // read back once (on a GPU the reverse sweep's only wait)
  out.density_gradient = density_gradient_of(prop);
  out.stats.seconds_reverse = seconds_since(t1);
  return out;
}

// Any offline checkpoint schedule against any store of the propagator's state.
// `expected_forward_steps` (0 if unknown) only scales progress.
template <class P, class Store, class T = typename P::value_type>
GradientOutput gradient_checkpointed(P& prop, const Misfit<T>& misfit, const T* observed, Schedule& schedule,
                                     Store& store, index_t expected_forward_steps = 0, const Progress& progress = {}) {
  static_assert(is_gradient_propagator_v<P>,
                "gradient_checkpointed needs a propagator (revwave/driver/propagator.hpp)");
  detail::ScheduleRunner<P, Store, T> run(prop, misfit, observed, store, prop.problem().time.steps,
                                          expected_forward_steps, progress);
  while (run.execute(schedule.next(), schedule)) {}
  return run.finish();
}

// An online schedule (OnlineSchedule's protocol): the step count is unknown when the run
// starts. At every position n, `last_step(n)` says whether step n -> n+1 ends the run;
// it must say so by the problem's last step (its time axis is the hard maximum).
template <class P, class Store, class OnlineScheduleT, class StopRule, class T = typename P::value_type>
GradientOutput gradient_online(P& prop, const Misfit<T>& misfit, const T* observed, OnlineScheduleT& schedule,
                               Store& store, StopRule&& last_step, const Progress& progress = {}) {
  static_assert(is_gradient_propagator_v<P>, "gradient_online needs a propagator (revwave/driver/propagator.hpp)");
  const index_t max_steps = prop.problem().time.steps;
  detail::ScheduleRunner<P, Store, T> run(prop, misfit, observed, store, max_steps, 0, progress);
  index_t checked = -1;
  for (;;) {
    if (!schedule.finished() && run.position() != checked) {
      checked = run.position();
      if (last_step(checked)) {
        schedule.finish(checked + 1);
        run.set_steps(checked + 1);
      } else if (checked + 1 >= max_steps) {
        throw std::logic_error("online stop rule did not end the run by its hard maximum");
      }
    }
    if (!run.execute(schedule.next(), schedule)) break;
  }
  return run.finish();
}

// The same three with the L2 misfit, the default.
template <class P, class T = typename P::value_type>
GradientOutput gradient_full(P& prop, const T* observed, const Progress& progress = {}) {
  return gradient_full(prop, l2_misfit<T>(), observed, progress);
}
template <class P, class Store, class T = typename P::value_type>
GradientOutput gradient_checkpointed(P& prop, const T* observed, Schedule& schedule, Store& store,
                                     index_t expected_forward_steps = 0, const Progress& progress = {}) {
  return gradient_checkpointed(prop, l2_misfit<T>(), observed, schedule, store, expected_forward_steps, progress);
}
template <class P, class Store, class OnlineScheduleT, class StopRule, class T = typename P::value_type>
GradientOutput gradient_online(P& prop, const T* observed, OnlineScheduleT& schedule, Store& store,
                               StopRule&& last_step, const Progress& progress = {}) {
  return gradient_online(prop, l2_misfit<T>(), observed, schedule, store, std::forward<StopRule>(last_step), progress);
}

}  // namespace revwave
