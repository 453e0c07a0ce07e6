// Write fences: "the copy stream is still reading this buffer". A copy out of a live wavefield
// arms one; the compute stream waits on it only right before it next writes that buffer,
// so the copy overlaps the kernels in between.
#pragma once
#include <vector>

#include "revwave/cuda/runtime/cuda_streams.hpp"

namespace revwave {

class WriteFences {
 public:
  // Records, on `reader`, the end of the reads of `buffer` enqueued so far. A `spill` fence
  // may wait on pinned-host traffic: its wait is timed when a clock is given.
  void arm(const void* buffer, cudaStream_t reader, bool spill = false) {
    Event ev = take();
    ev.record(reader);
    armed_.push_back({buffer, std::move(ev), spill});
  }
  // Makes `writer` wait for every armed reader of `buffer`.
  void before_write(const void* buffer, const Stream& writer, SpillClock* clock = nullptr) {
    for (std::size_t i = 0; i < armed_.size();) {
      if (armed_[i].buffer == buffer) {
        if (clock != nullptr && armed_[i].spill)
          clock->timed_wait(writer, armed_[i].done);
        else
          writer.wait(armed_[i].done);
        release(i);
      } else {
        ++i;
      }
    }
  }
  // Makes `writer` wait for all of them (before buffers change hands).
  void before_any_write(const Stream& writer) {
    while (!armed_.empty()) {
      writer.wait(armed_.back().done);
      release(armed_.size() - 1);
    }
  }

 private:
  struct Fence {
    const void* buffer;
    Event done;
    bool spill;
  };
  Event take() {
    if (free_.empty()) return Event();
    Event ev = std::move(free_.back());
    free_.pop_back();
    return ev;
  }
  void release(std::size_t i) {
    free_.push_back(std::move(armed_[i].done));
    armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  std::vector<Fence> armed_;
  std::vector<Event> free_;
};

}  // namespace revwave
