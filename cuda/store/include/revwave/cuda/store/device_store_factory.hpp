// The CUDA backend's checkpoint store of a plan, composed from the device tiers: every plan
// (revolve, possibly two-level; online; multilevel; --store disk) places its slots tier by tier
// in a DeviceStorePlan, and make_device_store builds the tiers in that order.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_codec.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/store/tier_spec.hpp"

namespace revwave {

struct PlacedTier {
  TierKind kind = TierKind::memory;  // memory: device memory
  std::int64_t slots = 0;
  bool raw = false;  // a memory tier that holds the fields as they are, whatever the plan's codec
};

// Where a CUDA run's checkpoint slots live, in slot-id order (the schedule's numbering), and what
// encodes them.
struct DeviceStorePlan {
  std::vector<PlacedTier> tiers;
  // --compress fp16|bf16: the memory and pinned slots hold the device codec's bytes (disk slots stay raw).
  DeviceCodec* codec = nullptr;
  // --compress zfp-...: the pinned slots are encoded on the host (memory and disk slots stay raw).
  const FieldCodec* host_codec = nullptr;
  std::string checkpoint_dir;     // where disk tiers keep their files
  std::string choice;             // one sentence for the run report: where the slots live and why
  bool split_by_budgets = false;  // revolve's or online's slots split by the device and host budgets

  std::int64_t slots_on(TierKind kind) const {
    std::int64_t n = 0;
    for (const PlacedTier& t : tiers) n += t.kind == kind ? t.slots : 0;
    return n;
  }
};

// The tiers of `plan` composed (a tier without slots is left out): memory -> DeviceSlots or, with
// a device codec and unless the tier is raw, EncodedDeviceSlots; pinned -> PinnedSlots, EncodedPinnedSlots (device codec) or a
// StagedHostTier on EncodedHostSlots (host codec); disk -> a StagedHostTier on DiskHostSlots. The
// codecs must outlive the store; `hint` (null: nothing is read ahead) answers in the plan's slot
// ids and must outlive it too. Allocation failures are CudaOutOfMemoryError (device) and
// OutOfMemoryError (pinned); a checkpoint directory that cannot hold the disk slots an
// InputError or IoError naming it.
std::unique_ptr<DeviceTieredStore> make_device_store(const DeviceStorePlan& plan, const DeviceStoreContext& context,
                                                     PrefetchHint* hint);

}  // namespace revwave
