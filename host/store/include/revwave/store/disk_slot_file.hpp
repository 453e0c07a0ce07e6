// Checkpoint slots in one pre-allocated scratch file on disk (buffered pread/pwrite) on raw field
// memory: the medium of DiskStore and AsyncDiskStore here, and of the CUDA backend's disk tier,
// which writes from and reads into pinned staging.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace revwave {

class DiskSlotFile {
 public:
  // Checks that dir exists, is a directory and is writable (InputError naming dir and
  // the rule), then creates one uniquely named scratch file in it holding all slots
  // (slot i at offset i * slot_bytes(), u then u_prev) and reserves its full size with
  // posix_fallocate, so a disk that is too small fails here (IoError naming dir and
  // the system's reason) rather than halfway through a run.
  // The file is unlinked as soon as it is open: it takes disk space only while this
  // object lives and disappears even if the process is killed.
  DiskSlotFile(std::int64_t slots, std::size_t field_bytes, const std::string& dir);
  ~DiskSlotFile();  // closes (and so frees) the file; never throws
  DiskSlotFile(const DiskSlotFile&) = delete;
  DiskSlotFile& operator=(const DiskSlotFile&) = delete;

  std::int64_t slots() const { return slots_; }
  std::size_t field_bytes() const { return field_bytes_; }
  // Bytes one slot holds: both fields of a state, 2 * field_bytes.
  std::size_t slot_bytes() const { return 2 * field_bytes_; }
  const std::string& dir() const { return dir_; }
  std::uint64_t copy_bytes() const { return copy_bytes_; }

  // Each moves 2 * field_bytes and counts it; thread-safe for different slots (what a worker
  // thread calls). Slot ids outside [0, slots) are std::out_of_range; I/O failures (ENOSPC, EIO,
  // ...) an IoError naming the directory and the errno text.
  void write(std::int64_t slot, const std::byte* u, const std::byte* u_prev);
  void read(std::int64_t slot, std::byte* u, std::byte* u_prev) const;
  // The slot's id checked: its offset in the file.
  std::int64_t offset_of(std::int64_t slot) const;

 private:
  void write_at(const std::byte* src, std::size_t bytes, std::int64_t offset);
  void read_at(std::byte* dst, std::size_t bytes, std::int64_t offset) const;

  std::int64_t slots_;
  std::size_t field_bytes_;
  std::string dir_;
  int fd_ = -1;
  mutable std::atomic<std::uint64_t> copy_bytes_{0};
};

}  // namespace revwave
