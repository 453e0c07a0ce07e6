// The split of a device budget between raw and encoded slots with the least predicted time loop.
#include "revwave/cuda/backend/compressed_plan.hpp"

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "revwave/core/system_memory.hpp"
#include "revwave/schedule/multilevel.hpp"

namespace revwave {
namespace {

std::vector<Tier> split(index_t raw, index_t encoded, const CodecCosts& costs, const std::string& codec) {
  return {Tier{"raw device", raw, 0.0, 0.0}, Tier{codec + " device", encoded, costs.store, costs.restore}};
}

// The candidate raw slot counts: all of them up to 64, else a geometric subset with both ends.
std::vector<index_t> raw_candidates(index_t max_raw) {
  std::vector<index_t> r;
  for (index_t n = 0; n <= max_raw; n = n < 64 ? n + 1 : n + n / 8) r.push_back(n);
  if (r.back() != max_raw) r.push_back(max_raw);
  return r;
}

}  // namespace

CompressedSlotPlan plan_compressed_slots(index_t steps, std::size_t budget, std::size_t raw_slot_bytes,
                                         std::size_t encoded_slot_bytes, const CodecCosts& costs,
                                         const std::string& codec) {
  if (encoded_slot_bytes == 0 || budget < encoded_slot_bytes) {
    throw std::logic_error("plan_compressed_slots: a budget below one encoded slot");
  }
  const index_t max_raw = static_cast<index_t>(budget / raw_slot_bytes);
  index_t best_raw = 0;
  double best = 0;
  for (index_t raw : raw_candidates(max_raw)) {
    const index_t encoded = static_cast<index_t>((budget - std::size_t(raw) * raw_slot_bytes) / encoded_slot_bytes);
    if (raw + encoded == 0) continue;
    const double t = MultilevelSchedule(steps, split(raw, encoded, costs, codec)).planned_time();
    if (raw == 0 || t < best) {  // ties keep fewer raw slots: the first candidate that reached the time
      best = t;
      best_raw = raw;
    }
  }
  CompressedSlotPlan p;
  p.raw_slots = best_raw;
  p.encoded_slots = static_cast<index_t>((budget - std::size_t(best_raw) * raw_slot_bytes) / encoded_slot_bytes);
  const std::vector<Tier> tiers = split(p.raw_slots, p.encoded_slots, costs, codec);
  MultilevelSchedule counting(steps, tiers);
  p.predicted_forward_steps = count_multilevel(counting, tiers).counts.forward_steps;
  p.predicted_time = best;
  p.schedule = std::make_unique<MultilevelSchedule>(steps, tiers);
  char line[320];
  std::snprintf(line, sizeof line,
                "%lld raw and %lld %s slots in device memory (%s): the split of the budget with the least predicted "
                "time loop, %.0f forward steps' worth, counting a %s store as %.2f and a restore as %.2f forward steps",
                static_cast<long long>(p.raw_slots), static_cast<long long>(p.encoded_slots), codec.c_str(),
                format_bytes(double(budget)).c_str(), best, codec.c_str(), costs.store, costs.restore);
  p.choice = line;
  return p;
}

}  // namespace revwave
