// The stored history of strategy `full`: per step, the first `step_bytes` of a field (u[n], and the
// layer's values where the physics' reverse reads them: StateShape::history_layer_values). In
// device memory, where a step is a whole field, it is handles to the fields the forward steps
// write (u[0..N] from the propagator's pool): no copy at all; where a step is less (a C-PML's
// auxiliary values left out), each u[n] is copied on the compute stream into a buffer of the
// step's size and the field goes back to the pool. In pinned host memory each u[n] is copied out
// over PCIe straight from the state's field, which the history holds (a fence on it, too) until
// two later copies have been enqueued, so that the steps meanwhile write other fields; the reverse
// sweep streams u[n+1], u[n], u[n-1] back through a ring of four device buffers, the next one
// fetched while the current reverse step runs.
#pragma once
#include <array>
#include <deque>
#include <functional>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/write_fences.hpp"

namespace revwave {

class FieldHistory {
 public:
  struct Fields {
    const void* cur;   // u[n]
    const void* prev;  // u[n-1]
    const void* next;  // u[n+1]
  };

  // Pinned, the N host buffers are allocated now, and the device's copies where a step is less
  // than a field, `between` hearing each (a run may be cancelled there).
  FieldHistory(index_t steps, std::size_t field_bytes, std::size_t step_bytes, bool on_device,
               const std::function<void()>& between = {});
  bool on_device() const { return on_device_; }
  std::size_t bytes() const;  // of u[1..N]
  // Pool fields held at once beyond the state's two: on the device, as handles, u[0..N] (the
  // state's two among them), as copies none; pinned, the two whose copies may still run.
  std::int64_t held_fields() const {
    if (on_device_) return copies() ? 0 : steps_ - 1;
    return static_cast<std::int64_t>(copy_holds);
  }
  std::uint64_t copy_bytes() const { return copy_bytes_; }  // copied to and from pinned memory so far

  // Keeps the state's u (position n, n = 0..N) as u[n].
  void record(index_t n, const DeviceField& u, CudaStreams& s, WriteFences& fences);
  // Makes u[n+1], u[n], u[n-1] readable on the compute stream and returns them; with pinned
  // storage it also starts fetching u[n-2]. Call with n = N-1, N-2, ..., 0 in turn.
  Fields acquire(index_t n, CudaStreams& s, SpillClock& clock);
  // After the compute work that reads the fields of step n has been enqueued.
  void release(index_t n, CudaStreams& s);

 private:
  static constexpr std::size_t copy_holds = 2;
  bool copies() const { return step_bytes_ < field_bytes_; }
  void fetch(index_t k, CudaStreams& s);  // pinned tier: starts u[k] into the ring
  const void* ring_field(index_t k, CudaStreams& s, SpillClock& clock);

  index_t steps_;
  std::size_t field_bytes_;
  std::size_t step_bytes_;
  bool on_device_;
  std::vector<DeviceField> device_;    // u[0..N], device tier, as handles
  std::vector<DeviceBuffer> copied_;   // u[1..N], device tier, as copies of a step's bytes
  std::vector<PinnedBuffer> pinned_;   // u[1..N], pinned tier
  std::deque<DeviceField> in_flight_;  // pinned tier: fields whose copies out may still run
  DeviceBuffer zero_;                  // pinned tier: u[0] = u[-1] = 0
  std::array<DeviceBuffer, 4> ring_;
  std::array<index_t, 4> ring_tag_{{-1, -1, -1, -1}};
  std::array<Event, 4> ring_ready_, ring_free_;
  Event recorded_;
  std::uint64_t copy_bytes_ = 0;
};

}  // namespace revwave
