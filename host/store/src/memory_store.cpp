// Host-memory checkpoint slots: a store shares the state's fields with the slot, a restore shares
// the slot's fields with the state (a last use hands them over).
#include "revwave/store/memory_store.hpp"

#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {

MemoryStore::MemoryStore(std::int64_t slots, const HostFieldPool& pool) : field_bytes_(pool.field_bytes()) {
  if (slots < 1) throw InputError("memory checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  slots_.resize(static_cast<std::size_t>(slots));
}

HostState& MemoryStore::checked(std::int64_t slot, const HostState& state) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("MemoryStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) + ")");
  }
  if (state.u.bytes() != field_bytes_ || state.u_prev.bytes() != field_bytes_) {
    throw std::invalid_argument("MemoryStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " +
                                std::to_string(field_bytes_) + " each");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void MemoryStore::store(std::int64_t slot, const HostState& state) {
  HostState& s = checked(slot, state);
  s.u = state.u;
  s.u_prev = state.u_prev;
}

void MemoryStore::restore(std::int64_t slot, HostState& state, bool last_use) {
  HostState& s = checked(slot, state);
  if (!s.u) throw std::logic_error("MemoryStore: restore of slot " + std::to_string(slot) + ", which holds nothing");
  if (last_use) {
    state.u = std::move(s.u);
    state.u_prev = std::move(s.u_prev);
    s = HostState{};
  } else {
    state.u = s.u;
    state.u_prev = s.u_prev;
  }
}

}  // namespace revwave
