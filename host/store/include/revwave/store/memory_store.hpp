// Checkpoint slots in host memory: handles to the states' fields, never copies.
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

class MemoryStore final : public CheckpointStore {
 public:
  // slots >= 1, else InputError. The slots' fields are the pool's: this holds up to 2 x slots
  // of them (held_fields), allocated when the pool is sized for it.
  MemoryStore(std::int64_t slots, const HostFieldPool& pool);

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return 2 * field_bytes_; }
  std::int64_t held_fields() const override { return 2 * slots(); }
  std::size_t field_bytes() const { return field_bytes_; }

  // Slot ids outside [0, slots), states without both fields, fields of another size, and a
  // restore of an empty slot are programming errors: std::out_of_range / std::invalid_argument /
  // std::logic_error.
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;
  std::uint64_t copy_bytes() const override { return 0; }

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
