// The checkpoint store interface: a pool of slots allocated once, each holding one forward state.
// Stores know nothing about schedules; the gradient driver connects the two.
#pragma once
#include <cstdint>

#include "revwave/core/host_buffer.hpp"

namespace revwave {

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  virtual std::int64_t slots() const = 0;
  virtual std::size_t slot_bytes() const = 0;
  // Copies `state` into `slot`.
  virtual void store(std::int64_t slot, const HostState& state) = 0;
  // Makes `state` equal to what `slot` holds. With last_use the slot's content
  // may be moved (its buffers swapped with the state's) instead of copied.
  virtual void restore(std::int64_t slot, HostState& state, bool last_use) = 0;
};

}  // namespace revwave
