// The stored history of strategy `full`: u[1..N] in device memory when it fits, else in
// pinned host memory, streamed back through a ring of four device fields with the next
// field prefetched while the current reverse step runs.
#pragma once
#include <array>
#include <vector>

#include "cuda_streams.hpp"
#include "device_buffer.hpp"
#include "revwave/core/config.hpp"
#include "write_fences.hpp"

namespace revwave {

class FieldHistory {
 public:
  struct Fields {
    const void* next;  // u[n+1]
    const void* cur;   // u[n]
    const void* prev;  // u[n-1]
  };

  FieldHistory(index_t steps, std::size_t field_bytes, bool on_device);
  bool on_device() const { return on_device_; }
  std::size_t bytes() const;
  std::uint64_t copy_bytes() const { return copy_bytes_; }  // copied into and out of the history so far

  // Keeps the field at `u` (the live u[n]) as u[n]; arms a write fence on it.
  void record(index_t n, const void* u, CudaStreams& s, WriteFences& fences);
  // Makes u[n+1], u[n], u[n-1] readable on the compute stream and returns them; with pinned
  // storage it also starts fetching u[n-2]. Call with n = N-1, N-2, ..., 0 in turn.
  Fields acquire(index_t n, CudaStreams& s, SpillClock& clock);
  // After the compute work that reads the fields of step n has been enqueued.
  void release(index_t n, CudaStreams& s);

 private:
  const void* device_field(index_t k);   // device tier: u[k], zero for k <= 0
  void fetch(index_t k, CudaStreams& s);  // pinned tier: starts u[k] into the ring
  const void* ring_field(index_t k, CudaStreams& s, SpillClock& clock);

  index_t steps_;
  std::size_t field_bytes_;
  bool on_device_;
  DeviceBuffer zero_;
  DeviceBuffer device_;                 // u[1..N], device tier
  std::vector<PinnedBuffer> pinned_;    // u[1..N], pinned tier
  std::array<DeviceBuffer, 4> ring_;
  std::array<index_t, 4> ring_tag_{{-1, -1, -1, -1}};
  std::array<Event, 4> ring_ready_, ring_free_;
  Event recorded_;
  std::uint64_t copy_bytes_ = 0;
};

}  // namespace revwave
