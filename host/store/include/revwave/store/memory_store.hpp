// Checkpoint slots in the backend's own memory: handles to the states' fields, never copies. The
// same store serves host fields (MemoryStore) and device fields (the CUDA backend's device slots).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

template <class State>
class BasicMemoryStore final : public BasicCheckpointStore<State> {
 public:
  // slots >= 1, else InputError. The slots' fields are the pool's: this holds up to 2 x slots
  // of them (held_fields), allocated when the pool is sized for it.
  template <class Buffer>
  BasicMemoryStore(std::int64_t slots, const FieldPool<Buffer>& pool) : field_bytes_(pool.field_bytes()) {
    if (slots < 1) throw InputError("memory checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
    slots_.resize(static_cast<std::size_t>(slots));
  }

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return 2 * field_bytes_; }
  std::int64_t held_fields() const override { return 2 * slots(); }
  std::size_t field_bytes() const { return field_bytes_; }

  // Slot ids outside [0, slots), states without both fields, fields of another size, and a
  // restore of an empty slot are programming errors: std::out_of_range / std::invalid_argument /
  // std::logic_error.
  void store(std::int64_t slot, const State& state) override {
    State& s = checked(slot, state);
    s.u = state.u;
    s.u_prev = state.u_prev;
  }
  void restore(std::int64_t slot, State& state, bool last_use) override {
    State& s = checked(slot, state);
    if (!s.u) throw std::logic_error("MemoryStore: restore of slot " + std::to_string(slot) + ", which holds nothing");
    if (last_use) {  // the slot lets go: a step may then overwrite the fields in place
      state.u = std::move(s.u);
      state.u_prev = std::move(s.u_prev);
      s = State{};
    } else {
      state.u = s.u;
      state.u_prev = s.u_prev;
    }
  }
  std::uint64_t copy_bytes() const override { return 0; }

 private:
  State& checked(std::int64_t slot, const State& state) {
    if (slot < 0 || slot >= slots()) {
      throw std::out_of_range("MemoryStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) +
                              ")");
    }
    if (state.u.bytes() != field_bytes_ || state.u_prev.bytes() != field_bytes_) {
      throw std::invalid_argument("MemoryStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
                                  std::to_string(state.u_prev.bytes()) + " bytes, expected " +
                                  std::to_string(field_bytes_) + " each");
    }
    return slots_[static_cast<std::size_t>(slot)];
  }

  std::size_t field_bytes_;
  std::vector<State> slots_;
};

using MemoryStore = BasicMemoryStore<HostState>;
extern template class BasicMemoryStore<HostState>;

// Host memory the stored history of strategy `full` takes on the CPU backend: u[1..N] and the
// zero u[0] that the first reverse steps read, N + 1 wavefields. InputError if it overflows.
inline std::size_t full_history_bytes(std::int64_t steps, std::size_t field_bytes) {
  return checked_bytes({static_cast<std::size_t>(steps < 0 ? 0 : steps) + 1, field_bytes},
                       "the wavefield history of " + std::to_string(steps) + " steps");
}

}  // namespace revwave
