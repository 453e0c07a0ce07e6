// Checkpoint slots in one pre-allocated scratch file on disk (DiskSlotFile), read and written
// synchronously by the caller.
#pragma once
#include <cstdint>
#include <string>

#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/disk_slot_file.hpp"

namespace revwave {

class DiskStore final : public CheckpointStore {
 public:
  // DiskSlotFile's checks and errors for slots and dir, at the pool's field size. Restores read
  // into free fields of `pool`.
  DiskStore(std::int64_t slots, HostFieldPool& pool, const std::string& dir);

  std::int64_t slots() const override { return file_.slots(); }
  std::int64_t held_fields() const override { return 0; }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return file_.slot_bytes(); }
  std::size_t field_bytes() const { return file_.field_bytes(); }
  const std::string& dir() const { return file_.dir(); }

  // Slot ids outside [0, slots) and states whose fields are not field_bytes long are
  // std::out_of_range / std::invalid_argument. I/O failures (ENOSPC, EIO, ...) are an
  // IoError naming the directory and the errno text. A restore lets go of the state's fields
  // and reads into two free fields of the pool; last_use makes no difference here.
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;
  std::uint64_t copy_bytes() const override { return file_.copy_bytes(); }

  // The copies themselves, on raw field memory (what a worker thread calls; thread-safe for
  // different slots). Each moves 2 * field_bytes and counts it.
  void write(std::int64_t slot, const std::byte* u, const std::byte* u_prev) { file_.write(slot, u, u_prev); }
  void read(std::int64_t slot, std::byte* u, std::byte* u_prev) const { file_.read(slot, u, u_prev); }

 private:
  void check(std::int64_t slot, const HostState& state) const;

  HostFieldPool& pool_;
  DiskSlotFile file_;
};

}  // namespace revwave
