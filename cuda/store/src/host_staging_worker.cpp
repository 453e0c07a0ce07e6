#include "revwave/cuda/store/host_encoded_slots.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {
namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

HostEncodedSlots::HostEncodedSlots(std::int64_t slots, const FieldCodec& codec) : codec_(codec) {
  const std::size_t field = codec_.layout().field_bytes();
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i) slots_.emplace_back(codec_);
  for (int i = 0; i < 2; ++i) {
    spill_[i] = PinnedBuffer(field, "the pinned staging of ZFP-encoded spills");
    fetch_[i] = PinnedBuffer(field, "the pinned staging of ZFP-encoded restores");
    // A decode writes the padded points only: the halo the device receives must be zeros.
    std::memset(fetch_[i].data(), 0, field);
  }
  worker_ = std::thread([this] { work(); });
}

HostEncodedSlots::~HostEncodedSlots() {
  cudaDeviceSynchronize();  // every host function enqueued has submitted its job; errors ignored here
  cudaGetLastError();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void CUDART_CB HostEncodedSlots::submit(void* p) {
  // Runs on a runtime thread once the stream gets here: no CUDA call allowed, just the hand-over.
  const Job* job = static_cast<const Job*>(p);
  HostEncodedSlots* self = job->self;
  {
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->queue_.push_back(*job);
  }
  delete job;
  self->changed_.notify_all();
}

std::uint64_t HostEncodedSlots::enqueue(cudaStream_t stream, std::int64_t slot, bool encode) {
  if (slot < 0 || slot >= static_cast<std::int64_t>(slots_.size())) {
    throw std::out_of_range("encoded host checkpoint slot " + std::to_string(slot) + " out of range");
  }
  auto* job = new Job{this, slot, encode};
  const cudaError_t err = cudaLaunchHostFunc(stream, &HostEncodedSlots::submit, job);
  if (err != cudaSuccess) delete job;
  REVWAVE_CUDA_CHECK(err);
  return ++issued_;
}

bool HostEncodedSlots::done(std::uint64_t ticket) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_ >= ticket || failure_ != nullptr;
}

double HostEncodedSlots::wait(std::uint64_t ticket) {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return finished_ >= ticket || failure_ != nullptr; });
  if (failure_) std::rethrow_exception(failure_);
  return seconds_since(t0);
}

CompressionStats HostEncodedSlots::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void HostEncodedSlots::work() {
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

// On the worker: the codec and the slot buffers are its alone; stats_ is shared.
void HostEncodedSlots::run(const Job& job) {
  EncodedSlot& s = slots_[static_cast<std::size_t>(job.slot)];
  CompressionStats done;
  if (job.encode) {
    done = s.encode(codec_, static_cast<const std::byte*>(spill_[0].data()), static_cast<const std::byte*>(spill_[1].data()));
  } else {
    if (s.empty()) {
      throw std::logic_error("restore of encoded host checkpoint slot " + std::to_string(job.slot) + ", which holds nothing");
    }
    done = s.decode(codec_, static_cast<std::byte*>(fetch_[0].data()), static_cast<std::byte*>(fetch_[1].data()));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  stats_ += done;
}

}  // namespace revwave
