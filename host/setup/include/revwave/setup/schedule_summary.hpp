// `revwave schedule`: the checkpoint schedule a run would execute, counted and (on request)
// listed, as one JSON object. Shared by the command line and the Python package.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/core/choices.hpp"

namespace revwave {

struct ScheduleRequest {
  std::int64_t steps = 1000;
  std::int64_t snaps = 10;
  Strategy strategy = Strategy::revolve;  // revolve, multilevel or online (full has no schedule)
  bool actions = false;
  std::vector<std::string>
      tiers;  // multilevel: NAME:SLOTS:STORE_COST:RESTORE_COST (parse_tier_spec: NAME memory, pinned or disk)
  std::optional<double> slot_bytes;   // multilevel: bytes per checkpoint, for bytes moved (default 1 MiB)
  std::optional<std::int64_t> sweep;  // online: sweep N = 1..sweep, report the worst ratio
};

// All broken rules at once, one line (InputError).
void validate(const ScheduleRequest& o);

// The summary `revwave schedule --json` prints (validated first): counts, repetition number, the
// online ratio or the multilevel tiers, and with `actions` the action stream as strings.
nlohmann::json schedule_summary(const ScheduleRequest& o);

}  // namespace revwave
