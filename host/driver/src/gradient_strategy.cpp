#include "revwave/driver/gradient_strategy.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/store/async_disk_store.hpp"
#include "revwave/store/compressed_store.hpp"
#include "revwave/store/memory_store.hpp"
#include "revwave/store/tier_spec.hpp"
#include "revwave/store/tiered_store.hpp"

namespace revwave {
namespace {

void check_checkpoint_dir(const std::string& dir, const std::string& why) {
  if (dir.empty()) throw InputError(why + " needs --checkpoint-dir DIR");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw InputError("--checkpoint-dir '" + dir + "' is not an existing directory");
  }
  if (::access(dir.c_str(), W_OK) != 0) throw InputError("--checkpoint-dir '" + dir + "' is not writable");
}

// Bytes a slot of a tier of kind `k` reserves: at the encoded size where the plan compresses
// that tier (ZFP on the CUDA backend: the pinned slots only, at `host_encoded`), raw on disk.
std::size_t tier_slot_bytes(const StrategyPlan& plan, TierKind k, std::size_t host_encoded) {
  if (k == TierKind::disk) return plan.raw_slot_bytes;
  if (k == TierKind::pinned && plan.compress_host_tier_only) return host_encoded;
  return plan.slot_bytes;
}

// " (memory slots compressed fp16, disk slots raw)": which tiers hold encoded slots.
std::string multilevel_compression(const StrategyPlan& plan, const BackendCapabilities& can) {
  if (!plan.compression.enabled()) return "";
  const std::string mode = plan.compression.text();
  if (plan.compress_host_tier_only)
    return " (pinned slots encoded " + mode + " on the host, memory and disk slots raw)";
  if (can.pinned_tier) return " (memory and pinned slots compressed " + mode + ", disk slots raw)";
  return " (memory slots compressed " + mode + ", disk slots raw)";
}

// --tier NAME:SLOTS[:STORE_COST:RESTORE_COST], fastest first: memory or disk, and pinned where the
// backend has a pinned tier.
StrategyPlan plan_multilevel(const StrategyOptions& o, StrategyPlan plan, std::size_t working_bytes) {
  const BackendCapabilities& can = backend_capabilities(o.backend);
  if (o.tiers.empty()) {
    throw InputError(std::string("--strategy multilevel needs --tier NAME:SLOTS[:STORE:RESTORE] (") +
                     (can.pinned_tier ? "memory, pinned, disk)" : "memory, disk)"));
  }
  int given = 0;
  bool disk_tier = false;
  for (std::size_t i = 0; i < o.tiers.size(); ++i) {
    const std::string& text = o.tiers[i];
    const TierSpec spec = parse_tier_spec(text, can);
    // Fastest first: a slower kind before a faster one would be scheduled as if it were faster.
    if (!plan.tier_kinds.empty() && spec.kind < plan.tier_kinds.back()) {
      throw InputError("--tier " + o.tiers[i - 1] + " comes before --tier " + text +
                       ": tiers go fastest first (memory, then pinned, then disk)");
    }
    if (spec.kind == TierKind::disk) check_checkpoint_dir(o.checkpoint_dir, "--tier disk");
    disk_tier = disk_tier || spec.kind == TierKind::disk;
    plan.tiers.push_back(Tier{to_string(spec.kind), spec.slots, spec.store_cost, spec.restore_cost});
    plan.tier_kinds.push_back(spec.kind);
    given += spec.costs_given ? 1 : 0;
  }
  if (!o.checkpoint_dir.empty() && !disk_tier) {
    throw InputError(
        "--checkpoint-dir does not apply: only --store disk or a disk tier writes checkpoints to a directory");
  }
  validate_tiers(plan.tiers);
  if (given != 0 && given != static_cast<int>(plan.tiers.size())) {
    throw InputError("--tier: give costs for every tier or for none (then they are measured at start-up)");
  }
  plan.measure_costs = given == 0;
  for (const Tier& t : plan.tiers) plan.snaps += t.slots;
  plan.slots = plan.snaps;
  const std::size_t host_encoded = plan.compress_host_tier_only
                                       ? CompressedStore::slot_bytes_of(FieldCodec(plan.compression, *plan.layout))
                                       : plan.slot_bytes;
  // The tiers in host memory: the backend's own memory where its slots are host memory, else the
  // pinned tiers.
  const TierKind in_host = can.slots_in_host_memory() ? TierKind::memory : TierKind::pinned;
  plan.storage_bytes = 0;
  std::size_t in_memory = 0;
  for (std::size_t i = 0; i < plan.tiers.size(); ++i) {
    const std::size_t each = tier_slot_bytes(plan, plan.tier_kinds[i], host_encoded);
    const std::size_t bytes =
        checked_bytes({static_cast<std::size_t>(plan.tiers[i].slots), each}, "the multilevel slots");
    plan.storage_bytes = checked_sum(plan.storage_bytes, bytes, "the multilevel slots");
    if (plan.tier_kinds[i] == in_host) in_memory = checked_sum(in_memory, bytes, "the memory tier");
  }
  plan.predicted_forward_steps = 0;  // depends on the costs, known once they are measured
  const std::string tier_name = to_string(in_host);
  if (o.check_host_memory)
    require_memory(checked_sum(in_memory, working_bytes, "the " + tier_name + " tier and the working set"),
                   "the " + tier_name + " tier (" + format_bytes(double(in_memory)) + ") next to the run's " +
                       format_bytes(double(working_bytes)) + " of working set");
  plan.choice = "multilevel: " + std::to_string(plan.snaps) + " slots of " + format_bytes(double(plan.slot_bytes)) +
                " on " + std::to_string(plan.tiers.size()) + " tiers" +
                (plan.measure_costs ? ", costs measured at start-up" : ", costs given") +
                multilevel_compression(plan, can);
  return plan;
}

}  // namespace

namespace {

// Refuses the options that `strategy` would ignore; `uses` says what it reads.
void refuse_ignored(const StrategyOptions& o, const std::string& uses) {
  const std::string rule = std::string("--strategy ") + to_string(o.strategy) + " " + uses;
  auto refuse = [&](const std::string& option) { throw InputError(option + " does not apply: " + rule); };
  const bool slots = takes_slots(o.strategy);
  if (!slots && o.snaps) refuse("--snaps " + std::to_string(*o.snaps));
  if (!slots && o.checkpoint_memory) refuse("--checkpoint-memory");
  if (!slots && o.store) refuse(std::string("--store ") + to_string(*o.store));
  if (o.strategy != Strategy::multilevel && !o.tiers.empty()) refuse("--tier " + o.tiers.front());
  if (o.strategy != Strategy::online && o.stop_energy) refuse("--stop-energy " + number_text(*o.stop_energy));
  if (o.strategy == Strategy::full && o.compression.enabled()) refuse("--compress " + o.compression.text());
  // Multilevel's disk tiers are known once its --tier specs are parsed (plan_multilevel).
  if (!o.checkpoint_dir.empty() && o.strategy != Strategy::multilevel && o.store != StoreKind::disk) {
    throw InputError(
        "--checkpoint-dir does not apply: only --store disk or a disk tier writes checkpoints to a directory");
  }
}

// ZFP where the backend's memory tier takes no host codec: it encodes the pinned host slots only.
bool zfp_on_pinned_tier_only(const StrategyOptions& o) {
  return !backend_capabilities(o.backend).host_codecs_in_memory_tier &&
         (o.compression.mode == CompressionMode::zfp_rate || o.compression.mode == CompressionMode::zfp_accuracy);
}

// " (compressed fp16 from 2.1 MiB)" when the slots hold encoded fields.
std::string slot_kind(const StrategyPlan& plan) {
  if (!plan.compression.enabled()) return "";
  if (plan.compress_host_tier_only) {
    return " (raw in device memory; " + plan.compression.text() + " encodes the slots spilled to pinned host memory)";
  }
  return " (compressed " + plan.compression.text() + " from " + format_bytes(double(plan.raw_slot_bytes)) +
         (plan.compression.mode == CompressionMode::zfp_accuracy ? ", the worst case reserved" : "") + ")";
}

// The history of `full` next to the working set, in host memory (the CPU backend).
void require_history(index_t steps, std::size_t field_bytes, std::size_t working_bytes) {
  const std::size_t history = full_history_bytes(steps, field_bytes);
  require_memory(checked_sum(history, working_bytes, "the wavefield history and the working set"),
                 "--strategy full (the wavefield history, " + std::to_string(steps + 1) + " fields of " +
                     format_bytes(double(field_bytes)) + ", and " + format_bytes(double(working_bytes)) +
                     " of working set)",
                 "use --strategy revolve with --snaps or --checkpoint-memory");
}

}  // namespace

namespace {

// One slot: the state the physics declares, whole fields and layer values.
std::size_t state_bytes(const StateShape& state, std::size_t field_bytes, const FieldLayout* layout) {
  const std::string what = std::string("one checkpoint slot (") + state.description + ")";
  std::size_t bytes = checked_bytes({static_cast<std::size_t>(state.fields), field_bytes}, what);
  if (state.layer_values > 0) {
    if (layout == nullptr) throw std::logic_error("plan_strategy: a state with layer values needs the fields' layout");
    bytes = checked_sum(bytes, checked_bytes({state.layer_values, layout->value_bytes}, what), what);
  }
  return bytes;
}

// --compress: what the memory slots hold, and their encoded size.
void plan_compression(const StrategyOptions& o, const FieldLayout* layout, StrategyPlan& plan) {
  if (layout == nullptr) throw std::logic_error("plan_strategy: --compress needs the fields' layout");
  if (o.store == StoreKind::disk) {
    throw InputError("--compress " + o.compression.text() +
                     " applies to checkpoints in memory: not with --store disk (use --store memory)");
  }
  const FieldCodec codec(o.compression, *layout);  // refuses a rate beyond the value size
  plan.compression = o.compression;
  plan.layout = *layout;
  // ZFP on the CUDA backend encodes the pinned host slots only (on the host: Debian's libzfp has
  // no CUDA execution); the device slots stay raw, and a budget buys them at that size.
  plan.compress_host_tier_only = zfp_on_pinned_tier_only(o);
  if (!plan.compress_host_tier_only) plan.slot_bytes = CompressedStore::slot_bytes_of(codec);
}

StrategyPlan plan_impl(const StrategyOptions& o, index_t steps, const StateShape& state, std::size_t field_bytes,
                       std::size_t working_bytes, const FieldLayout* layout) {
  if (steps < 1) throw InputError("steps " + std::to_string(steps) + " is invalid: at least 1 time step is needed");
  StrategyPlan plan;
  plan.strategy = o.strategy;
  plan.steps = steps;
  plan.slot_bytes = state_bytes(state, field_bytes, layout);
  plan.raw_slot_bytes = plan.slot_bytes;
  if (o.compression.enabled() && o.strategy != Strategy::full) {
    plan_compression(o, layout, plan);
  }
  if (state.history_layer_values > 0) {  // what a stored step keeps beside u[n] (StateShape)
    if (layout == nullptr)
      throw std::logic_error("plan_strategy: a history with layer values needs the fields' layout");
    field_bytes = state.history_step_bytes(field_bytes, layout->value_bytes);
  }
  if (o.strategy == Strategy::full) {
    refuse_ignored(o, "stores every step in memory: it takes no slots, store, budget, tiers or stop rule");
    plan.storage_bytes = full_history_bytes(steps, field_bytes);
    plan.predicted_forward_steps = steps;
    plan.choice = "full: the whole history, " + std::to_string(steps) + " wavefields of " +
                  format_bytes(double(field_bytes)) + " = " + format_bytes(double(plan.storage_bytes));
    if (o.check_host_memory && backend_capabilities(o.backend).slots_in_host_memory())
      require_history(steps, field_bytes, working_bytes);
    return plan;
  }
  if (o.strategy == Strategy::multilevel) {
    refuse_ignored(o, "takes its slots and where they live from --tier NAME:SLOTS");
    return plan_multilevel(o, plan, working_bytes);
  }
  refuse_ignored(o, o.strategy == Strategy::online ? "takes --snaps or --checkpoint-memory, --store, --stop-energy"
                                                   : "takes --snaps or --checkpoint-memory and --store");
  if (o.stop_energy) check_number("--stop-energy", *o.stop_energy, {0.0, 1.0, true, true});
  const StoreKind store = o.store.value_or(StoreKind::memory);
  if (store == StoreKind::disk) check_checkpoint_dir(o.checkpoint_dir, "--store disk");
  if (o.snaps && o.checkpoint_memory) {
    throw InputError("--snaps and --checkpoint-memory both given: choose one");
  }
  if (o.snaps) check_integer("--snaps", *o.snaps, at_least(1));
  const std::string name = o.strategy == Strategy::online ? "online" : "revolve";
  if (o.checkpoint_memory) {
    const std::size_t slots = *o.checkpoint_memory / plan.slot_bytes;
    if (slots < 1) {
      throw InputError("--checkpoint-memory " + format_bytes(double(*o.checkpoint_memory)) +
                       " is below one checkpoint slot: the minimum is " + format_bytes(double(plan.slot_bytes)) + " (" +
                       std::to_string(plan.slot_bytes) + " bytes, " + state.description + ")");
    }
    plan.snaps = static_cast<index_t>(std::min<std::size_t>(slots, static_cast<std::size_t>(steps)));
    plan.choice = name + ": " + std::to_string(plan.snaps) + " slots of " + format_bytes(double(plan.slot_bytes)) +
                  slot_kind(plan) + " fit in --checkpoint-memory " + format_bytes(double(*o.checkpoint_memory)) +
                  (slots > static_cast<std::size_t>(steps) ? " (capped at the step count)" : "");
  } else {
    plan.snaps = o.snaps ? *o.snaps : std::min<index_t>(default_snaps, steps);
    plan.choice = name + ": " + std::to_string(plan.snaps) + " slots of " + format_bytes(double(plan.slot_bytes)) +
                  slot_kind(plan) + (o.snaps ? "" : " (the default; set --snaps or --checkpoint-memory)");
    if (o.strategy == Strategy::online && plan.snaps > steps) {
      // More slots than steps store every step, as these do; the store holds no more than it can use.
      plan.snaps = steps;
      plan.choice += " (capped at the step count)";
    }
  }
  // Revolve never stores position 0 (recreated) or N-1 (reversed at once): more slots are never used.
  // A store holds at least one slot (for N <= 2 the schedule needs none). The online
  // schedule may use every slot; Revolve never stores position 0 or N-1.
  const index_t used = o.strategy == Strategy::online ? plan.snaps : RevolveSchedule(steps, plan.snaps).slots();
  plan.slots = std::max<index_t>(1, used);
  // --snaps 1e9 is held to what the steps use, and says so.
  if (used < plan.snaps)
    plan.choice += " (" + std::to_string(used) + " used: " + std::to_string(steps) + " steps need no more)";
  plan.storage_bytes = checked_bytes({static_cast<std::size_t>(plan.slots), plan.slot_bytes},
                                     std::to_string(plan.slots) + " checkpoint slots");
  // Online predicts none (its stop rule decides as it runs; 0 here): a run reports the offline
  // optimum for its slots beside its count, and `revwave plan` counts that optimum as a bound.
  plan.predicted_forward_steps = o.strategy == Strategy::online ? 0 : optimal_forward_steps(steps, plan.snaps);
  if (o.check_host_memory && store == StoreKind::memory && backend_capabilities(o.backend).slots_in_host_memory()) {
    const std::size_t have = available_memory_bytes();
    const std::size_t room = have > working_bytes ? have - working_bytes : 0;
    if (plan.storage_bytes > room) {
      throw OutOfMemoryError(std::to_string(plan.slots) + " checkpoint slots need " +
                             format_bytes(double(plan.storage_bytes)) + " but only " + format_bytes(double(room)) +
                             " is available next to the run's " + format_bytes(double(working_bytes)) +
                             " of working set; try --snaps " +
                             std::to_string(std::max<std::size_t>(1, room / 2 / plan.slot_bytes)) + " or --store disk");
    }
  }
  return plan;
}

}  // namespace

StrategyPlan plan_strategy(const StrategyOptions& o, index_t steps, const StateShape& state, std::size_t field_bytes,
                           std::size_t working_bytes) {
  if (o.compression.enabled() && o.strategy != Strategy::full) {
    throw std::logic_error("plan_strategy: --compress needs the fields' layout (the FieldLayout overload)");
  }
  return plan_impl(o, steps, state, field_bytes, working_bytes, nullptr);
}

StrategyPlan plan_strategy(const StrategyOptions& o, index_t steps, const StateShape& state, const FieldLayout& layout,
                           std::size_t working_bytes) {
  return plan_impl(o, steps, state, layout.alloc_bytes(), working_bytes, &layout);  // the tail: state.layer_values
}

std::unique_ptr<Schedule> make_schedule(const StrategyPlan& plan) {
  if (plan.strategy == Strategy::multilevel) return std::make_unique<MultilevelSchedule>(plan.steps, plan.tiers);
  return std::make_unique<RevolveSchedule>(plan.steps, plan.snaps);
}

namespace {
// Slots in memory: handles to the pool's fields, or encoded copies when the plan compresses.
std::unique_ptr<CheckpointStore> memory_store(std::int64_t slots, const StrategyPlan& plan, HostFieldPool& pool) {
  if (plan.compression.enabled())
    return std::make_unique<CompressedStore>(slots, pool, FieldCodec(plan.compression, *plan.layout));
  return std::make_unique<MemoryStore>(slots, pool);
}
}  // namespace

std::unique_ptr<CheckpointStore> make_store(const StrategyOptions& o, const StrategyPlan& plan, HostFieldPool& pool,
                                            PrefetchHint* hint) {
  if (plan.strategy == Strategy::multilevel) {
    std::vector<std::unique_ptr<CheckpointStore>> tiers;
    std::int64_t first = 0;  // global id of the tier's slot 0, as the schedule numbers them
    for (std::size_t i = 0; i < plan.tiers.size(); ++i) {
      const Tier& t = plan.tiers[i];
      if (t.slots == 0)
        tiers.push_back(nullptr);
      else if (plan.tier_kinds[i] == TierKind::disk)
        tiers.push_back(std::make_unique<AsyncDiskStore>(t.slots, pool, o.checkpoint_dir, hint, first));
      else if (plan.tier_kinds[i] == TierKind::memory)
        tiers.push_back(memory_store(t.slots, plan, pool));
      else
        throw std::logic_error(
            "make_store: a pinned tier is the CUDA backend's (parse_tier_spec refuses it on the CPU)");
      first += t.slots;
    }
    return std::make_unique<TieredStore>(std::move(tiers));
  }
  if (o.store == StoreKind::disk) return std::make_unique<AsyncDiskStore>(plan.slots, pool, o.checkpoint_dir, hint);
  return memory_store(plan.slots, plan, pool);
}

}  // namespace revwave
