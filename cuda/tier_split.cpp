#include "tier_split.hpp"

#include <algorithm>

#include "revwave/errors.hpp"
#include "revwave/system_memory.hpp"

namespace revwave {

namespace {
std::string slots_text(index_t n) { return std::to_string(n) + (n == 1 ? " slot" : " slots"); }
}  // namespace

TierSplit split_slots(index_t slots, std::size_t slot_bytes, std::size_t device_budget, std::size_t host_budget) {
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
  const std::size_t host_need = static_cast<std::size_t>(s.host_slots) * slot_bytes;
  if (host_need > host_budget) {
    const index_t fit = s.device_slots + static_cast<index_t>(host_budget / slot_bytes);
    throw OutOfMemoryError(std::to_string(slots) + " checkpoint slots of " + format_bytes(double(slot_bytes)) +
                           " need " + format_bytes(double(need)) + ": the device budget " +
                           format_bytes(double(device_budget)) + " holds " + std::to_string(s.device_slots) +
                           " and the pinned host budget " + format_bytes(double(host_budget)) + " holds " +
                           std::to_string(fit - s.device_slots) + "; try --snaps " +
                           std::to_string(std::max<index_t>(fit, 1)) + " or raise --device-memory/--host-memory");
  }
  s.choice = slots_text(s.device_slots) + " in device memory and " + std::to_string(s.host_slots) +
             " in pinned host memory (slots of " + format_bytes(double(slot_bytes)) + ", device budget " +
             format_bytes(double(device_budget)) + " less " + format_bytes(double(s.staging_bytes)) +
             " of staging, host budget " + format_bytes(double(host_budget)) + ")";
  return s;
}

std::string history_tier(index_t steps, std::size_t field_bytes, std::size_t device_budget, std::size_t host_budget) {
  const std::size_t need = static_cast<std::size_t>(std::max<index_t>(steps, 0)) * field_bytes;
  if (need <= device_budget) return "device";
  if (need <= host_budget) return "pinned-host";
  throw OutOfMemoryError("--strategy full needs " + format_bytes(double(need)) + " for the wavefield history (" +
                         std::to_string(steps) + " steps x " + format_bytes(double(field_bytes)) +
                         "), but the device budget is " + format_bytes(double(device_budget)) +
                         " and the pinned host budget " + format_bytes(double(host_budget)) +
                         "; use --strategy revolve with --snaps or --checkpoint-memory");
}

}  // namespace revwave
