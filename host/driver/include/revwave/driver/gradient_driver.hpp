// The gradient driver: J(m) = 1/2 sum_n |S u[n] - d[n]|^2 and dJ/dm on any backend,
// either from the stored history (`full`) or by executing a checkpoint schedule
// against a checkpoint store. Both run the same reverse step, so they agree bit for bit.
#pragma once
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/schedule/schedule.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/memory_store.hpp"

namespace revwave {

struct GradientStats {
  double objective = 0;
  index_t steps = 0;           // N
  index_t forward_steps = 0;   // every forward step executed, recomputations included
  index_t reverse_steps = 0;
  index_t stores = 0, restores = 0;
  double seconds_allocate = 0;  // the fields of the state and of the checkpoints (or history), before the time loop
  double seconds_forward = 0;  // until the first reverse step
  double seconds_reverse = 0;  // from the first reverse step to the end
  double seconds_copies = 0;   // of those, in checkpoint stores and restores
  std::size_t wavefield_storage_bytes = 0;  // history or checkpoint slots
  // Bytes checkpoints (or the history) copied to and from another medium (disk, pinned host):
  // 0 when they stay in memory, where a checkpoint is a handle to the state's fields.
  std::uint64_t checkpoint_copy_bytes = 0;
  CompressionStats compression;  // --compress: what the slots encoded and decoded, and how long it took
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

// `full`: N forward steps keeping u[1..N] (where is the backend's choice), then N
// reverse steps reading them back. The backend refuses, before allocating, a history
// that does not fit.
template <class Propagator, class T = typename Propagator::value_type>
GradientOutput gradient_full(Propagator& prop, const T* observed, const Progress& progress = {}) {
  const auto& p = prop.problem();
  const index_t N = p.time.steps, nrec = p.rec.count;
  GradientOutput out;
  out.stats.steps = N;
  const auto ta = std::chrono::steady_clock::now();
  out.stats.wavefield_storage_bytes = prop.allocate_history(N);
  out.stats.seconds_allocate = detail::elapsed(ta);

  auto t0 = std::chrono::steady_clock::now();
  prop.reset_forward();
  prop.record_history(0);
  for (index_t n = 0; n < N; ++n) {
    prop.forward_step(n);
    prop.record_history(n + 1);
    ++out.stats.forward_steps;
    if (progress) progress(n + 1, 2 * N);
  }
  out.stats.seconds_forward = detail::elapsed(t0);

  auto t1 = std::chrono::steady_clock::now();
  prop.reset_adjoint();
  for (index_t n = N - 1; n >= 0; --n) {
    prop.reverse_step_from_history(n, observed + (n + 1) * nrec);
    ++out.stats.reverse_steps;
    if (progress) progress(2 * N - n, 2 * N);
  }
  out.stats.checkpoint_copy_bytes = prop.history_copy_bytes();
  prop.release_history();
  // Read back once (on a GPU the only wait of the reverse sweep).
  const std::vector<double> misfit = prop.sample_misfits(N + 1);
  out.stats.seconds_reverse = detail::elapsed(t1);
  out.stats.objective = detail::objective(misfit, observed, nrec);
  out.gradient = prop.interior_gradient();
  return out;
}

// Any checkpoint schedule against any store. `expected_forward_steps` (0 if unknown) only scales progress.
namespace detail {

// Executes schedule actions against a backend and a store, one at a time, and keeps the
// counts and the timings; the backend records each reverse step's misfit and hands them over
// at the end (sample_misfits), so that no step waits for a number from the device. A Store has slots(), slot_bytes(),
// held_fields(), copy_bytes(), compression(), store(slot, state) and restore(slot, state, last_use) for the
// backend's state type; the backend's pool of fields is sized for what the store holds.
template <class Propagator, class Store, class T>
class ScheduleRunner {
 public:
  ScheduleRunner(Propagator& prop, const T* observed, Store& store, index_t steps, index_t expected_forward_steps,
                 const Progress& progress)
      : prop_(prop), observed_(observed), store_(store), nrec_(prop.problem().rec.count), progress_(progress),
        total_work_(expected_forward_steps > 0 ? expected_forward_steps + steps : 0) {
    set_steps(steps);
    out_.stats.wavefield_storage_bytes = static_cast<std::size_t>(store.slots()) * store.slot_bytes();
    // Every field the slots will hold, before the clock starts (as `full` allocates its history):
    // the time loop then costs what the schedule says.
    const auto ta = std::chrono::steady_clock::now();
    prop_.reserve_fields(store.held_fields());
    out_.stats.seconds_allocate = elapsed(ta);
    t0_ = std::chrono::steady_clock::now();
    prop_.reset_forward();
    prop_.reset_adjoint();
  }

  // N: the steps to reverse (the online driver learns it late).
  void set_steps(index_t steps) {
    out_.stats.steps = steps;
    next_reverse_ = steps - 1;
  }
  index_t position() const { return position_; }
  const GradientStats& stats() const { return out_.stats; }

  // Carries out one action; false once the schedule has ended.
  bool execute(const Action& a, const Schedule& schedule) {
    switch (a.kind) {
      case ActionKind::advance:
        if (a.step < position_ || a.step > out_.stats.steps) throw std::logic_error("schedule: bad " + to_string(a));
        for (; position_ < a.step; ++position_) {
          prop_.forward_step(position_);
          ++out_.stats.forward_steps;
          report();
        }
        return true;
      case ActionKind::store: {
        if (a.step != position_) throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position_));
        const auto t = std::chrono::steady_clock::now();
        store_.store(a.slot, prop_.state());
        out_.stats.seconds_copies += elapsed(t);
        ++out_.stats.stores;
        return true;
      }
      case ActionKind::restore: {
        const auto t = std::chrono::steady_clock::now();
        if (a.slot == initial_slot) prop_.reset_forward();
        else store_.restore(a.slot, prop_.state(), schedule.restore_is_last_use());
        out_.stats.seconds_copies += elapsed(t);
        position_ = a.step;
        ++out_.stats.restores;
        return true;
      }
      case ActionKind::first_reverse:
      case ActionKind::reverse:
        if (a.step != position_ || a.step != next_reverse_) {
          throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position_));
        }
        if (out_.stats.reverse_steps == 0) t_rev_ = std::chrono::steady_clock::now();
        prop_.reverse_step(a.step, observed_ + (a.step + 1) * nrec_);
        ++out_.stats.forward_steps;
        ++out_.stats.reverse_steps;
        --next_reverse_;
        report();
        return true;
      case ActionKind::end:
        if (next_reverse_ != -1) throw std::logic_error("schedule ended with steps left to reverse");
        return false;
    }
    return false;
  }

  GradientOutput finish() {
    out_.stats.seconds_forward = std::chrono::duration<double>(t_rev_ - t0_).count();
    const std::vector<double> misfit = prop_.sample_misfits(out_.stats.steps + 1);
    out_.stats.seconds_reverse = elapsed(t_rev_);
    out_.stats.objective = objective(misfit, observed_, nrec_);
    out_.stats.checkpoint_copy_bytes = store_.copy_bytes();
    out_.stats.compression = store_.compression();
    out_.gradient = prop_.interior_gradient();
    return std::move(out_);
  }

 private:
  void report() {
    if (progress_ && total_work_ > 0) {
      progress_(std::min(out_.stats.forward_steps + out_.stats.reverse_steps, total_work_), total_work_);
    }
  }

  Propagator& prop_;
  const T* observed_;
  Store& store_;
  index_t nrec_;
  Progress progress_;
  index_t total_work_;
  std::chrono::steady_clock::time_point t0_, t_rev_{};
  index_t position_ = 0, next_reverse_ = 0;
  GradientOutput out_;
};

}  // namespace detail

// Any offline checkpoint schedule against any store. `expected_forward_steps` (0 if unknown) only scales progress.
template <class Propagator, class Store, class T = typename Propagator::value_type>
GradientOutput gradient_checkpointed(Propagator& prop, const T* observed, Schedule& schedule, Store& store,
                                     index_t expected_forward_steps = 0, const Progress& progress = {}) {
  detail::ScheduleRunner<Propagator, Store, T> run(prop, observed, store, prop.problem().time.steps,
                                                   expected_forward_steps, progress);
  while (run.execute(schedule.next(), schedule)) {
  }
  return run.finish();
}

// An online schedule (OnlineSchedule's protocol): the step count is unknown when the run
// starts. At every position n, `last_step(n)` says whether step n -> n+1 ends the run;
// it must say so by the problem's last step (its time axis is the hard maximum).
template <class Propagator, class Store, class OnlineScheduleT, class StopRule, class T = typename Propagator::value_type>
GradientOutput gradient_online(Propagator& prop, const T* observed, OnlineScheduleT& schedule, Store& store,
                               StopRule&& last_step, const Progress& progress = {}) {
  const index_t max_steps = prop.problem().time.steps;
  detail::ScheduleRunner<Propagator, Store, T> run(prop, observed, store, max_steps, 0, progress);
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

}  // namespace revwave
