// --tier NAME:SLOTS[:STORE_COST:RESTORE_COST], with the sentences the CLI has always given.
#include "revwave/store/tier_spec.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

double parse_cost(const std::string& text, const std::string& spec) {
  std::size_t pos = 0;
  double v = std::nan("");
  try {
    v = std::stod(text, &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos != text.size() || !std::isfinite(v) || v < 0) {
    throw InputError("--tier '" + spec + "': cost '" + text + "' is invalid: a finite number >= 0 (in forward steps)");
  }
  return v;
}

TierKind parse_kind(const std::string& name, const std::string& spec, const BackendCapabilities& can) {
  for (TierKind k : {TierKind::memory, TierKind::pinned, TierKind::disk}) {
    if (name != to_string(k)) continue;
    if (k == TierKind::pinned && !can.pinned_tier) {
      throw InputError("--tier '" + spec + "': tier 'pinned' is pinned host memory, which only the CUDA backend has: " +
                       "use " + can.tier_names() + " on the " + can.name + " backend");
    }
    return k;
  }
  throw InputError(
      "--tier '" + spec + "': tier '" + name + "' is unknown" +
      (*can.name != '\0' ? std::string(" on the ") + can.name + " backend: " : std::string(": ")) +
      (can.device_memory ? "memory (device memory), pinned (pinned host memory) or disk" : can.tier_names()));
}

}  // namespace

const char* to_string(TierKind k) {
  switch (k) {
    case TierKind::memory: return "memory";
    case TierKind::pinned: return "pinned";
    case TierKind::disk: return "disk";
  }
  return "?";
}

TierSpec parse_tier_spec(const std::string& spec, const BackendCapabilities& can) {
  std::vector<std::string> f;
  std::stringstream ss(spec);
  for (std::string item; std::getline(ss, item, ':');) f.push_back(item);
  // getline drops a last empty field: "memory:2:" would read as "memory:2".
  if ((f.size() != 2 && f.size() != 4) || spec.back() == ':') {
    throw InputError("--tier '" + spec + "' is invalid: NAME:SLOTS or NAME:SLOTS:STORE_COST:RESTORE_COST");
  }
  TierSpec t;
  t.kind = parse_kind(f[0], spec, can);
  std::size_t pos = 0;
  long long slots = -1;
  try {
    slots = std::stoll(f[1], &pos);
  } catch (...) {
    pos = 0;
  }
  if (pos != f[1].size() || slots < 0) {
    throw InputError("--tier '" + spec + "': slots '" + f[1] + "' is invalid: an integer >= 0");
  }
  t.slots = slots;
  if (f.size() == 4) {
    t.costs_given = true;
    t.store_cost = parse_cost(f[2], spec);
    t.restore_cost = parse_cost(f[3], spec);
  }
  return t;
}

}  // namespace revwave
