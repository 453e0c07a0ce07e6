// Disk checkpoint slots written behind the computation and read ahead of it: a DiskStore
// driven by one worker thread. A write goes straight out of the state's fields, which the store
// holds (so no step overwrites them) until the write has finished, at most two states at once;
// a read ahead goes into two free fields of the pool, handed to the state when it is restored.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "revwave/core/host_buffer.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/disk_store.hpp"
#include "revwave/store/prefetch_hint.hpp"

namespace revwave {

class AsyncDiskStore final : public CheckpointStore {
 public:
  struct Counters {
    std::int64_t writes = 0;           // slot writes handed to the worker
    std::int64_t reads = 0;            // slot reads: prefetches started plus synchronous reads
    std::int64_t prefetch_hits = 0;    // restores served from the prefetch buffer
    std::int64_t prefetch_misses = 0;  // restores read synchronously
    double seconds_waited = 0;         // caller time blocked on the worker
  };

  // The DiskStore's rules and errors for slots, field_bytes and dir. With a prefetch hint, this
  // store's slot i is the schedule's global slot first_global_slot + i (a tier of a
  // TieredStore); global ids outside that range belong to other tiers and are ignored.
  // The hint is only used from the caller's thread and must outlive this store.
  AsyncDiskStore(std::int64_t slots, HostFieldPool& pool, const std::string& dir, PrefetchHint* hint = nullptr,
                 std::int64_t first_global_slot = 0);
  // Drops queued work, waits for the operation in progress, joins the worker; never throws.
  ~AsyncDiskStore() override;
  AsyncDiskStore(const AsyncDiskStore&) = delete;
  AsyncDiskStore& operator=(const AsyncDiskStore&) = delete;

  std::int64_t slots() const override { return disk_.slots(); }
  std::size_t slot_bytes() const override { return disk_.slot_bytes(); }
  // Two states in flight to the disk and one read ahead.
  std::int64_t held_fields() const override { return 2 * static_cast<std::int64_t>(kStaging) + 2; }
  std::uint64_t copy_bytes() const override { return disk_.copy_bytes(); }
  const std::string& dir() const { return disk_.dir(); }

  // Bad slots and state sizes throw at once, as DiskStore's. A failure of the worker (a
  // full disk, EIO) is an IoError naming the directory, thrown by the next store or restore
  // and by every one after it: a lost write leaves the checkpoints unusable.
  // store() returns once the write is queued (waiting for the oldest write when two are in
  // flight); the state's fields stay held until it has finished. restore() takes a completed or
  // in-flight prefetch of the slot, else waits for the slot's pending writes and reads it into
  // free fields of the pool. Either way the state then holds fields of the pool nobody else holds.
  void store(std::int64_t slot, const HostState& state) override;
  void restore(std::int64_t slot, HostState& state, bool last_use) override;

  Counters counters() const;

 private:
  static constexpr std::size_t kStaging = 2;
  static constexpr std::size_t kLookaheadActions = 64;

  enum class Prefetch { idle, in_flight, ready };
  struct Job {
    bool write;           // else a prefetch read into prefetch_
    std::int64_t slot;    // local id
    std::size_t staging;  // writes: the in-flight entry
  };
  struct Staging {
    HostState state;  // the fields being written: held until the write has finished
    bool busy = false;
    std::int64_t slot = -1;
  };

  void check(std::int64_t slot, const HostState& state) const;
  void throw_if_failed() const;  // with mutex_ held
  template <class Pred>
  void wait(std::unique_lock<std::mutex>& lock, Pred ready);
  void start_prefetch();
  void let_go_of_finished_writes();  // with mutex_ held
  void work();

  HostFieldPool& pool_;
  DiskStore disk_;
  PrefetchHint* hint_;
  std::int64_t first_global_;

  mutable std::mutex mutex_;
  std::condition_variable work_cv_;  // the worker waits for jobs or stop
  std::condition_variable done_cv_;  // the caller waits for jobs to finish
  std::deque<Job> queue_;
  Staging staging_[kStaging];
  HostState prefetch_;  // fields taken from the pool for the read ahead (empty until one starts)
  Prefetch prefetch_status_ = Prefetch::idle;
  std::int64_t prefetch_slot_ = -1;
  bool prefetch_stale_ = false;  // the slot was stored while its read was in flight
  std::string error_;            // the worker's first failure; sticky
  bool stop_ = false;
  Counters counters_;
  std::thread worker_;  // last: starts once everything it touches exists
};

}  // namespace revwave
