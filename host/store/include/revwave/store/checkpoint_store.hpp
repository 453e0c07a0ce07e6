// The checkpoint store interface: slots, each holding one forward state (u[n], u[n-1]), on some
// tier. Stores know nothing about schedules; the gradient driver connects the two.
//
// One interface for every backend: BasicCheckpointStore<State> is written over the backend's state
// (HostState here; the CUDA backend's DeviceState in cuda/store, which the host never includes), so
// that tiers compose the same way on both (tiered_store.hpp).
//
// The state's fields come from a FieldPool (revwave/core/field_pool.hpp). A tier in memory keeps
// handles: storing shares the state's two fields with the slot (no copy; the next step writes
// elsewhere), restoring shares the slot's fields with the state. A tier on another medium
// (disk, pinned host memory, compressed memory) copies: out of the state's fields, which it keeps
// held until the copy has finished so that no step overwrites them meanwhile, and back into free
// fields of the pool. What a tier holds at once counts against the pool: held_fields().
#pragma once
#include <cstdint>

#include "revwave/core/field_pool.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

template <class State>
class BasicCheckpointStore {
 public:
  using state_type = State;
  virtual ~BasicCheckpointStore() = default;
  virtual std::int64_t slots() const = 0;
  virtual std::size_t slot_bytes() const = 0;
  // The most fields this store holds at once (slots, copies in flight, read-ahead): the pool the
  // states come from needs this many beyond the state's own two.
  virtual std::int64_t held_fields() const = 0;
  // Keeps `state` in `slot` (replacing what the slot held).
  virtual void store(std::int64_t slot, const State& state) = 0;
  // Makes `state` what `slot` holds. A memory tier shares its fields with the state (read-only
  // while shared); with last_use it lets go of them, so the slot is empty until stored again.
  virtual void restore(std::int64_t slot, State& state, bool last_use) = 0;
  // Bytes copied to and from another medium so far: 0 for a tier in memory.
  virtual std::uint64_t copy_bytes() const = 0;
  // What a compressing tier encoded and decoded so far (nothing for the others).
  virtual CompressionStats compression() const { return {}; }
  // Restores served by a read ahead (0 for a tier that reads nothing ahead).
  virtual std::int64_t prefetch_hits() const { return 0; }
  // A chance to start work for the restores to come (a read ahead) between this store's own calls:
  // a composition calls it after each store and restore of its other tiers, so that a slow tier
  // reads ahead as soon as its next slot is final, whichever tier the schedule is busy with.
  virtual void look_ahead() {}
};

using CheckpointStore = BasicCheckpointStore<HostState>;

}  // namespace revwave
