#include "revwave/cuda/backend/upload_ring.hpp"

#include <algorithm>
#include <cstring>

namespace revwave {

namespace {
constexpr std::size_t align_to = 256;
std::size_t aligned(std::size_t b) { return (b + align_to - 1) / align_to * align_to; }
}  // namespace

UploadRing::UploadRing(std::size_t bytes) : buffer_(bytes, "the engine's upload staging") {}

UploadRing::~UploadRing() {
  for (Use& u : uses_) cudaEventSynchronize(u.done);  // copies may still read the staging; errors ignored
}

void UploadRing::wait_for(std::size_t begin, std::size_t end) {
  for (auto it = uses_.begin(); it != uses_.end();) {
    if (it->begin < end && begin < it->end) {
      it->done.synchronize();
      ++waits_;
      spare_.push_back(std::move(it->done));
      it = uses_.erase(it);
    } else {
      ++it;
    }
  }
}

void UploadRing::upload(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  const std::size_t need = aligned(bytes);
  if (need > buffer_.bytes()) {  // grow: every use must be done with the old staging first
    wait_for(0, buffer_.bytes());
    buffer_ = PinnedBuffer(std::max(2 * buffer_.bytes(), 2 * need), "the engine's upload staging");
    head_ = 0;
  }
  if (head_ + need > buffer_.bytes()) head_ = 0;
  const std::size_t begin = head_;
  wait_for(begin, begin + need);
  head_ = begin + need;
  char* staging = buffer_.as<char>() + begin;
  std::memcpy(staging, host, bytes);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(device, staging, bytes, cudaMemcpyHostToDevice, stream));
  if (spare_.empty()) spare_.emplace_back();
  Use use{begin, begin + need, std::move(spare_.back())};
  spare_.pop_back();
  use.done.record(stream);
  uses_.push_back(std::move(use));
}

}  // namespace revwave
