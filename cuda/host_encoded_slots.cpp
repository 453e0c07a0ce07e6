#include "host_encoded_slots.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cuda_error.hpp"

namespace revwave {
namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

HostEncodedSlots::HostEncodedSlots(std::int64_t slots, const FieldCodec& codec)
    : codec_(codec), stride_((codec.max_bytes() + 127) / 128 * 128) {
  const std::size_t field = codec_.layout().field_bytes();
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i) slots_.push_back(Slot{HostBuffer(2 * stride_), {0, 0}});
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
  Slot& s = slots_[static_cast<std::size_t>(job.slot)];
  const auto t0 = std::chrono::steady_clock::now();
  if (job.encode) {
    std::size_t bytes[2];
    for (int i = 0; i < 2; ++i) {
      bytes[i] = codec_.encode(static_cast<const std::byte*>(spill_[i].data()), s.data.data() + i * stride_);
    }
    const double seconds = seconds_since(t0);
    std::lock_guard<std::mutex> lock(mutex_);
    s.bytes[0] = bytes[0];
    s.bytes[1] = bytes[1];
    stats_.seconds_compress += seconds;
    stats_.fields_compressed += 2;
    stats_.raw_bytes += 2 * static_cast<std::uint64_t>(codec_.layout().box_points()) * codec_.layout().value_bytes;
    stats_.compressed_bytes += bytes[0] + bytes[1];
    return;
  }
  if (s.bytes[0] == 0) {
    throw std::logic_error("restore of encoded host checkpoint slot " + std::to_string(job.slot) + ", which holds nothing");
  }
  for (int i = 0; i < 2; ++i) {
    codec_.decode(s.data.data() + i * stride_, s.bytes[i], static_cast<std::byte*>(fetch_[i].data()));
  }
  const double seconds = seconds_since(t0);
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.seconds_decompress += seconds;
  stats_.fields_decompressed += 2;
}

}  // namespace revwave
