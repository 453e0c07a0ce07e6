// The worker owns the disk while a job runs; the caller owns every buffer the worker is not
// using. All flags live under one mutex, and the FIFO queue orders a slot's write before any
// later read of it, so the bytes restored are always the bytes last stored.
#include "revwave/store/async_disk_store.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/store/parallel_copy.hpp"

namespace revwave {

AsyncDiskStore::AsyncDiskStore(std::int64_t slots, std::size_t field_bytes, const std::string& dir,
                               PrefetchHint* hint, std::int64_t first_global_slot)
    : disk_(slots, field_bytes, dir), hint_(hint), first_global_(first_global_slot) {
  for (Staging& s : staging_) s.state = HostState{HostBuffer(field_bytes), HostBuffer(field_bytes)};
  prefetch_ = HostState{HostBuffer(field_bytes), HostBuffer(field_bytes)};
  worker_ = std::thread(&AsyncDiskStore::work, this);
}

AsyncDiskStore::~AsyncDiskStore() {
  try {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      queue_.clear();  // the file goes with the store: queued writes are moot
    }
    work_cv_.notify_all();
    if (worker_.joinable()) worker_.join();
  } catch (...) {
  }
}

AsyncDiskStore::Counters AsyncDiskStore::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

void AsyncDiskStore::check(std::int64_t slot, const HostState& state) const {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("AsyncDiskStore: slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(slots()) + ")");
  }
  const std::size_t fb = disk_.field_bytes();
  if (state.u.bytes() != fb || state.u_prev.bytes() != fb || state.u.data() == nullptr ||
      state.u_prev.data() == nullptr) {
    throw std::invalid_argument("AsyncDiskStore: state buffers of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " + std::to_string(fb) +
                                " each");
  }
}

void AsyncDiskStore::throw_if_failed() const {
  if (!error_.empty()) throw IoError(error_);
}

template <class Pred>
void AsyncDiskStore::wait(std::unique_lock<std::mutex>& lock, Pred ready) {
  auto done = [&] { return ready() || !error_.empty(); };
  if (done()) return;
  const auto t0 = std::chrono::steady_clock::now();
  done_cv_.wait(lock, done);
  counters_.seconds_waited += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void AsyncDiskStore::store(std::int64_t slot, const HostState& state) {
  check(slot, state);
  std::unique_lock<std::mutex> lock(mutex_);
  throw_if_failed();
  auto free_buffer = [&] {
    std::size_t b = 0;
    while (b < kStaging && staging_[b].busy) ++b;
    return b;
  };
  wait(lock, [&] { return free_buffer() < kStaging; });  // FIFO: the oldest write frees first
  throw_if_failed();
  Staging& s = staging_[free_buffer()];
  s.busy = true;  // not queued yet, so the worker leaves it alone while we copy
  s.slot = slot;
  if (prefetch_slot_ == slot) {  // the prefetched content is about to be overwritten
    if (prefetch_status_ == Prefetch::ready) prefetch_status_ = Prefetch::idle;
    if (prefetch_status_ == Prefetch::in_flight) prefetch_stale_ = true;
  }
  lock.unlock();
  const std::size_t fb = disk_.field_bytes();
  copy_to_slot(s.state.u.data(), state.u.data(), fb);
  copy_to_slot(s.state.u_prev.data(), state.u_prev.data(), fb);
  lock.lock();
  throw_if_failed();
  queue_.push_back({true, slot, static_cast<std::size_t>(&s - staging_)});
  ++counters_.writes;
  lock.unlock();
  work_cv_.notify_one();
  start_prefetch();
}

void AsyncDiskStore::restore(std::int64_t slot, HostState& state, bool last_use) {
  check(slot, state);
  std::unique_lock<std::mutex> lock(mutex_);
  throw_if_failed();
  if (prefetch_status_ != Prefetch::idle && prefetch_slot_ == slot && !prefetch_stale_) {
    wait(lock, [&] { return prefetch_status_ != Prefetch::in_flight; });
    throw_if_failed();
    swap(state.u, prefetch_.u);
    swap(state.u_prev, prefetch_.u_prev);
    prefetch_status_ = Prefetch::idle;
    ++counters_.prefetch_hits;
    lock.unlock();
  } else {
    ++counters_.prefetch_misses;
    ++counters_.reads;
    wait(lock, [&] {
      return std::none_of(std::begin(staging_), std::end(staging_),
                          [&](const Staging& s) { return s.busy && s.slot == slot; });
    });
    throw_if_failed();
    lock.unlock();
    disk_.restore(slot, state, last_use);  // pread is safe next to the worker's I/O on other slots
  }
  start_prefetch();
}

// The next restore of one of this store's slots within the window, unless a store to that
// slot comes first (then the read waits for that store's own call to look again).
void AsyncDiskStore::start_prefetch() {
  if (hint_ == nullptr) return;
  const std::int64_t global = hint_->next_restore(first_global_, slots(), kLookaheadActions);
  if (global < 0) return;
  const std::int64_t target = global - first_global_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_.empty()) return;
    if (prefetch_status_ != Prefetch::idle && prefetch_slot_ == target && !prefetch_stale_) return;  // on its way
    if (prefetch_status_ == Prefetch::in_flight) return;  // the one buffer is busy; the next call looks again
    prefetch_status_ = Prefetch::in_flight;
    prefetch_slot_ = target;
    prefetch_stale_ = false;
    queue_.push_back({false, target, 0});
    ++counters_.reads;
  }
  work_cv_.notify_one();
}

void AsyncDiskStore::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    const Job job = queue_.front();
    queue_.pop_front();
    lock.unlock();
    std::string failure;
    try {
      if (job.write) disk_.store(job.slot, staging_[job.buffer].state);
      else disk_.restore(job.slot, prefetch_, false);
    } catch (const IoError& e) {
      failure = e.what();  // names the directory already
    } catch (const std::exception& e) {
      failure = "disk checkpoint store in '" + disk_.dir() + "': " + e.what();
    } catch (...) {
      failure = "disk checkpoint store in '" + disk_.dir() + "': unknown failure";
    }
    lock.lock();
    if (job.write) {
      staging_[job.buffer].busy = false;
    } else {
      prefetch_status_ = prefetch_stale_ ? Prefetch::idle : Prefetch::ready;
      prefetch_stale_ = false;
    }
    if (!failure.empty() && error_.empty()) {
      error_ = failure + " (background " + (job.write ? "write" : "prefetch") + " of slot " +
               std::to_string(job.slot) + ")";
      // Nothing after a lost write can be trusted: drop the rest and free every buffer.
      queue_.clear();
      for (Staging& s : staging_) s.busy = false;
      prefetch_status_ = Prefetch::idle;
    }
    done_cv_.notify_all();
  }
}

}  // namespace revwave
