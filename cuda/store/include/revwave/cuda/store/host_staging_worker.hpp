// Checkpoint slots that the host keeps on a medium the device cannot reach (ZFP-encoded host
// memory, files), moved by one host worker thread off the critical path through two pinned
// staging pairs of raw fields: the device copies a spill into the spill pair, the worker puts it
// into the medium; the worker gets a slot into the fetch pair, the device copies it back.
//
// A host function enqueued on the transfer stream hands each job to the worker when the stream
// gets there, so the jobs run in the order the stream reaches them: a get never overtakes the put
// of its slot, a put never starts before the copy into the spill pair is done, and a get into the
// fetch pair never overtakes the copy out of it. The host thread waits for the worker only where
// it must (a ticket): before the next spill overwrites the spill pair, and before a restore copies
// out of the fetch pair. Nothing here is touched by the device but the two staging pairs.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

// Where a host worker keeps checkpoint slots: two raw fields in, two raw fields out. Called on the
// worker thread only.
class HostSlotMedium {
 public:
  virtual ~HostSlotMedium() = default;
  virtual std::int64_t slots() const = 0;
  virtual std::size_t field_bytes() const = 0;
  // What one slot reserves on the medium.
  virtual std::size_t slot_bytes() const = 0;
  // Keeps (u, u_prev) as `slot`'s content; writes `slot`'s content into (u, u_prev). Each returns
  // what it encoded or decoded, for the statistics (nothing for a medium that stores raw bytes).
  virtual CompressionStats put(std::int64_t slot, const std::byte* u, const std::byte* u_prev) = 0;
  virtual CompressionStats get(std::int64_t slot, std::byte* u, std::byte* u_prev) = 0;
};

class HostStagingWorker {
 public:
  // The medium must outlive the worker. Allocates the two pinned staging pairs (OutOfMemoryError).
  explicit HostStagingWorker(HostSlotMedium& medium);
  // Waits for the device (the host functions already enqueued call into this) and joins the worker.
  ~HostStagingWorker();
  HostStagingWorker(const HostStagingWorker&) = delete;
  HostStagingWorker& operator=(const HostStagingWorker&) = delete;

  // Pinned host memory the staging takes: two pairs of raw fields.
  static std::size_t staging_bytes(std::size_t field_bytes) { return 4 * field_bytes; }

  // The raw staging fields the device copies into (spill) and out of (fetch): 0 is u, 1 is u_prev.
  void* spill_field(int i) { return spill_[i].data(); }
  const void* fetch_field(int i) const { return fetch_[i].data(); }

  // Enqueued on `stream`: when the stream gets there, the worker starts putting the spill staging
  // into `slot` (getting `slot` into the fetch staging). Returns the job's ticket.
  std::uint64_t put_after(cudaStream_t stream, std::int64_t slot) { return enqueue(stream, slot, true); }
  std::uint64_t get_after(cudaStream_t stream, std::int64_t slot) { return enqueue(stream, slot, false); }
  bool done(std::uint64_t ticket) const;
  // Blocks until the job is done; returns the seconds waited. A job that failed rethrows here
  // (and every wait after it: nothing after a lost put can be trusted).
  double wait(std::uint64_t ticket);

  // What the medium encoded and decoded, and the worker's seconds.
  CompressionStats stats() const;

 private:
  struct Job {
    HostStagingWorker* self;
    std::int64_t slot;
    bool put;
  };
  static void CUDART_CB submit(void* job);
  std::uint64_t enqueue(cudaStream_t stream, std::int64_t slot, bool put);
  void work();
  void run(const Job& job);

  HostSlotMedium& medium_;
  PinnedBuffer spill_[2], fetch_[2];
  std::uint64_t issued_ = 0;  // tickets handed out (host thread only)

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  std::uint64_t finished_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;
  CompressionStats stats_;
  std::thread worker_;  // last: starts once everything above exists
};

}  // namespace revwave
