#include "revwave/cuda/store/field_history.hpp"

#include <algorithm>

#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {

FieldHistory::FieldHistory(index_t steps, std::size_t field_bytes, std::size_t step_bytes, bool on_device,
                           const std::function<void()>& between)
    : steps_(steps), field_bytes_(field_bytes), step_bytes_(std::min(step_bytes, field_bytes)), on_device_(on_device) {
  if (on_device_ && !copies()) {
    device_.resize(static_cast<std::size_t>(steps) + 1);
    return;
  }
  zero_ = DeviceBuffer(step_bytes_, "a zero wavefield");
  if (on_device_) {
    copied_.reserve(static_cast<std::size_t>(steps));
    for (index_t n = 0; n < steps; ++n) {
      copied_.emplace_back(step_bytes_, "the wavefield history");
      if (between) between();
    }
    return;
  }
  pinned_.reserve(static_cast<std::size_t>(steps));
  for (index_t n = 0; n < steps; ++n) {
    pinned_.emplace_back(step_bytes_, "the pinned-host wavefield history");
    if (between) between();
  }
  for (auto& r : ring_) r = DeviceBuffer(step_bytes_, "the history read-back ring");
}

std::size_t FieldHistory::bytes() const { return static_cast<std::size_t>(steps_) * step_bytes_; }

void FieldHistory::record(index_t n, const DeviceField& u, CudaStreams& s, WriteFences& fences) {
  if (n < 0 || n > steps_) return;
  if (on_device_ && !copies()) {
    device_[static_cast<std::size_t>(n)] = u;
    return;
  }
  if (on_device_) {
    if (n == 0) return;  // u[0] = 0
    // On the compute stream: after the step that wrote u, before any that writes its field again.
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(copied_[static_cast<std::size_t>(n - 1)].data(), u.data(), step_bytes_,
                                       cudaMemcpyDeviceToDevice, s.compute));
    return;
  }
  if (n == 0) return;  // u[0] = 0
  NvtxRange range("spill");
  s.after_compute(s.transfer);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(pinned_[static_cast<std::size_t>(n - 1)].data(), u.data(), step_bytes_,
                                     cudaMemcpyDeviceToHost, s.transfer));
  copy_bytes_ += step_bytes_;
  fences.arm(u.data(), s.transfer, true);  // whoever writes this field next waits for the copy
  recorded_.record(s.transfer);
  in_flight_.push_back(u);  // held: the next steps write elsewhere while the copy runs
  if (in_flight_.size() > copy_holds) in_flight_.pop_front();
}

void FieldHistory::fetch(index_t k, CudaStreams& s) {
  if (k <= 0) return;
  const std::size_t r = static_cast<std::size_t>(k % 4);
  if (ring_tag_[r] == k) return;
  NvtxRange range("prefetch");
  s.transfer.wait(ring_free_[r]);
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(ring_[r].data(), pinned_[static_cast<std::size_t>(k - 1)].data(), step_bytes_,
                                     cudaMemcpyHostToDevice, s.transfer));
  copy_bytes_ += step_bytes_;
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
  if (on_device_ && !copies()) {
    auto at = [&](index_t k) { return device_[static_cast<std::size_t>(k < 0 ? 0 : k)].data(); };  // u[-1] = u[0] = 0
    return {at(n), at(n - 1), at(n + 1)};
  }
  if (on_device_) {
    auto at = [&](index_t k) -> const void* {
      return k <= 0 ? zero_.data() : copied_[static_cast<std::size_t>(k - 1)].data();
    };
    return {at(n), at(n - 1), at(n + 1)};
  }
  if (n == steps_ - 1) {  // the first reverse step: every copy out must be done before reading back
    s.after_compute(s.transfer);
    s.transfer.wait(recorded_);
    in_flight_.clear();
  }
  const void* next = ring_field(n + 1, s, clock);  // the last step's u[n], but at the first
  const void* cur = ring_field(n, s, clock);
  return {cur, ring_field(n - 1, s, clock), next};
}

void FieldHistory::release(index_t n, CudaStreams& s) {
  if (on_device_) return;
  for (index_t k = n - 1; k <= n + 1; ++k)  // u[n+1] too: fetch(n - 3) overwrites it next
    if (k > 0) ring_free_[static_cast<std::size_t>(k % 4)].record(s.compute);
  fetch(n - 2, s);  // needed by the step after next; overlaps this step
}

}  // namespace revwave
