// How checkpoint slots and the `full` history are split between device and pinned host memory.
// Pure arithmetic on budgets (no CUDA): the CUDA backend measures, this decides.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

#include "revwave/core/config.hpp"
#include "revwave/schedule/schedule.hpp"

namespace revwave {

struct TierSplit {
  index_t device_slots = 0;
  index_t host_slots = 0;         // slot ids [0, host_slots) live in pinned host memory
  std::size_t staging_bytes = 0;  // device staging for spills and prefetches (0 without host slots)
  std::string choice;             // one sentence for the run report
};

// What a pinned host slot costs where it differs from a device slot: with --compress zfp-... the
// host tier holds ZFP-encoded slots (slot_bytes, the codec's exact or worst-case size) and two
// pinned staging pairs of raw fields (staging_bytes), both out of the host budget.
struct HostSlotCost {
  std::size_t slot_bytes = 0;  // 0: a device slot's
  std::size_t staging_bytes = 0;
  std::string kind;  // how the report names such a slot: "ZFP zfp-rate:8"
};

// The device budget where none is given: the free memory less a margin of max(512 MiB, 5% of it)
// (CudaPropagator::device_budget, measured after its own fields; `revwave plan`, before them).
inline std::size_t device_budget_from_free(std::size_t free_bytes) {
  const std::size_t margin = std::max<std::size_t>(std::size_t(512) << 20, free_bytes / 20);
  return free_bytes > margin ? free_bytes - margin : 0;
}

// Device first: all slots on the device when they fit in `device_budget`; otherwise two
// device staging slots are taken from it, the rest of it holds device slots and the remaining
// slots go to pinned host memory, which must fit in `host_budget` (OutOfMemoryError naming
// both budgets and the largest --snaps that fits otherwise).
TierSplit split_slots(index_t slots, std::size_t slot_bytes, std::size_t device_budget, std::size_t host_budget,
                      const HostSlotCost& host = {});

// Strategy full: the device when steps x field_bytes fits in device_budget, else pinned host
// memory when it fits in host_budget, else OutOfMemoryError pointing at --strategy revolve.
enum class HistoryTier { device, pinned_host };
HistoryTier place_history(index_t steps, std::size_t field_bytes, std::size_t device_budget, std::size_t host_budget);
// How reports name it: "device" or "pinned-host".
const char* to_string(HistoryTier tier);
inline std::string history_tier(index_t steps, std::size_t field_bytes, std::size_t device_budget,
                                std::size_t host_budget) {
  return to_string(place_history(steps, field_bytes, device_budget, host_budget));
}

// The checkpoint schedule of a revolve run on the CUDA backend and where its slots live.
// Revolve with all `snaps` slots in device memory when they fit. Otherwise the better, by
// forward steps, of: Revolve on the slots the device holds, or the two-level schedule
// (two_level.hpp) with pinned host checkpoints at least `min_host_spacing` steps apart
// (so that each copy over PCIe hides behind that many steps), the segment base and Revolve
// slots in device memory, at most `snaps` slots in all. OutOfMemoryError when the device
// budget holds no slot.
struct DeviceCheckpointPlan {
  std::unique_ptr<Schedule> schedule;
  TierSplit split;
  index_t predicted_forward_steps = 0;
};
DeviceCheckpointPlan plan_device_checkpoints(index_t steps, index_t snaps, std::size_t slot_bytes,
                                             std::size_t device_budget, std::size_t host_budget,
                                             index_t min_host_spacing, const HostSlotCost& host = {});

}  // namespace revwave
