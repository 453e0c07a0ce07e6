// The CUDA propagator's checkpoints and history: a strategy's schedule and store as the device
// lays them out (the propagator concept's make_checkpoints; the stores themselves are made in
// cuda_propagator_stores.cpp), the stored history of `full`, and where the run put them.
#include <algorithm>
#include <string>

#include "revwave/core/system_memory.hpp"
#include "revwave/cuda/backend/compressed_plan.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {

template <class T>
std::size_t CudaPropagator<T>::allocate_history(index_t steps, const std::function<void()>& between) {
  history_.reset();
  const std::size_t budget = device_budget();  // the one that decides, before the history takes its share
  const std::size_t step = std::min(field_bytes(), history_step_bytes<T>(p_.grid, physics_of(p_)));
  const HistoryTier tier = place_history(steps, step, budget, host_budget());
  const bool on_device = tier == HistoryTier::device;
  history_ = std::make_unique<FieldHistory>(steps, field_bytes(), step, on_device, between);
  reserve_fields(history_->held_fields(), between);
  placement_.history_tier = to_string(tier);
  placement_.tier_choice =
      "the history of " + std::to_string(steps) + " wavefields (" + format_bytes(double(history_->bytes())) + ") in " +
      (on_device ? "device memory" : "pinned host memory") + " (device budget " + format_bytes(double(budget)) + ")";
  return history_->bytes();
}

template <class T>
void CudaPropagator<T>::record_history(index_t n) {
  history_->record(n, state_.u, streams_, fences_);
}

template <class T>
void CudaPropagator<T>::reverse_step_from_history(index_t n) {
  NvtxRange range("reverse");
  const FieldHistory::Fields f = history_->acquire(n, streams_, clock_);
  reverse_from(n, static_cast<const T*>(f.cur), static_cast<const T*>(f.prev), static_cast<const T*>(f.next));
  history_->release(n, streams_);
}

template <class T>
void CudaPropagator<T>::release_history() {
  history_.reset();
  if (ring_ == nullptr) pool_.release_unused();  // cudaFree waits for the device: once, at the end of the run
}

template <class T>
CheckpointSet<DeviceCheckpointStore> CudaPropagator<T>::make_checkpoints(const StrategyPlan& plan,
                                                                         const StrategyOptions& options,
                                                                         std::unique_ptr<Schedule> planned,
                                                                         PrefetchHint* hint) {
  set_compression(plan.compression);
  CheckpointSet<DeviceCheckpointStore> set;
  if (plan.strategy == Strategy::multilevel || options.store == StoreKind::disk || !planned) {
    // Where the plan places the slots (multilevel's tiers, --store disk's files; online's split by
    // the budgets), under the schedule planned (none for online: nothing to look ahead into).
    set.schedule = std::move(planned);
    set.predicted_forward_steps = plan.predicted_forward_steps;
    set.store = make_store(store_plan(options, plan), set.schedule ? hint : nullptr);
    return set;
  }
  if (codec_ && plan.snaps * codec_->slot_bytes() <= device_budget()) {
    // --compress fp16|bf16 with every slot on the device: the plan's bytes split between raw and
    // encoded slots where compression pays (compressed_plan.hpp); the schedule is replaced.
    const std::size_t raw = state_shape().bytes(field_bytes(), sizeof(T));
    CompressedSlotPlan cp =
        plan_compressed_slots(p_.time.steps, plan.snaps * codec_->slot_bytes(), raw, codec_->slot_bytes(),
                              codec_costs(codec_->bf16(), sizeof(T), fused_ != nullptr), plan.compression.text());
    DeviceStorePlan where;
    where.tiers = {{TierKind::memory, cp.raw_slots, true}, {TierKind::memory, cp.encoded_slots}};
    where.codec = codec_.get();
    where.choice = cp.choice;
    set.schedule = std::move(cp.schedule);
    set.predicted_forward_steps = cp.predicted_forward_steps;
    set.store = make_store(where, hint);
    return set;
  }
  // Revolve on what the device holds, or two levels: the plan's schedule is replaced.
  DeviceCheckpointPlan cp = plan_device_checkpoints(p_.time.steps, plan.snaps, slot_bytes(), device_budget(),
                                                    host_budget(), budgets_.min_host_spacing, host_slot_cost());
  set.schedule = std::move(cp.schedule);
  set.predicted_forward_steps = cp.predicted_forward_steps;
  set.store = make_store(cp.split, hint);
  return set;
}

template <class T>
TierReport CudaPropagator<T>::placement() {
  if (ring_ == nullptr) synchronize();  // an engine's shot ends without waiting
  TierReport r = placement_;
  r.seconds_spill = spill_seconds();
  return r;
}

// The members defined in this file (the class itself is instantiated in cuda_propagator.cpp).
#define REVWAVE_INSTANTIATE(T)                                                                     \
  template std::size_t CudaPropagator<T>::allocate_history(index_t, const std::function<void()>&); \
  template void CudaPropagator<T>::record_history(index_t);                                        \
  template void CudaPropagator<T>::reverse_step_from_history(index_t);                             \
  template void CudaPropagator<T>::release_history();                                              \
  template CheckpointSet<DeviceCheckpointStore> CudaPropagator<T>::make_checkpoints(               \
      const StrategyPlan&, const StrategyOptions&, std::unique_ptr<Schedule>, PrefetchHint*);      \
  template TierReport CudaPropagator<T>::placement();
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
