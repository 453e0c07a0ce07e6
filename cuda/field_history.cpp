#include "field_history.hpp"

#include "nvtx_range.hpp"

namespace revwave {

FieldHistory::FieldHistory(index_t steps, std::size_t field_bytes, bool on_device)
    : steps_(steps), field_bytes_(field_bytes), on_device_(on_device), zero_(field_bytes, "a zero wavefield") {
  if (on_device_) {
    device_ = DeviceBuffer(static_cast<std::size_t>(steps) * field_bytes, "the wavefield history (--strategy full)");
    return;
  }
  pinned_.reserve(static_cast<std::size_t>(steps));
  for (index_t n = 0; n < steps; ++n) pinned_.emplace_back(field_bytes, "the pinned-host wavefield history");
  for (auto& r : ring_) r = DeviceBuffer(field_bytes, "the history read-back ring");
}

std::size_t FieldHistory::bytes() const { return static_cast<std::size_t>(steps_) * field_bytes_; }

void FieldHistory::record(index_t n, const void* u, CudaStreams& s, WriteFences& fences) {
  if (n < 1 || n > steps_) return;
  copy_bytes_ += field_bytes_;
  if (on_device_) {
    s.after_compute(s.copy);
    auto* dst = static_cast<char*>(device_.data()) + static_cast<std::size_t>(n - 1) * field_bytes_;
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, u, field_bytes_, cudaMemcpyDeviceToDevice, s.copy));
    fences.arm(u, s.copy);
    recorded_.record(s.copy);
  } else {
    NvtxRange range("spill");
    s.after_compute(s.transfer);
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(pinned_[static_cast<std::size_t>(n - 1)].data(), u, field_bytes_,
                                       cudaMemcpyDeviceToHost, s.transfer));
    fences.arm(u, s.transfer, true);
    recorded_.record(s.transfer);
  }
}

const void* FieldHistory::device_field(index_t k) {
  if (k <= 0) return zero_.data();  // u[0] = u[-1] = 0
  return static_cast<const char*>(device_.data()) + static_cast<std::size_t>(k - 1) * field_bytes_;
}

void FieldHistory::fetch(index_t k, CudaStreams& s) {
  if (k <= 0) return;
  const std::size_t r = static_cast<std::size_t>(k % 4);
  if (ring_tag_[r] == k) return;
  NvtxRange range("prefetch");
  copy_bytes_ += field_bytes_;
  s.transfer.wait(ring_free_[r]);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(ring_[r].data(), pinned_[static_cast<std::size_t>(k - 1)].data(), field_bytes_,
                                     cudaMemcpyHostToDevice, s.transfer));
  ring_ready_[r].record(s.transfer);
  ring_tag_[r] = k;
}

const void* FieldHistory::ring_field(index_t k, CudaStreams& s, SpillClock& clock) {
  if (k <= 0) return zero_.data();
  fetch(k, s);
  const std::size_t r = static_cast<std::size_t>(k % 4);
  clock.timed_wait(s.compute, ring_ready_[r]);
  return ring_[r].data();
}

FieldHistory::Fields FieldHistory::acquire(index_t n, CudaStreams& s, SpillClock& clock) {
  if (on_device_) {
    s.compute.wait(recorded_);
    return {device_field(n + 1), device_field(n), device_field(n - 1)};
  }
  if (n == steps_ - 1) {  // the first reverse step: every copy out must be done before reading back
    s.after_compute(s.transfer);
    s.transfer.wait(recorded_);
  }
  const Fields f{ring_field(n + 1, s, clock), ring_field(n, s, clock), ring_field(n - 1, s, clock)};
  return f;
}

void FieldHistory::release(index_t n, CudaStreams& s) {
  if (on_device_) return;
  for (index_t k = n - 1; k <= n + 1; ++k)
    if (k > 0) ring_free_[static_cast<std::size_t>(k % 4)].record(s.compute);
  fetch(n - 2, s);  // needed by the step after next; overlaps this step
}

}  // namespace revwave

