// Pinned staging for the engine's small host-to-device copies (a shot's points, profiles, wavelet,
// adjoint source, the tree's block pairs): a ring of page-locked memory, each use fenced by an
// event, so that an upload returns at once and the host waits only when it would overwrite
// staging a copy has not read yet (by then long done).
#pragma once
#include <cstddef>
#include <deque>
#include <vector>

#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/stream_event.hpp"

namespace revwave {

class UploadRing {
 public:
  explicit UploadRing(std::size_t bytes = std::size_t(1) << 20);
  UploadRing(const UploadRing&) = delete;
  UploadRing& operator=(const UploadRing&) = delete;
  ~UploadRing();

  // device[0..bytes) = host[0..bytes), on `stream`, through the ring.
  void upload(void* device, const void* host, std::size_t bytes, cudaStream_t stream);
  // Host waits that overwriting unread staging cost so far (should stay 0 but for growth).
  std::size_t waits() const { return waits_; }

 private:
  struct Use {
    std::size_t begin = 0, end = 0;
    Event done;
  };
  void wait_for(std::size_t begin, std::size_t end);
  PinnedBuffer buffer_;
  std::size_t head_ = 0;
  std::deque<Use> uses_;
  std::vector<Event> spare_;
  std::size_t waits_ = 0;
};

// A device buffer that grows (reallocated, so a rare wait) and otherwise keeps its memory.
class GrowingBuffer {
 public:
  explicit GrowingBuffer(const char* what) : what_(what) {}
  // At least `bytes` (contents lost when it grows).
  void reserve(std::size_t bytes) {
    if (bytes > buffer_.bytes()) buffer_ = DeviceBuffer(bytes + bytes / 4, what_);
  }
  void* data() { return buffer_.data(); }
  template <class T>
  T* as() {
    return buffer_.as<T>();
  }
  std::size_t bytes() const { return buffer_.bytes(); }
  DeviceBuffer& buffer() { return buffer_; }

 private:
  const char* what_;
  DeviceBuffer buffer_;
};

}  // namespace revwave
