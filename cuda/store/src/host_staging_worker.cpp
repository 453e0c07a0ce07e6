// The host worker behind the staged tiers: jobs handed over by host functions on the transfer stream.
#include "revwave/cuda/store/host_staging_worker.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "revwave/core/seconds_since.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

HostStagingWorker::HostStagingWorker(HostSlotMedium& medium) : medium_(medium) {
  const std::size_t field = medium_.field_bytes();
  for (int i = 0; i < 2; ++i) {
    spill_[i] = PinnedBuffer(field, "the pinned staging of spills to the host");
    fetch_[i] = PinnedBuffer(field, "the pinned staging of restores from the host");
    // A decode writes the padded points only: the halo the device receives must be zeros.
    std::memset(fetch_[i].data(), 0, field);
  }
  worker_ = std::thread([this] { work(); });
}

HostStagingWorker::~HostStagingWorker() {
  cudaDeviceSynchronize();  // every host function enqueued has submitted its job; errors ignored here
  cudaGetLastError();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void CUDART_CB HostStagingWorker::submit(void* p) {
  // Runs on a runtime thread once the stream gets here: no CUDA call allowed, just the hand-over.
  const Job* job = static_cast<const Job*>(p);
  HostStagingWorker* self = job->self;
  {
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->queue_.push_back(*job);
  }
  delete job;
  self->changed_.notify_all();
}

std::uint64_t HostStagingWorker::enqueue(cudaStream_t stream, std::int64_t slot, bool put) {
  if (slot < 0 || slot >= medium_.slots()) {
    throw std::out_of_range("host checkpoint slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(medium_.slots()) + ")");
  }
  auto* job = new Job{this, slot, put};
  const cudaError_t err = cudaLaunchHostFunc(stream, &HostStagingWorker::submit, job);
  if (err != cudaSuccess) delete job;
  REVWAVE_CUDA_CHECK(err);
  return ++issued_;
}

bool HostStagingWorker::done(std::uint64_t ticket) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_ >= ticket || failure_ != nullptr;
}

double HostStagingWorker::wait(std::uint64_t ticket) {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return finished_ >= ticket || failure_ != nullptr; });
  if (failure_) std::rethrow_exception(failure_);
  return seconds_since(t0);
}

CompressionStats HostStagingWorker::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void HostStagingWorker::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    const Job job = queue_.front();
    queue_.pop_front();
    lock.unlock();
    std::exception_ptr failed;
    try {
      run(job);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    if (failed && !failure_) failure_ = failed;
    ++finished_;
    changed_.notify_all();
  }
}

// On the worker: the medium and the staging are its alone while a job runs; stats_ is shared.
void HostStagingWorker::run(const Job& job) {
  const CompressionStats done = job.put ? medium_.put(job.slot, static_cast<const std::byte*>(spill_[0].data()),
                                                      static_cast<const std::byte*>(spill_[1].data()))
                                        : medium_.get(job.slot, static_cast<std::byte*>(fetch_[0].data()),
                                                      static_cast<std::byte*>(fetch_[1].data()));
  std::lock_guard<std::mutex> lock(mutex_);
  stats_ += done;
}

}  // namespace revwave
