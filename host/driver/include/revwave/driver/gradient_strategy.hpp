// From the user's strategy options to a gradient run: how many slots, which store,
// what the schedule predicts, and the run itself on any backend.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <utility>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/seconds_since.hpp"
#include "revwave/driver/cpu_checkpoints.hpp"  // IWYU pragma: export (the CPU's customization points)
#include "revwave/driver/gradient_driver.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/driver/strategy_plan.hpp"  // IWYU pragma: export
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/state_shape.hpp"
#include "revwave/schedule/lookahead_schedule.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/store/tier_spec.hpp"

namespace revwave {

namespace detail {
// Does the propagator compute asynchronously (a device), with synchronize() to wait for it?
template <class P, class = void>
struct has_synchronize : std::false_type {};
template <class P>
struct has_synchronize<P, std::void_t<decltype(std::declval<P&>().synchronize())>> : std::true_type {};
}  // namespace detail

// Store and restore costs of each tier in forward steps, measured on the run's own backend
// and store (best of a few tries), for the tiers whose costs were not given. On a backend that
// computes asynchronously each try ends once the device has done its work (steps and copies
// alike), so that the costs are the device's, not the time to enqueue them.
template <class P, class Store>
void measure_tier_costs(P& prop, Store& store, std::vector<Tier>& tiers) {
  auto best_of = [&](int tries, auto&& f) {  // prop only where it synchronises
    double best = 1e300;
    for (int i = 0; i < tries; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      f();
      if constexpr (detail::has_synchronize<P>::value) prop.synchronize();
      best = std::min(best, seconds_since(t0));
    }
    return best;
  };
  prop.reserve_fields(store.held_fields());
  prop.reset_forward();
  index_t n = 0;
  const double step = best_of(3, [&] { prop.forward_step(n++); });
  index_t first = 0;
  for (Tier& t : tiers) {
    if (t.slots > 0) {
      t.store_cost = best_of(2, [&] { store.store(first, prop.state()); }) / step;
      t.restore_cost = best_of(2, [&] { store.restore(first, prop.state(), false); }) / step;
    }
    first += t.slots;
  }
  prop.reset_forward();
}

// The online stop rule: is step n -> n+1 the last? With stop_energy, once the source has
// faded (t > 2 t0) and the energy sum u^2 has fallen below stop_energy x its peak; else at
// the problem's last step. Reaching the problem's last step without the energy rule
// triggering is an error: the time axis is the hard maximum.
template <class P>
auto online_stop_rule(P& prop, std::optional<double> stop) {
  return [&prop, stop_energy = stop.value_or(0.0), peak = 0.0](index_t n) mutable {
    const auto& p = prop.problem();
    if (stop_energy <= 0) return n + 1 >= p.time.steps;
    const double e = prop.wavefield_energy();
    peak = std::max(peak, e);
    if (double(n) * p.time.dt > 2 * p.acquisition.t0 && e < stop_energy * peak) return true;
    if (n + 1 >= p.time.steps) {
      throw InputError("--stop-energy " + std::to_string(stop_energy) + " never triggered within the hard maximum of " +
                       std::to_string(p.time.steps) + " steps (the energy fell to " + std::to_string(e / peak) +
                       " of its peak); raise --tn / use longer data, or a larger threshold");
    }
    return false;
  };
}

namespace detail {

// An offline schedule (revolve, multilevel) run on the backend's layout of it.
template <class P, class T>
GradientOutput run_offline(P& prop, const Misfit<T>& misfit, const T* observed, const StrategyOptions& options,
                           const StrategyPlan& plan, std::unique_ptr<Schedule> planned, const Progress& progress,
                           StrategyReport* report) {
  LookaheadPrefetch hint;  // before the store that asks it, after the schedule it looks into
  auto set = make_checkpoints(prop, plan, options, std::move(planned), &hint);
  LookaheadSchedule lookahead(*set.schedule);
  hint.attach(lookahead);
  if (report) report->predicted_forward_steps = set.predicted_forward_steps;
  return gradient_checkpointed(prop, misfit, observed, lookahead, *set.store, set.predicted_forward_steps, progress);
}

}  // namespace detail

// The gradient under the plan's strategy on any backend: full, revolve (or the backend's
// refinement of it), multilevel (tier costs measured first when not given) or online.
template <class P, class T = typename P::value_type>
GradientOutput run_gradient(P& prop, const Misfit<T>& misfit, const T* observed, const StrategyOptions& options,
                            const StrategyPlan& plan, const Progress& progress = {}, StrategyReport* report = nullptr) {
  static_assert(is_propagator_v<P>, "run_gradient needs a backend's propagator (revwave/driver/propagator.hpp)");
  StrategyReport local;
  StrategyReport& r = report ? *report : local;
  r.predicted_forward_steps = plan.predicted_forward_steps;
  GradientOutput out;
  if (plan.strategy == Strategy::full) {
    out = gradient_full(prop, misfit, observed, progress);
  } else if (plan.strategy == Strategy::online) {  // its schedule is not known ahead: nothing to look into
    auto set = make_checkpoints(prop, plan, options, nullptr, nullptr);
    OnlineSchedule schedule(plan.snaps);
    out = gradient_online(prop, misfit, observed, schedule, *set.store, online_stop_rule(prop, options.stop_energy),
                          progress);
    r.offline_forward_steps = optimal_forward_steps(out.stats.steps, plan.snaps);
  } else if (plan.strategy == Strategy::multilevel) {
    std::vector<Tier> tiers = plan.tiers;
    if (plan.measure_costs) {
      // On a store of its own: the run's store looks ahead into a schedule built from these costs.
      auto probe = make_checkpoints(prop, plan, options, nullptr, nullptr);
      measure_tier_costs(prop, *probe.store, tiers);
    }
    auto schedule = std::make_unique<MultilevelSchedule>(plan.steps, tiers);
    r.tiers = tiers;
    r.predicted_time = schedule->planned_time();
    // Known once the costs are: a binomial schedule on the slots the costs chose, its ids renamed.
    r.predicted_forward_steps = optimal_forward_steps(plan.steps, schedule->binomial_slots());
    out = detail::run_offline(prop, misfit, observed, options, plan, std::move(schedule), progress, nullptr);
  } else {
    out = detail::run_offline(prop, misfit, observed, options, plan,
                              std::make_unique<RevolveSchedule>(plan.steps, plan.snaps), progress, &r);
  }
  r.placement = checkpoint_placement(prop);
  r.placement.predicted_forward_steps = r.predicted_forward_steps;
  return out;
}

// The same with the L2 misfit, the default.
template <class P, class T = typename P::value_type>
GradientOutput run_gradient(P& prop, const T* observed, const StrategyOptions& options, const StrategyPlan& plan,
                            const Progress& progress = {}, StrategyReport* report = nullptr) {
  return run_gradient(prop, l2_misfit<T>(), observed, options, plan, progress, report);
}

}  // namespace revwave
