#include "revwave/schedule/tier_split.hpp"

#include <algorithm>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/two_level.hpp"

namespace revwave {

namespace {
std::string slots_text(index_t n) { return std::to_string(n) + (n == 1 ? " slot" : " slots"); }

std::size_t host_slot_bytes(std::size_t slot_bytes, const HostSlotCost& host) {
  return host.slot_bytes > 0 ? host.slot_bytes : slot_bytes;
}
std::size_t host_room(std::size_t host_budget, const HostSlotCost& host) {
  return host_budget > host.staging_bytes ? host_budget - host.staging_bytes : 0;
}
// ", host slots ZFP zfp-rate:8 of 1.2 MiB and 4.0 MiB of pinned staging" where they differ.
std::string host_kind(const HostSlotCost& host) {
  if (host.slot_bytes == 0) return "";
  return ", host slots " + host.kind + " of " + format_bytes(double(host.slot_bytes)) + " and " +
         format_bytes(double(host.staging_bytes)) + " of pinned staging";
}
}  // namespace

TierSplit split_slots(index_t slots, std::size_t slot_bytes, std::size_t device_budget, std::size_t host_budget,
                      const HostSlotCost& host) {
  TierSplit s;
  slots = std::max<index_t>(slots, 0);
  const std::size_t need = static_cast<std::size_t>(slots) * slot_bytes;
  if (slot_bytes == 0 || need <= device_budget) {
    s.device_slots = slots;
    s.choice = slots_text(slots) + " of " + format_bytes(double(slot_bytes)) + " in device memory (budget " +
               format_bytes(double(device_budget)) + ")";
    return s;
  }
  s.staging_bytes = 2 * slot_bytes;
  const std::size_t left = device_budget > s.staging_bytes ? device_budget - s.staging_bytes : 0;
  s.device_slots = std::min<index_t>(slots, static_cast<index_t>(left / slot_bytes));
  s.host_slots = slots - s.device_slots;
  const std::size_t host_bytes = host_slot_bytes(slot_bytes, host);
  const std::size_t host_need = static_cast<std::size_t>(s.host_slots) * host_bytes + host.staging_bytes;
  if (host_need > host_budget) {
    const index_t fit = s.device_slots + static_cast<index_t>(host_room(host_budget, host) / host_bytes);
    throw OutOfMemoryError(std::to_string(slots) + " checkpoint slots of " + format_bytes(double(slot_bytes)) +
                           " need " + format_bytes(double(need)) + ": the device budget " +
                           format_bytes(double(device_budget)) + " holds " + std::to_string(s.device_slots) +
                           " and the pinned host budget " + format_bytes(double(host_budget)) + " holds " +
                           std::to_string(fit - s.device_slots) + host_kind(host) + "; try --snaps " +
                           std::to_string(std::max<index_t>(fit, 1)) + " or raise --device-memory/--host-memory");
  }
  s.choice = slots_text(s.device_slots) + " in device memory and " + std::to_string(s.host_slots) +
             " in pinned host memory (slots of " + format_bytes(double(slot_bytes)) + ", device budget " +
             format_bytes(double(device_budget)) + " less " + format_bytes(double(s.staging_bytes)) +
             " of staging, host budget " + format_bytes(double(host_budget)) + host_kind(host) + ")";
  return s;
}

HistoryTier place_history(index_t steps, std::size_t field_bytes, std::size_t device_budget, std::size_t host_budget) {
  const std::size_t need = static_cast<std::size_t>(std::max<index_t>(steps, 0)) * field_bytes;
  if (need <= device_budget) return HistoryTier::device;
  if (need <= host_budget) return HistoryTier::pinned_host;
  throw OutOfMemoryError("--strategy full needs " + format_bytes(double(need)) + " for the wavefield history (" +
                         std::to_string(steps) + " steps x " + format_bytes(double(field_bytes)) +
                         "), but the device budget is " + format_bytes(double(device_budget)) +
                         " and the pinned host budget " + format_bytes(double(host_budget)) +
                         "; use --strategy revolve with --snaps or --checkpoint-memory");
}

const char* to_string(HistoryTier tier) { return tier == HistoryTier::device ? "device" : "pinned-host"; }

DeviceCheckpointPlan plan_device_checkpoints(index_t steps, index_t snaps, std::size_t slot_bytes,
                                             std::size_t device_budget, std::size_t host_budget,
                                             index_t min_host_spacing, const HostSlotCost& host) {
  DeviceCheckpointPlan p;
  auto revolve = std::make_unique<RevolveSchedule>(steps, snaps);
  const index_t wanted = revolve->slots();
  const index_t fit = slot_bytes == 0 ? wanted : static_cast<index_t>(device_budget / slot_bytes);
  if (wanted <= fit) {
    p.split = split_slots(wanted, slot_bytes, device_budget, host_budget, host);
    p.predicted_forward_steps = optimal_forward_steps(steps, snaps);
    p.schedule = std::move(revolve);
    return p;
  }
  if (fit < 1) {
    throw OutOfMemoryError("the device budget " + format_bytes(double(device_budget)) +
                           " holds no checkpoint slot of " + format_bytes(double(slot_bytes)) +
                           "; raise --device-memory");
  }
  // Revolve on what the device holds, unless two levels need fewer forward steps.
  p.schedule = std::make_unique<RevolveSchedule>(steps, fit);
  p.split.device_slots = p.schedule->slots();
  p.split.choice = slots_text(p.split.device_slots) + " of " + format_bytes(double(slot_bytes)) +
                   " in device memory, all its budget " + format_bytes(double(device_budget)) + " holds (" +
                   std::to_string(snaps) +
                   " asked for; two levels with pinned host memory would not recompute less, "
                   "or have no room)";
  p.predicted_forward_steps = optimal_forward_steps(steps, fit);
  const index_t inner = std::min(fit - 3, snaps);  // two staging slots and the segment base come first
  const index_t host_fit =
      slot_bytes == 0 ? 0 : static_cast<index_t>(host_room(host_budget, host) / host_slot_bytes(slot_bytes, host));
  const index_t max_outer = std::min(std::max<index_t>(snaps - inner - 1, 0), host_fit);
  if (inner < 1 || max_outer < 1) return p;
  const TwoLevelShape shape = choose_two_level(steps, inner, max_outer, min_host_spacing);
  if (shape.outer_slots() == 0 || two_level_forward_steps(shape) >= p.predicted_forward_steps) return p;
  auto two = std::make_unique<TwoLevelSchedule>(shape);
  p.split.host_slots = shape.outer_slots();
  p.split.device_slots = two->slots() - p.split.host_slots;
  p.split.staging_bytes = 2 * slot_bytes;
  p.split.choice = "two levels: " + std::to_string(p.split.host_slots) + " checkpoints " +
                   std::to_string(shape.segment) + " steps apart in pinned host memory, the segment start and " +
                   slots_text(p.split.device_slots - 1) +
                   " for Revolve inside each segment in device memory (slots of " + format_bytes(double(slot_bytes)) +
                   ", device budget " + format_bytes(double(device_budget)) + " less " +
                   format_bytes(double(p.split.staging_bytes)) + " of staging, host budget " +
                   format_bytes(double(host_budget)) + host_kind(host) + ")";
  p.predicted_forward_steps = two_level_forward_steps(shape);
  p.schedule = std::move(two);
  return p;
}

}  // namespace revwave
