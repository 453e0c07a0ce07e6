// The device tiers of a plan, composed; and the composition's instantiation for the device's state.
#include "revwave/cuda/store/device_store_factory.hpp"

#include <stdexcept>

#include "revwave/cuda/store/device_slots.hpp"
#include "revwave/cuda/store/disk_host_slots.hpp"
#include "revwave/cuda/store/encoded_device_slots.hpp"
#include "revwave/cuda/store/encoded_host_slots.hpp"
#include "revwave/cuda/store/encoded_pinned_slots.hpp"
#include "revwave/cuda/store/pinned_slots.hpp"
#include "revwave/cuda/store/staged_host_tier.hpp"

namespace revwave {

template class BasicTieredStore<DeviceState>;

namespace {

std::unique_ptr<DeviceCheckpointStore> make_tier(const PlacedTier& t, const DeviceStorePlan& plan,
                                                 const DeviceStoreContext& c, TierLookahead ahead) {
  switch (t.kind) {
    case TierKind::memory:
      if (plan.codec != nullptr && !t.raw) return std::make_unique<EncodedDeviceSlots>(t.slots, c, *plan.codec);
      return std::make_unique<DeviceSlots>(t.slots, c.pool);
    case TierKind::pinned:
      if (plan.codec != nullptr) return std::make_unique<EncodedPinnedSlots>(t.slots, c, *plan.codec, ahead);
      if (plan.host_codec != nullptr) {
        return std::make_unique<StagedHostTier>(std::make_unique<EncodedHostSlots>(t.slots, *plan.host_codec), c,
                                                ahead);
      }
      return std::make_unique<PinnedSlots>(t.slots, c, ahead);
    case TierKind::disk:
      return std::make_unique<StagedHostTier>(
          std::make_unique<DiskHostSlots>(t.slots, c.pool.field_bytes(), plan.checkpoint_dir), c, ahead);
  }
  throw std::logic_error("make_device_store: unknown tier kind");
}

}  // namespace

std::unique_ptr<DeviceTieredStore> make_device_store(const DeviceStorePlan& plan, const DeviceStoreContext& context,
                                                     PrefetchHint* hint) {
  if (plan.codec != nullptr && plan.host_codec != nullptr) {
    throw std::logic_error("make_device_store: a device codec or a host codec, not both");
  }
  std::vector<std::unique_ptr<DeviceCheckpointStore>> tiers;
  std::int64_t first = 0;  // the global id of the tier's slot 0
  for (const PlacedTier& t : plan.tiers) {
    tiers.push_back(t.slots > 0 ? make_tier(t, plan, context, TierLookahead{hint, first}) : nullptr);
    first += t.slots;
  }
  return std::make_unique<DeviceTieredStore>(std::move(tiers));
}

}  // namespace revwave
