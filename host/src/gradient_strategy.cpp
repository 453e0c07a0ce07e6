#include "revwave/gradient_strategy.hpp"

#include <algorithm>

#include "revwave/disk_store.hpp"
#include "revwave/errors.hpp"
#include "revwave/memory_store.hpp"
#include "revwave/revolve.hpp"
#include "revwave/system_memory.hpp"

namespace revwave {

StrategyPlan plan_strategy(const StrategyOptions& o, index_t steps, std::size_t field_bytes) {
  if (steps < 1) throw InputError("steps " + std::to_string(steps) + " is invalid: at least 1 time step is needed");
  StrategyPlan plan;
  plan.strategy = o.strategy;
  plan.steps = steps;
  plan.slot_bytes = 2 * field_bytes;
  if (o.strategy == "full") {
    plan.storage_bytes = full_history_bytes(steps, field_bytes);
    plan.predicted_forward_steps = steps;
    plan.choice = "full: the whole history, " + std::to_string(steps) + " wavefields of " +
                  format_bytes(double(field_bytes)) + " = " + format_bytes(double(plan.storage_bytes));
    const std::size_t have = available_memory_bytes();
    if (plan.storage_bytes > have) {
      throw OutOfMemoryError("--strategy full needs " + format_bytes(double(plan.storage_bytes)) +
                             " for the wavefield history (" + std::to_string(steps) + " steps x " +
                             format_bytes(double(field_bytes)) + "), but only " + format_bytes(double(have)) +
                             " is available; use --strategy revolve with --snaps or --checkpoint-memory");
    }
    return plan;
  }
  if (o.strategy != "revolve") {
    throw InputError("--strategy '" + o.strategy + "' is unknown: use full or revolve");
  }
  if (o.store != "memory" && o.store != "disk") {
    throw InputError("--store '" + o.store + "' is unknown: use memory or disk");
  }
  if (o.store == "disk" && o.checkpoint_dir.empty()) {
    throw InputError("--store disk needs --checkpoint-dir DIR");
  }
  if (o.snaps < 0) {
    throw InputError("--snaps " + std::to_string(o.snaps) + " is invalid: at least 1 checkpoint slot is needed");
  }
  if (o.snaps > 0 && o.checkpoint_memory > 0) {
    throw InputError("--snaps and --checkpoint-memory both given: choose one");
  }
  if (o.checkpoint_memory > 0) {
    const std::size_t slots = o.checkpoint_memory / plan.slot_bytes;
    if (slots < 1) {
      throw InputError("--checkpoint-memory " + format_bytes(double(o.checkpoint_memory)) +
                       " is below one checkpoint slot: the minimum is " + format_bytes(double(plan.slot_bytes)) +
                       " (" + std::to_string(plan.slot_bytes) + " bytes, two wavefields)");
    }
    plan.snaps = std::min<index_t>(static_cast<index_t>(slots), steps);
    plan.choice = "revolve: " + std::to_string(plan.snaps) + " slots of " + format_bytes(double(plan.slot_bytes)) +
                  " fit in --checkpoint-memory " + format_bytes(double(o.checkpoint_memory)) +
                  (static_cast<index_t>(slots) > steps ? " (capped at the step count)" : "");
  } else {
    plan.snaps = o.snaps > 0 ? o.snaps : std::min<index_t>(default_snaps, steps);
    plan.choice = "revolve: " + std::to_string(plan.snaps) + " slots of " + format_bytes(double(plan.slot_bytes)) +
                  (o.snaps > 0 ? "" : " (the default; set --snaps or --checkpoint-memory)");
  }
  // Revolve never stores position 0 (recreated) or N-1 (reversed at once): more slots are never used.
  // A store holds at least one slot (for N <= 2 the schedule needs none).
  plan.slots = std::max<index_t>(1, RevolveSchedule(steps, plan.snaps).slots());
  plan.storage_bytes = static_cast<std::size_t>(plan.slots) * plan.slot_bytes;
  plan.predicted_forward_steps = optimal_forward_steps(steps, plan.snaps);
  if (o.store == "memory") {
    const std::size_t have = available_memory_bytes();
    if (plan.storage_bytes > have) {
      throw OutOfMemoryError(std::to_string(plan.slots) + " checkpoint slots need " +
                             format_bytes(double(plan.storage_bytes)) + " but only " + format_bytes(double(have)) +
                             " is available; try --snaps " + std::to_string(std::max<std::size_t>(1, have / 2 / plan.slot_bytes)) +
                             " or --store disk");
    }
  }
  return plan;
}

std::unique_ptr<Schedule> make_schedule(const StrategyPlan& plan) {
  return std::make_unique<RevolveSchedule>(plan.steps, plan.snaps);
}

std::unique_ptr<CheckpointStore> make_store(const StrategyOptions& o, const StrategyPlan& plan, std::size_t field_bytes) {
  if (o.store == "disk") return std::make_unique<DiskStore>(plan.slots, field_bytes, o.checkpoint_dir);
  return std::make_unique<MemoryStore>(plan.slots, field_bytes);
}

}  // namespace revwave
