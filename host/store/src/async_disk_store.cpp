// The worker owns the disk while a job runs and reads or writes field memory through raw
// pointers; only the caller's thread takes fields from the pool or lets go of them. All flags
// live under one mutex, and the FIFO queue orders a slot's write before any later read of it,
// so the bytes restored are always the bytes last stored.
#include "revwave/store/async_disk_store.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"

namespace revwave {

AsyncDiskStore::AsyncDiskStore(std::int64_t slots, HostFieldPool& pool, const std::string& dir, PrefetchHint* hint,
                               std::int64_t first_global_slot)
    : pool_(pool), disk_(slots, pool, dir), hint_(hint), first_global_(first_global_slot) {
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
  } catch (...) {}
  // The worker is gone: the fields go back to the pool here, on the caller's thread.
}

AsyncDiskStore::Counters AsyncDiskStore::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

void AsyncDiskStore::check(std::int64_t slot, const HostState& state) const {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("AsyncDiskStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) +
                            ")");
  }
  const std::size_t fb = disk_.field_bytes();
  if (state.u.bytes() != fb || state.u_prev.bytes() != fb) {
    throw std::invalid_argument("AsyncDiskStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
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

// Fields of writes that have finished go back to their other holders (or the pool): a step
// may then overwrite the state's u[n-1] in place again.
void AsyncDiskStore::let_go_of_finished_writes() {
  for (Staging& s : staging_)
    if (!s.busy && s.state.u) s.state = HostState{};
}

void AsyncDiskStore::store(std::int64_t slot, const HostState& state) {
  check(slot, state);
  std::unique_lock<std::mutex> lock(mutex_);
  throw_if_failed();
  auto free_entry = [&] {
    std::size_t b = 0;
    while (b < kStaging && staging_[b].busy) ++b;
    return b;
  };
  wait(lock, [&] { return free_entry() < kStaging; });  // FIFO: the oldest write frees first
  throw_if_failed();
  let_go_of_finished_writes();
  Staging& s = staging_[free_entry()];
  s.busy = true;
  s.slot = slot;
  s.state = state;               // held, not copied: the write reads these fields
  if (prefetch_slot_ == slot) {  // the prefetched content is about to be overwritten
    if (prefetch_status_ == Prefetch::ready) prefetch_status_ = Prefetch::idle;
    if (prefetch_status_ == Prefetch::in_flight) prefetch_stale_ = true;
  }
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
    state = std::move(prefetch_);
    prefetch_ = HostState{};
    prefetch_status_ = Prefetch::idle;
    ++counters_.prefetch_hits;
    let_go_of_finished_writes();
    lock.unlock();
  } else {
    ++counters_.prefetch_misses;
    ++counters_.reads;
    wait(lock, [&] {
      return std::none_of(std::begin(staging_), std::end(staging_),
                          [&](const Staging& s) { return s.busy && s.slot == slot; });
    });
    throw_if_failed();
    let_go_of_finished_writes();
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
    if (prefetch_status_ == Prefetch::in_flight) return;  // the one read is busy; the next call looks again
    if (!prefetch_.u) prefetch_ = HostState{pool_.acquire(), pool_.acquire()};
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
      // Field pointers only: holders change on the caller's thread.
      if (job.write)
        disk_.write(job.slot, staging_[job.staging].state.u.data(), staging_[job.staging].state.u_prev.data());
      else
        disk_.read(job.slot, prefetch_.u.data(), prefetch_.u_prev.data());
    } catch (const IoError& e) {
      failure = e.what();  // names the directory already
    } catch (const std::exception& e) {
      failure = "disk checkpoint store in '" + disk_.dir() + "': " + e.what();
    } catch (...) {
      failure = "disk checkpoint store in '" + disk_.dir() + "': unknown failure";
    }
    lock.lock();
    if (job.write) {
      staging_[job.staging].busy = false;
    } else {
      prefetch_status_ = prefetch_stale_ ? Prefetch::idle : Prefetch::ready;
      prefetch_stale_ = false;
    }
    if (!failure.empty() && error_.empty()) {
      error_ =
          failure + " (background " + (job.write ? "write" : "prefetch") + " of slot " + std::to_string(job.slot) + ")";
      // Nothing after a lost write can be trusted: drop the rest and free every entry (the caller
      // lets go of their fields).
      queue_.clear();
      for (Staging& s : staging_) s.busy = false;
      prefetch_status_ = Prefetch::idle;
    }
    done_cv_.notify_all();
  }
}

}  // namespace revwave
