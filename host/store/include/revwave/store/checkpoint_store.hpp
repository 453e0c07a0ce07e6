// The checkpoint store interface: slots, each holding one forward state (u[n], u[n-1]), on some
// tier. Stores know nothing about schedules; the gradient driver connects the two.
//
// The state's fields come from a FieldPool (revwave/core/field_pool.hpp). A tier in memory keeps
// handles: storing shares the state's two fields with the slot (no copy; the next step writes
// elsewhere), restoring shares the slot's fields with the state. A tier on another medium
// (disk; later pinned or compressed memory) copies: out of the state's fields, which it keeps
// held until the copy has finished so that no step overwrites them meanwhile, and back into free
// fields of the pool. What a tier holds at once counts against the pool: held_fields().
#pragma once
#include <cstdint>

#include "revwave/core/field_pool.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  virtual std::int64_t slots() const = 0;
  virtual std::size_t slot_bytes() const = 0;
  // The most fields this store holds at once (slots, copies in flight, read-ahead): the pool the
  // states come from needs this many beyond the state's own two.
  virtual std::int64_t held_fields() const = 0;
  // Keeps `state` in `slot` (replacing what the slot held).
  virtual void store(std::int64_t slot, const HostState& state) = 0;
  // Makes `state` what `slot` holds. A memory tier shares its fields with the state (read-only
  // while shared); with last_use it lets go of them, so the slot is empty until stored again.
  virtual void restore(std::int64_t slot, HostState& state, bool last_use) = 0;
  // Bytes copied to and from another medium so far: 0 for a tier in memory.
  virtual std::uint64_t copy_bytes() const = 0;
  // What a compressing tier encoded and decoded so far (nothing for the others).
  virtual CompressionStats compression() const { return {}; }
};

}  // namespace revwave
