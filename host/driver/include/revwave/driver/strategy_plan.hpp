// The strategy a user asks for (StrategyOptions) and the plan derived from it (StrategyPlan:
// slots, their bytes, the schedule's prediction), and the schedule and host store a plan makes:
// what a backend's checkpoints are built from (driver/cpu_checkpoints.hpp, the CUDA propagator's
// make_checkpoints), apart from the drivers that run them (gradient_strategy.hpp).
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/state_shape.hpp"
#include "revwave/schedule/multilevel.hpp"
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
  Backend backend = host_backend;     // where the slots live: its capabilities say whether host memory holds them
  // Refuse a plan whose slots or history this machine's memory cannot hold (a run); `revwave plan`
  // plans for any machine and says whether this one would hold it instead.
  bool check_host_memory = true;
  Compression compression;  // --compress: memory slots hold encoded fields (lossy)
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
  l.tail = g.tail_values();
  l.tail_fields = g.extra_fields;
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

}  // namespace revwave
