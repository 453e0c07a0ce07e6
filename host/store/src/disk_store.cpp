// Disk checkpoint slots driven by the caller: a store writes the state's fields, a restore reads
// into free fields of the pool.
#include "revwave/store/disk_store.hpp"

#include <stdexcept>
#include <string>

namespace revwave {

DiskStore::DiskStore(std::int64_t slots, HostFieldPool& pool, const std::string& dir)
    : pool_(pool), file_(slots, pool.field_bytes(), dir) {}

void DiskStore::check(std::int64_t slot, const HostState& state) const {
  file_.offset_of(slot);
  const std::size_t fb = file_.field_bytes();
  if (state.u.bytes() != fb || state.u_prev.bytes() != fb) {
    throw std::invalid_argument("DiskStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " + std::to_string(fb) +
                                " each");
  }
}

void DiskStore::store(std::int64_t slot, const HostState& state) {
  check(slot, state);
  write(slot, state.u.data(), state.u_prev.data());
}

void DiskStore::restore(std::int64_t slot, HostState& state, bool /*last_use*/) {
  check(slot, state);
  state = HostState{};  // its fields may go back to the pool before two are taken
  HostState fresh{pool_.acquire(), pool_.acquire()};
  read(slot, fresh.u.data(), fresh.u_prev.data());
  state = std::move(fresh);
}

}  // namespace revwave
