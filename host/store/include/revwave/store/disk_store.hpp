// Checkpoint slots in one pre-allocated scratch file on disk (buffered pread/pwrite).
#pragma once
#include <cstdint>
#include <string>

#include "revwave/core/host_buffer.hpp"
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
  DiskStore(std::int64_t slots, std::size_t field_bytes, const std::string& dir);
  ~DiskStore() override;  // closes (and so frees) the file; never throws
  DiskStore(const DiskStore&) = delete;
  DiskStore& operator=(const DiskStore&) = delete;

  std::int64_t slots() const override { return slots_; }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const override { return 2 * field_bytes_; }
  std::size_t field_bytes() const { return field_bytes_; }
  const std::string& dir() const { return dir_; }

  // Slot ids outside [0, slots) and states whose buffers are not field_bytes long are
  // std::out_of_range / std::invalid_argument. I/O failures (ENOSPC, EIO, ...) are an
  // IoError naming the directory and the errno text. last_use makes no difference here:
  // the data has to be read either way.
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;

 private:
  std::int64_t offset_of(std::int64_t slot, const HostState& state) const;
  void write_at(const std::byte* src, std::size_t bytes, std::int64_t offset);
  void read_at(std::byte* dst, std::size_t bytes, std::int64_t offset) const;

  std::int64_t slots_;
  std::size_t field_bytes_;
  std::string dir_;
  int fd_ = -1;
};

}  // namespace revwave
