// Host-memory checkpoint slots: a parallel copy in, a parallel copy or a buffer swap out.
#include "revwave/store/memory_store.hpp"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/store/parallel_copy.hpp"

namespace revwave {

MemoryStore::MemoryStore(std::int64_t slots, std::size_t field_bytes) : field_bytes_(field_bytes) {
  if (slots < 1) throw InputError("memory checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  if (field_bytes < 1) throw InputError("memory checkpoint store: field size must be >= 1 byte");
  const auto n = static_cast<std::size_t>(slots);
  const std::string need = std::to_string(slots) + " slots x 2 fields x " + std::to_string(field_bytes) + " bytes";
  if (field_bytes > std::numeric_limits<std::size_t>::max() / 2 / n) {
    throw OutOfMemoryError("memory checkpoint store: " + need + " overflows the address space");
  }
  const std::string total = std::to_string(n * 2 * field_bytes) + " bytes (" + need + ")";
  try {
    slots_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) slots_.push_back(HostState{HostBuffer(field_bytes), HostBuffer(field_bytes)});
  } catch (const OutOfMemoryError&) {
    throw OutOfMemoryError("memory checkpoint store: could not allocate " + total + " of host memory");
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("memory checkpoint store: could not allocate " + total + " of host memory");
  }
}

HostState& MemoryStore::checked(std::int64_t slot, const HostState& state) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("MemoryStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) + ")");
  }
  if (state.u.bytes() != field_bytes_ || state.u_prev.bytes() != field_bytes_ || state.u.data() == nullptr ||
      state.u_prev.data() == nullptr) {
    throw std::invalid_argument("MemoryStore: state buffers of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " +
                                std::to_string(field_bytes_) + " each");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void MemoryStore::store(std::int64_t slot, const HostState& state) {
  HostState& s = checked(slot, state);
  copy_to_slot(s.u.data(), state.u.data(), field_bytes_);
  copy_to_slot(s.u_prev.data(), state.u_prev.data(), field_bytes_);
}

void MemoryStore::restore(std::int64_t slot, HostState& state, bool last_use) {
  HostState& s = checked(slot, state);
  if (last_use) {
    swap(s.u, state.u);
    swap(s.u_prev, state.u_prev);
  } else {
    copy_to_state(state.u.data(), s.u.data(), field_bytes_);
    copy_to_state(state.u_prev.data(), s.u_prev.data(), field_bytes_);
  }
}

}  // namespace revwave
