// Checkpoint slots in host memory, all allocated up front; the size of a history held in memory.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

class MemoryStore final : public CheckpointStore {
 public:
  // slots >= 1 and field_bytes >= 1, else InputError. Allocates slots * 2 * field_bytes
  // bytes now; failure is an OutOfMemoryError that says how many bytes were needed.
  MemoryStore(std::int64_t slots, std::size_t field_bytes);

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return 2 * field_bytes_; }
  std::size_t field_bytes() const { return field_bytes_; }

  // Slot ids outside [0, slots) and states whose buffers are not field_bytes long
  // are programming errors: std::out_of_range / std::invalid_argument.
  void store(std::int64_t slot, const HostState& state) override;
  // With last_use the slot's buffers are swapped with the state's: O(1), and the slot
  // then holds stale data until the next store.
  void restore(std::int64_t slot, HostState& state, bool last_use) override;

 private:
  HostState& checked(std::int64_t slot, const HostState& state);

  std::size_t field_bytes_;
  std::vector<HostState> slots_;
};

// Host memory the stored history of strategy `full` takes on the CPU backend: u[1..N] and the
// zero u[0] that the first reverse steps read, N + 1 wavefields. InputError if it overflows.
inline std::size_t full_history_bytes(std::int64_t steps, std::size_t field_bytes) {
  return checked_bytes({static_cast<std::size_t>(steps < 0 ? 0 : steps) + 1, field_bytes},
                       "the wavefield history of " + std::to_string(steps) + " steps");
}

}  // namespace revwave
