// The three streams of a run and the clock of the compute stream's waits on pinned-host copies.
//   compute:  stencil and sparse kernels, in step order;
//   copy:     device-to-device checkpoint copies (overlap the next kernel, ordered by events);
//   transfer: PCIe copies to and from pinned host memory (spills and prefetches).
#pragma once
#include <vector>

#include "revwave/cuda/runtime/stream_event.hpp"

namespace revwave {

struct CudaStreams {
  Stream compute, copy, transfer;
  Event compute_mark;  // scratch event: "compute work enqueued so far"

  // Makes `other` wait for the compute work enqueued so far.
  void after_compute(const Stream& other) {
    compute_mark.record(compute);
    other.wait(compute_mark);
  }
};

// Measures, with event pairs on the compute stream, how long it stalls waiting for
// transfers to or from pinned host memory, plus how long the host thread waited for the worker
// that ZFP-encodes pinned slots. Read once at the end of a run.
class SpillClock {
 public:
  // compute waits for `ready`; the wait is timed.
  void timed_wait(const Stream& compute, cudaEvent_t ready) {
    Pair p{Event(true), Event(true)};
    p.before.record(compute);
    compute.wait(ready);
    p.after.record(compute);
    pairs_.push_back(std::move(p));
  }
  // The host thread itself waited (for the host worker of ZFP-encoded pinned slots): counted too.
  void add_host_wait(double seconds) { host_seconds_ += seconds; }
  // Sum of the stalls so far, seconds (synchronises on the recorded events).
  double seconds() {
    for (auto& p : pairs_) {
      p.after.synchronize();
      total_ms_ += static_cast<double>(p.after.elapsed_ms_since(p.before));
    }
    pairs_.clear();
    return total_ms_ * 1e-3 + host_seconds_;
  }

 private:
  struct Pair {
    Event before, after;
  };
  std::vector<Pair> pairs_;
  double total_ms_ = 0;
  double host_seconds_ = 0;
};

}  // namespace revwave
