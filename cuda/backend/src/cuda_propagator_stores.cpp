// The CUDA propagator's checkpoint stores: where a plan's slots live (a DeviceStorePlan), and the
// store made from it through the one factory, make_device_store, for every plan (the placement
// that placement() reports).
#include <algorithm>
#include <string>

#include "revwave/core/system_memory.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/store/host_staging_worker.hpp"
#include "revwave/store/compressed_store.hpp"

namespace revwave {

template <class T>
void CudaPropagator<T>::set_compression(const Compression& c) {
  if (fused_) fused_->flush();  // its stores' last encode, before the codec goes
  fused_.reset();
  codec_.reset();
  host_codec_.reset();
  if (!c.enabled()) return;
  if (c.mode == CompressionMode::fp16 || c.mode == CompressionMode::bf16) {
    codec_ = std::make_unique<CastCodec<T>>(c, p_.grid);
    if (fuse_codec_ && physics_->fuses_codec()) fused_ = std::make_unique<FusedCodec>(*codec_, streams_.compute);
  } else {  // ZFP: on the host, for the pinned slots only (Debian's libzfp has no CUDA execution)
    host_codec_ = std::make_unique<FieldCodec>(c, field_layout<T>(p_.grid));
  }
}

template <class T>
std::size_t CudaPropagator<T>::slot_bytes() const {
  return codec_ ? codec_->slot_bytes() : state_shape().bytes(field_bytes(), sizeof(T));
}

template <class T>
HostSlotCost CudaPropagator<T>::host_slot_cost() const {
  if (!host_codec_) return {};
  return {CompressedStore::slot_bytes_of(*host_codec_), HostStagingWorker::staging_bytes(field_bytes()),
          "ZFP-encoded " + host_codec_->compression().text() +
              (host_codec_->compression().mode == CompressionMode::zfp_accuracy ? " (worst case reserved)" : "")};
}

template <class T>
TierSplit CudaPropagator<T>::split_slots(index_t slots) const {
  return revwave::split_slots(slots, slot_bytes(), device_budget(), host_budget(), host_slot_cost());
}

template <class T>
DeviceStorePlan CudaPropagator<T>::store_plan(const TierSplit& split) const {
  DeviceStorePlan where;
  where.tiers = {{TierKind::pinned, split.host_slots}, {TierKind::memory, split.device_slots}};
  where.codec = codec_.get();
  where.host_codec = host_codec_.get();
  where.choice = split.choice;
  where.split_by_budgets = true;
  return where;
}

template <class T>
DeviceStorePlan CudaPropagator<T>::store_plan(const StrategyOptions& options, const StrategyPlan& plan) const {
  if (plan.strategy != Strategy::multilevel && options.store != StoreKind::disk)
    return store_plan(split_slots(plan.slots));
  DeviceStorePlan where;
  where.codec = codec_.get();
  where.host_codec = host_codec_.get();
  where.checkpoint_dir = options.checkpoint_dir;
  if (plan.strategy == Strategy::multilevel) {
    for (std::size_t i = 0; i < plan.tiers.size(); ++i)
      where.tiers.push_back({plan.tier_kinds[i], plan.tiers[i].slots});
    where.choice = plan.choice + " (memory: device memory, pinned: pinned host memory" +
                   (where.slots_on(TierKind::disk) > 0 ? ", disk: files in '" + options.checkpoint_dir + "'" : "") +
                   ")";
  } else {
    where.tiers = {{TierKind::disk, plan.slots}};
    where.choice = std::to_string(plan.slots) + " slots of " +
                   format_bytes(double(state_shape().bytes(field_bytes(), sizeof(T)))) + " in files in '" +
                   options.checkpoint_dir + "', copied through pinned host staging";
  }
  return where;
}

template <class T>
std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(const DeviceStorePlan& where, PrefetchHint* hint) {
  const bool split = where.split_by_budgets;
  try {
    std::unique_ptr<DeviceCheckpointStore> store =
        make_device_store(where, DeviceStoreContext{pool_, streams_, fences_, clock_, fused_.get()}, hint);
    if (fused_) store = std::make_unique<FlushingStore>(std::move(store), *fused_);
    reserve_fields(store->held_fields());
    placement_.device_slots = where.slots_on(TierKind::memory);
    placement_.host_slots = where.slots_on(TierKind::pinned);
    placement_.tier_choice = where.choice;
    return store;
  } catch (const CudaOutOfMemoryError& e) {
    // The device budget promised more than the device gave (--device-memory above what is free,
    // or another process took it meanwhile): say what would fit.
    const std::size_t free_now = cuda_free_memory();
    const index_t fit = static_cast<index_t>(free_now / slot_bytes());
    const std::string fewer = split ? "try --snaps " + std::to_string(std::max<index_t>(fit, 1)) +
                                          ", or --device-memory below " + format_bytes(double(free_now)) +
                                          " so that the other slots go to pinned host memory"
                                    : "give the memory tier at most " + std::to_string(fit) +
                                          " slots (--tier memory:" + std::to_string(fit) + ")";
    throw OutOfMemoryError(std::string(e.what()) + ": " + where.choice + " does not fit in the " +
                           format_bytes(double(free_now)) + " the device has free; " + fewer);
  } catch (const OutOfMemoryError& e) {  // pinned host memory: the OS would not lock that much
    throw OutOfMemoryError(
        std::string(e.what()) + ": " + where.choice + "; " +
        (split ? "try fewer --snaps or a smaller --host-memory" : "give the pinned tier fewer slots"));
  }
}

#define REVWAVE_INSTANTIATE(T)                                                                               \
  template void CudaPropagator<T>::set_compression(const Compression&);                                      \
  template std::size_t CudaPropagator<T>::slot_bytes() const;                                                \
  template HostSlotCost CudaPropagator<T>::host_slot_cost() const;                                           \
  template TierSplit CudaPropagator<T>::split_slots(index_t) const;                                          \
  template DeviceStorePlan CudaPropagator<T>::store_plan(const TierSplit&) const;                            \
  template DeviceStorePlan CudaPropagator<T>::store_plan(const StrategyOptions&, const StrategyPlan&) const; \
  template std::unique_ptr<DeviceCheckpointStore> CudaPropagator<T>::make_store(const DeviceStorePlan&, PrefetchHint*);
REVWAVE_INSTANTIATE(float)
REVWAVE_INSTANTIATE(double)
#undef REVWAVE_INSTANTIATE

}  // namespace revwave
