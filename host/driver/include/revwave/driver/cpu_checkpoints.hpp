// The CPU propagator's checkpoints: its customization points of the propagator concept
// (propagator.hpp), here and not beside CpuPropagator because host/numerics sees no plans or
// stores. The plan's schedule runs as planned; the store is the plan's (memory handles to the
// propagator's pool, compressed memory, disk, or tiers of them: make_store).
#pragma once
#include <memory>
#include <utility>

#include "revwave/driver/propagator.hpp"
#include "revwave/driver/strategy_plan.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {

template <class T>
CheckpointSet<CheckpointStore> make_checkpoints(CpuPropagator<T>& prop, const StrategyPlan& plan,
                                                const StrategyOptions& options, std::unique_ptr<Schedule> planned,
                                                PrefetchHint* hint) {
  CheckpointSet<CheckpointStore> set;
  set.schedule = std::move(planned);
  set.predicted_forward_steps = plan.predicted_forward_steps;
  set.store = make_store(options, plan, prop.field_pool(), hint);
  return set;
}

// Host memory, disk: where the plan said; nothing to add to it.
template <class T>
TierReport checkpoint_placement(const CpuPropagator<T>&) {
  return {};
}

static_assert(is_propagator_v<CpuPropagator<float>> && is_propagator_v<CpuPropagator<double>>,
              "CpuPropagator implements the propagator concept");

}  // namespace revwave
