// Move-only owners of a non-blocking CUDA stream and of a CUDA event.
#pragma once
#include <utility>

#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

class Event;

class Stream {
 public:
  Stream() { REVWAVE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      release();
      stream_ = std::exchange(o.stream_, nullptr);
    }
    return *this;
  }
  ~Stream() { release(); }

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }  // NOLINT: a view, like RMM's
  void synchronize() const { REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  // Work enqueued after this waits for the event's last record.
  void wait(cudaEvent_t event) const { REVWAVE_CUDA_CHECK(cudaStreamWaitEvent(stream_, event, 0)); }

 private:
  void release() noexcept {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  // Ordering-only events by default: cheaper to record and wait on than timing events.
  explicit Event(bool timing = false) {
    REVWAVE_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      release();
      event_ = std::exchange(o.event_, nullptr);
    }
    return *this;
  }
  ~Event() { release(); }

  cudaEvent_t get() const noexcept { return event_; }
  operator cudaEvent_t() const noexcept { return event_; }  // NOLINT
  void record(cudaStream_t stream) const { REVWAVE_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void synchronize() const { REVWAVE_CUDA_CHECK(cudaEventSynchronize(event_)); }
  // Milliseconds from `start` to this event; both must be timing events that have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0;
    REVWAVE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  void release() noexcept {
    if (event_ != nullptr) cudaEventDestroy(event_);
    event_ = nullptr;
  }
  cudaEvent_t event_ = nullptr;
};

}  // namespace revwave
