// The CUDA propagator's checkpoints and history: where a strategy's slots go (device memory, pinned
// host memory, encoded or not), the schedule that fits them, and where the run put them.
#include <algorithm>
#include <string>

#include "revwave/core/system_memory.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"
#include "revwave/store/compressed_store.hpp"

namespace revwave {

template <class T>
std::size_t CudaPropagator<T>::allocate_history(index_t steps) {
  history_.reset();
  const std::size_t budget = device_budget();  // the one that decides, before the history takes its share
  const std::string tier = revwave::history_tier(steps, field_bytes(), budget, host_budget());
  history_ = std::make_unique<FieldHistory>(steps, field_bytes(), tier == "device");
  reserve_fields(history_->held_fields());
  placement_.history_tier = tier;
  placement_.tier_choice = "the history of " + std::to_string(steps) + " wavefields (" +
                           format_bytes(double(history_->bytes())) + ") in " +
                           (tier == "device" ? "device memory" : "pinned host memory") + " (device budget " +
                           format_bytes(double(budget)) + ")";
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
  reverse_from(n, static_cast<const T*>(f.cur), static_cast<const T*>(f.prev));
  history_->release(n, streams_);
}

template <class T>
void CudaPropagator<T>::release_history() {
  history_.reset();
  pool_.release_unused();  // cudaFree waits for the device: once, at the end of the run
}

template <class T>
std::size_t CudaPropagator<T>::slot_bytes() const {
  return codec_ ? codec_->slot_bytes() : state_shape().bytes(field_bytes(), sizeof(T));
}

template <class T>
void CudaPropagator<T>::set_compression(const Compression& c) {
  codec_.reset();
  host_codec_.reset();
  if (!c.enabled()) return;
  if (c.mode == CompressionMode::fp16 || c.mode == CompressionMode::bf16) {
    codec_ = std::make_unique<CastCodec<T>>(c, p_.grid);
  } else {  // ZFP: on the host, for the pinned slots only (Debian's libzfp has no CUDA execution)
    host_codec_ = std::make_unique<FieldCodec>(c, field_layout<T>(p_.grid));
  }
}

template <class T>
HostSlotCost CudaPropagator<T>::host_slot_cost() const {
  if (!host_codec_) return {};
  return {CompressedStore::slot_bytes_of(*host_codec_), HostEncodedSlots::staging_bytes(*host_codec_),
          "ZFP-encoded " + host_codec_->compression().text() +
              (host_codec_->compression().mode == CompressionMode::zfp_accuracy ? " (worst case reserved)" : "")};
}

template <class T>
std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(index_t slots, PrefetchHint* hint) {
  return make_store(split_slots(slots, slot_bytes(), device_budget(), host_budget(), host_slot_cost()), hint);
}

template <class T>
std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(const TierSplit& split,
                                                                     PrefetchHint* hint) {
  const std::size_t slot_bytes = this->slot_bytes();
  try {
    auto store = std::make_unique<DeviceCheckpointStore>(split, pool_, streams_, fences_, clock_, hint, codec_.get(),
                                                         host_codec_.get());
    reserve_fields(store->held_fields());
    placement_.device_slots = split.device_slots;
    placement_.host_slots = split.host_slots;
    placement_.tier_choice = split.choice;
    return store;
  } catch (const CudaOutOfMemoryError& e) {
    // The device budget promised more than the device gave (--device-memory above what is free,
    // or another process took it meanwhile): say what would fit.
    const std::size_t free_now = cuda_free_memory();
    const index_t fit = static_cast<index_t>(free_now / slot_bytes);
    throw OutOfMemoryError(std::string(e.what()) + ": " + split.choice + " does not fit in the " +
                           format_bytes(double(free_now)) + " the device has free; try --snaps " +
                           std::to_string(std::max<index_t>(fit, 1)) + ", or --device-memory below " +
                           format_bytes(double(free_now)) + " so that the other slots go to pinned host memory");
  } catch (const OutOfMemoryError& e) {  // pinned host memory: the OS would not lock that much
    throw OutOfMemoryError(std::string(e.what()) + ": " + split.choice + "; try fewer --snaps or a smaller --host-memory");
  }
}

template <class T>
CheckpointSet<DeviceCheckpointStore> CudaPropagator<T>::make_checkpoints(const StrategyPlan& plan,
                                                                         const StrategyOptions& options,
                                                                         std::unique_ptr<Schedule> planned,
                                                                         PrefetchHint* hint) {
  if (plan.strategy == Strategy::multilevel) {
    throw InputError("--strategy multilevel is not available with --backend cuda: use revolve, whose slots are split "
                     "between device and pinned host memory by --device-memory / --host-memory");
  }
  if (options.store == StoreKind::disk) {
    throw InputError("--store disk is not available with --backend cuda: its checkpoints live in device and pinned "
                     "host memory (set --device-memory / --host-memory)");
  }
  set_compression(plan.compression);
  CheckpointSet<DeviceCheckpointStore> set;
  if (!planned) {  // online: the schedule is not known ahead, so nothing to prefetch by
    set.store = make_store(plan.snaps, nullptr);
    set.predicted_forward_steps = plan.predicted_forward_steps;
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
  synchronize();
  TierReport r = placement_;
  r.seconds_spill = spill_seconds();
  return r;
}

// The members defined in this file (the class itself is instantiated in cuda_propagator.cpp).
#define REVWAVE_INSTANTIATE(T)                                                                                      \
  template std::size_t CudaPropagator<T>::allocate_history(index_t);                                                \
  template void CudaPropagator<T>::record_history(index_t);                                                         \
  template void CudaPropagator<T>::reverse_step_from_history(index_t);                                              \
  template void CudaPropagator<T>::release_history();                                                               \
  template std::size_t CudaPropagator<T>::slot_bytes() const;                                                       \
  template void CudaPropagator<T>::set_compression(const Compression&);                                             \
  template HostSlotCost CudaPropagator<T>::host_slot_cost() const;                                                  \
  template std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(index_t, PrefetchHint*);            \
  template std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(const TierSplit&, PrefetchHint*);   \
  template CheckpointSet<DeviceCheckpointStore> CudaPropagator<T>::make_checkpoints(                                \
      const StrategyPlan&, const StrategyOptions&, std::unique_ptr<Schedule>, PrefetchHint*);                       \
  template TierReport CudaPropagator<T>::placement();
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
