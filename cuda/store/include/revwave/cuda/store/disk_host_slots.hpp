// Checkpoint slots in files (--store disk, multilevel disk tiers on the CUDA backend): the medium a
// host worker writes spills to and reads restores from, out of and into pinned staging. The
// CPU backend's scratch file (DiskSlotFile: reserved up front, unlinked at once, its errors
// naming the directory), raw: the bytes restored are the bytes stored.
#pragma once
#include <cstdint>
#include <string>

#include "revwave/cuda/store/host_staging_worker.hpp"
#include "revwave/store/disk_slot_file.hpp"

namespace revwave {

class DiskHostSlots final : public HostSlotMedium {
 public:
  // DiskSlotFile's checks and errors (InputError for slots and the directory, IoError for a disk
  // that cannot hold them).
  DiskHostSlots(std::int64_t slots, std::size_t field_bytes, const std::string& dir) : file_(slots, field_bytes, dir) {}

  std::int64_t slots() const override { return file_.slots(); }
  std::size_t field_bytes() const override { return file_.field_bytes(); }
  std::size_t slot_bytes() const override { return file_.slot_bytes(); }
  CompressionStats put(std::int64_t slot, const std::byte* u, const std::byte* u_prev) override {
    file_.write(slot, u, u_prev);
    return {};
  }
  CompressionStats get(std::int64_t slot, std::byte* u, std::byte* u_prev) override {
    file_.read(slot, u, u_prev);
    return {};
  }
  const std::string& dir() const { return file_.dir(); }

 private:
  DiskSlotFile file_;
};

}  // namespace revwave
