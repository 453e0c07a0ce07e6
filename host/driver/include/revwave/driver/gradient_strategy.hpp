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
#include "revwave/driver/gradient_driver.hpp"
#include "revwave/driver/lookahead_prefetch.hpp"
#include "revwave/driver/propagator.hpp"
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

// What the user asked for. An option left unset (nullopt, empty) takes its default; one that
// is set is honoured or refused, never replaced, and refused where the strategy ignores it.
struct StrategyOptions {
  Strategy strategy = Strategy::revolve;
  std::optional<index_t> snaps;  // revolve, online: slots (unset: from checkpoint_memory, else default_snaps)
  std::optional<std::size_t> checkpoint_memory;  // revolve, online: bytes that derive the slots
  std::optional<StoreKind> store;                // revolve, online: memory (unset) or disk
  std::string checkpoint_dir;                    // --store disk and multilevel disk tiers
  std::vector<std::string> tiers;  // multilevel: NAME:SLOTS[:STORE_COST:RESTORE_COST], fastest first (parse_tier_spec)
  std::optional<double> stop_energy;  // online: stop once the energy falls below this fraction of its peak
  Backend backend = Backend::cpu;     // where the slots live: the CPU checks them against host memory
  Compression compression;            // --compress: memory slots hold encoded fields (lossy)
};

inline constexpr index_t default_snaps = 20;

struct StrategyPlan {
  Strategy strategy = Strategy::revolve;
  index_t steps = 0;
  index_t snaps = 0;                    // slots asked for or derived (0 for full)
  index_t slots = 0;                    // slots the schedule can use: min(snaps, N - 2), allocated
  std::size_t slot_bytes = 0;           // one checkpoint: the physics' state (acoustic: u[n], u[n-1])
  std::size_t storage_bytes = 0;        // slots x slot size, or the history for full
  index_t predicted_forward_steps = 0;  // the schedule's count
  std::string choice;                   // a sentence saying what was chosen and why
  std::vector<Tier> tiers;              // multilevel
  std::vector<TierKind> tier_kinds;     // multilevel: where each tier's slots live (memory: the backend's own)
  bool measure_costs = false;           // multilevel: tier costs to be measured at start-up
  Compression compression;              // what the memory slots hold (slot_bytes is their encoded size)
  // ZFP on the CUDA backend: only the slots spilled to pinned host memory are encoded (on the
  // host); slot_bytes is then a raw device slot's.
  bool compress_host_tier_only = false;
  std::optional<FieldLayout> layout;  // the fields' layout, for the codec (set when compressing)
  std::size_t raw_slot_bytes = 0;     // one uncompressed checkpoint (a disk tier's slot)
};

// What a run chose beyond the common statistics.
struct StrategyReport {
  std::vector<Tier> tiers;            // multilevel, with the costs used
  double predicted_time = 0;          // multilevel: forward steps + tier costs, in forward steps
  index_t offline_forward_steps = 0;  // online: the offline optimum for the N that turned out
  // The plan's prediction, or that of the backend's refinement of its schedule (CUDA: two levels).
  index_t predicted_forward_steps = 0;
  TierReport placement;  // where the backend put the slots or the history
};

// Validates the options (unknown strategy or store, S < 1, a budget below one slot, an option
// the strategy ignores, a memory store or history that cannot fit next to `working_bytes`, the
// bytes the run holds besides checkpoints) and derives the slot count. A slot holds one `state`
// (the physics' declaration) of fields of `field_bytes`.
StrategyPlan plan_strategy(const StrategyOptions& options, index_t steps, const StateShape& state,
                           std::size_t field_bytes, std::size_t working_bytes = 0);
// The same, knowing the fields' layout, which --compress needs (the other overload refuses a
// compression): a memory budget then buys slots at their encoded size.
StrategyPlan plan_strategy(const StrategyOptions& options, index_t steps, const StateShape& state,
                           const FieldLayout& layout, std::size_t working_bytes = 0);
// The constant-density acoustic state, the one physics so far (callers that name none).
inline StrategyPlan plan_strategy(const StrategyOptions& options, index_t steps, std::size_t field_bytes,
                                  std::size_t working_bytes = 0) {
  return plan_strategy(options, steps, acoustic_state, field_bytes, working_bytes);
}
inline StrategyPlan plan_strategy(const StrategyOptions& options, index_t steps, const FieldLayout& layout,
                                  std::size_t working_bytes = 0) {
  return plan_strategy(options, steps, acoustic_state, layout, working_bytes);
}
// Where a wavefield's values lie in the grid's allocation (for the codecs).
template <class T>
FieldLayout field_layout(const Grid& g) {
  FieldLayout l;
  l.value_bytes = sizeof(T);
  l.alloc = {g.alloc(0), g.alloc(1), g.alloc(2)};
  l.box = {g.padded(0), g.padded(1), g.padded(2)};
  l.origin = g.origin();
  l.tail = g.cpml_values();
  // zeta enters u's update as D2 u does, psi through D1: an error of E / h^2 in them moves u[n+1]
  // about as an error of E in u does (measured: E itself gave the gradient 28x the sponge's error).
  l.tail_accuracy_scale = 1.0 / (g.spacing * g.spacing);
  return l;
}

// The offline schedule of a plan (revolve, or multilevel with the plan's tier costs).
std::unique_ptr<Schedule> make_schedule(const StrategyPlan& plan);
// The host store of a plan, for the CPU backend, on the pool of the propagator's fields (memory
// slots are handles to them). Disk slots are written and prefetched by a worker thread; with a
// hint (answered from the schedule the store will be driven by, global slot ids) restores are
// read ahead of their turn.
std::unique_ptr<CheckpointStore> make_store(const StrategyOptions& options, const StrategyPlan& plan,
                                            HostFieldPool& pool, PrefetchHint* hint = nullptr);

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

// The CPU propagator's customization points (make_checkpoints, checkpoint_placement), so that
// run_gradient finds them wherever it runs a CpuPropagator. Last: they need everything above.
#include "revwave/driver/cpu_checkpoints.hpp"  // IWYU pragma: export
