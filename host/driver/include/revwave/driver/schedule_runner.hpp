// Executes checkpoint-schedule actions against a propagator and a store, one at a time, keeping
// the counts and the timings. A Store has slots(), slot_bytes(), held_fields(), copy_bytes(),
// compression(), store(slot, state) and restore(slot, state, last_use) for the propagator's
// state type; the propagator's pool of fields is sized for what the store holds.
//
// The synthetic traces: whatever the schedule, the forward sweep reaches every position
// 1..N-1 for the first time before the first reverse step (that step reverses N - 1, so the
// state must have been at N - 1), always from the position before it. The runner records the
// trace of each position the first time a step reaches it, and S u[N], which no forward step
// computes before the first reverse one, from the state at N - 1 (record_next_trace). Then the
// misfit runs, once, and the reverse steps inject its adjoint source. The growth guard samples
// the field at the positions the forward sweep reaches for the first time.
#pragma once
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "revwave/core/progress.hpp"
#include "revwave/core/seconds_since.hpp"
#include "revwave/driver/gradient_output.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/misfit_phase.hpp"
#include "revwave/schedule/schedule.hpp"

namespace revwave::detail {

template <class P, class Store, class T>
class ScheduleRunner {
 public:
  ScheduleRunner(P& prop, const Misfit<T>& misfit, const T* observed, Store& store, index_t steps,
                 index_t expected_forward_steps, const Progress& progress)
      : prop_(prop),
        misfit_(misfit),
        observed_(observed),
        store_(store),
        progress_(progress),
        guard_(prop.problem()),
        total_work_(expected_forward_steps > 0 ? expected_forward_steps + steps : 0) {
    set_steps(steps);
    out_.stats.wavefield_storage_bytes = static_cast<std::size_t>(store.slots()) * store.slot_bytes();
    // Every field the slots will hold, before the clock starts (as `full` allocates its history):
    // the time loop then costs what the schedule says.
    const auto ta = std::chrono::steady_clock::now();
    prop_.reserve_fields(store.held_fields());
    out_.stats.seconds_allocate = seconds_since(ta);
    t0_ = std::chrono::steady_clock::now();
    prop_.reset_forward();
    prop_.reset_adjoint();
    prop_.record_trace(0);
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
          if (position_ + 1 > recorded_ && position_ + 1 < out_.stats.steps)
            prop_.record_trace(recorded_ = position_ + 1);
          if (position_ + 1 > guarded_) guard_.after_step(prop_, guarded_ = position_ + 1);
          ++out_.stats.forward_steps;
          report();
        }
        return true;
      case ActionKind::store: {
        if (a.step != position_)
          throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position_));
        const auto t = std::chrono::steady_clock::now();
        store_.store(a.slot, prop_.state());
        out_.stats.seconds_copies += seconds_since(t);
        ++out_.stats.stores;
        return true;
      }
      case ActionKind::restore: {
        const auto t = std::chrono::steady_clock::now();
        if (a.slot == initial_slot)
          prop_.reset_forward();
        else
          store_.restore(a.slot, prop_.state(), schedule.restore_is_last_use());
        out_.stats.seconds_copies += seconds_since(t);
        position_ = a.step;
        ++out_.stats.restores;
        return true;
      }
      case ActionKind::first_reverse:
      case ActionKind::reverse:
        if (a.step != position_ || a.step != next_reverse_) {
          throw std::logic_error("schedule: " + to_string(a) + " at position " + std::to_string(position_));
        }
        if (out_.stats.reverse_steps == 0) between_sweeps();
        prop_.reverse_step(a.step);
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
    out_.stats.checkpoint_copy_bytes = store_.copy_bytes();
    out_.stats.compression = store_.compression();
    out_.gradient = prop_.interior_gradient();  // read back once (on a GPU the reverse sweep's only wait)
    out_.density_gradient = density_gradient_of(prop_);
    out_.stats.seconds_reverse = seconds_since(t_rev_);
    return std::move(out_);
  }

 private:
  // At position N - 1, before reversing step N - 1: S u[N], then the misfit and its adjoint source.
  void between_sweeps() {
    const index_t steps = out_.stats.steps;
    if (recorded_ != steps - 1)
      throw std::logic_error("schedule: the first reverse step came before the traces were recorded");
    prop_.record_next_trace(steps);
    out_.stats.objective = adjoint_source_from_traces(prop_, misfit_, observed_, steps);
    t_rev_ = std::chrono::steady_clock::now();
  }

  void report() {
    if (progress_ && total_work_ > 0) {
      progress_(std::min(out_.stats.forward_steps + out_.stats.reverse_steps, total_work_), total_work_);
    }
  }

  P& prop_;
  const Misfit<T>& misfit_;
  const T* observed_;
  Store& store_;
  Progress progress_;
  GrowthGuard guard_;
  index_t total_work_;
  std::chrono::steady_clock::time_point t0_, t_rev_{};
  index_t position_ = 0, next_reverse_ = 0;
  index_t recorded_ = 0;  // the last position whose trace is recorded
  index_t guarded_ = 0;   // the last position the growth guard has seen
  GradientOutput out_;
};

}  // namespace revwave::detail
