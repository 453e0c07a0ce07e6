// A checkpoint tier as --tier names it, parsed once where the text enters the library: where its
// slots live, how many there are, and what storing and restoring one costs when the user gives it.
// Nothing past the parse compares tier names.
#pragma once
#include <cstdint>
#include <string>

#include "revwave/core/backend_capabilities.hpp"

namespace revwave {

// Where a tier's slots live. memory: the backend's own memory (host memory on the CPU, device
// memory on a GPU, as StoreKind::memory); pinned: page-locked host memory, which only the CUDA
// backend has; disk: files in --checkpoint-dir.
enum class TierKind { memory, pinned, disk };
const char* to_string(TierKind k);

struct TierSpec {
  TierKind kind = TierKind::memory;
  std::int64_t slots = 0;
  bool costs_given = false;  // STORE_COST:RESTORE_COST were given (else they are measured at start-up)
  double store_cost = 0.0;   // in forward steps
  double restore_cost = 0.0;
};

// Parses NAME:SLOTS[:STORE_COST:RESTORE_COST] for a run on a backend that can do `can` (memory or
// disk; pinned too where it has a pinned tier). An InputError names the spec and the rule it broke: the field
// count, a name unknown on that backend (pinned on the CPU), slots that are not an integer >= 0,
// a cost that is not a finite number >= 0.
TierSpec parse_tier_spec(const std::string& spec, const BackendCapabilities& can);

}  // namespace revwave
