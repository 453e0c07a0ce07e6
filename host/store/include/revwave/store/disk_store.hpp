// Checkpoint slots in one pre-allocated scratch file on disk (buffered pread/pwrite).
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "revwave/store/checkpoint_store.hpp"

namespace revwave {

class DiskStore final : public CheckpointStore {
 public:
  // Checks that dir exists, is a directory and is writable (InputError naming dir and
  // the rule), then creates one uniquely named scratch file in it holding all slots
  // (slot i at offset i * slot_bytes(), u then u_prev) and reserves its full size with
  // posix_fallocate, so a disk that is too small fails here (IoError naming dir and
  // the system's reason) rather than halfway through a run.
  // The file is unlinked as soon as it is open: it takes disk space only while this
  // object lives and disappears even if the process is killed.
  // Restores read into free fields of `pool` (whose field size is the store's).
  DiskStore(std::int64_t slots, HostFieldPool& pool, const std::string& dir);
  ~DiskStore() override;  // closes (and so frees) the file; never throws
  DiskStore(const DiskStore&) = delete;
  DiskStore& operator=(const DiskStore&) = delete;

  std::int64_t slots() const override { return slots_; }
  std::int64_t held_fields() const override { return 0; }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return 2 * field_bytes_; }
  std::size_t field_bytes() const { return field_bytes_; }
  const std::string& dir() const { return dir_; }

  // Slot ids outside [0, slots) and states whose fields are not field_bytes long are
  // std::out_of_range / std::invalid_argument. I/O failures (ENOSPC, EIO, ...) are an
  // IoError naming the directory and the errno text. A restore lets go of the state's fields
  // and reads into two free fields of the pool; last_use makes no difference here.
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;
  std::uint64_t copy_bytes() const override { return copy_bytes_; }

  // The copies themselves, on raw field memory (what a worker thread calls; thread-safe for
  // different slots). Each moves 2 * field_bytes and counts it.
  void write(std::int64_t slot, const std::byte* u, const std::byte* u_prev);
  void read(std::int64_t slot, std::byte* u, std::byte* u_prev) const;

 private:
  void check(std::int64_t slot, const HostState& state) const;
  std::int64_t offset_of(std::int64_t slot) const;
  void write_at(const std::byte* src, std::size_t bytes, std::int64_t offset);
  void read_at(std::byte* dst, std::size_t bytes, std::int64_t offset) const;

  std::int64_t slots_;
  std::size_t field_bytes_;
  std::string dir_;
  HostFieldPool& pool_;
  int fd_ = -1;
  mutable std::atomic<std::uint64_t> copy_bytes_{0};
};

}  // namespace revwave
