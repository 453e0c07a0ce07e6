#include "device_checkpoint_store.hpp"

#include <stdexcept>
#include <string>

#include "nvtx_range.hpp"

namespace revwave {
namespace {

constexpr std::size_t lookahead_limit = std::size_t(1) << 16;

}  // namespace

void DeviceCheckpointStore::copy_async(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  copy_bytes_ += bytes;
}

DeviceCheckpointStore::DeviceCheckpointStore(const TierSplit& split, std::size_t field_bytes, CudaStreams& streams,
                                             WriteFences& fences, SpillClock& clock, PrefetchHint* hint)
    : split_(split), field_bytes_(field_bytes), s_(streams), fences_(fences), clock_(clock), hint_(hint) {
  device_.reserve(static_cast<std::size_t>(split_.device_slots));
  for (index_t i = 0; i < split_.device_slots; ++i)
    device_.push_back({{DeviceBuffer(field_bytes, "a wavefield of a device checkpoint slot"),
                        DeviceBuffer(field_bytes, "a wavefield of a device checkpoint slot")},
                       Event()});
  if (split_.host_slots == 0) return;
  host_.reserve(static_cast<std::size_t>(split_.host_slots));
  for (index_t i = 0; i < split_.host_slots; ++i)
    host_.push_back({PinnedBuffer(field_bytes, "a wavefield of a pinned host checkpoint slot"),
                     PinnedBuffer(field_bytes, "a wavefield of a pinned host checkpoint slot")});
  spill_staging_ = {DeviceBuffer(field_bytes, "the spill staging slot"), DeviceBuffer(field_bytes, "the spill staging slot")};
  prefetch_staging_ = {DeviceBuffer(field_bytes, "the prefetch staging slot"),
                       DeviceBuffer(field_bytes, "the prefetch staging slot")};
}

void DeviceCheckpointStore::check(std::int64_t slot) const {
  if (slot < 0 || slot >= slots()) throw std::out_of_range("checkpoint slot " + std::to_string(slot) + " out of range");
}

void DeviceCheckpointStore::store(std::int64_t slot, DeviceState& state) {
  check(slot);
  NvtxRange range("store");
  if (!is_host(slot)) {
    DeviceSlot& d = device_[static_cast<std::size_t>(slot - split_.host_slots)];
    s_.after_compute(s_.copy);
    // u[n-1] first: the next step overwrites it; u[n] is overwritten one step later.
    copy_async(d.fields.u_prev.data(), state.u_prev.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
    fences_.arm(state.u_prev.data(), s_.copy);
    copy_async(d.fields.u.data(), state.u.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
    fences_.arm(state.u.data(), s_.copy);
    d.written.record(s_.copy);
  } else {
    NvtxRange spill("spill");
    HostSlot& h = host_[static_cast<std::size_t>(slot)];
    s_.after_compute(s_.copy);
    s_.copy.wait(spill_free_);  // the previous spill has left the staging slot
    copy_async(spill_staging_.u_prev.data(), state.u_prev.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
    fences_.arm(state.u_prev.data(), s_.copy, true);
    copy_async(spill_staging_.u.data(), state.u.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
    fences_.arm(state.u.data(), s_.copy, true);
    staged_.record(s_.copy);
    s_.transfer.wait(staged_);
    copy_async(h.u_prev.data(), spill_staging_.u_prev.data(), field_bytes_, cudaMemcpyDeviceToHost, s_.transfer);
    copy_async(h.u.data(), spill_staging_.u.data(), field_bytes_, cudaMemcpyDeviceToHost, s_.transfer);
    spill_free_.record(s_.transfer);
    if (staged_slot_ == slot) staged_slot_ = -1;  // cannot happen with the lookahead rule; kept safe
  }
  maybe_prefetch();
}

void DeviceCheckpointStore::restore(std::int64_t slot, DeviceState& state, bool last_use) {
  check(slot);
  NvtxRange range("restore");
  fences_.before_any_write(s_.compute);  // copies still reading the state finish before it changes
  if (!is_host(slot)) {
    DeviceSlot& d = device_[static_cast<std::size_t>(slot - split_.host_slots)];
    if (last_use) {
      s_.compute.wait(d.written);
      swap(state.u, d.fields.u);
      swap(state.u_prev, d.fields.u_prev);
    } else {
      s_.after_compute(s_.copy);
      copy_async(state.u.data(), d.fields.u.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
      copy_async(state.u_prev.data(), d.fields.u_prev.data(), field_bytes_, cudaMemcpyDeviceToDevice, s_.copy);
      restored_.record(s_.copy);
      s_.compute.wait(restored_);
    }
  } else if (staged_slot_ == slot) {
    clock_.timed_wait(s_.compute, prefetched_);
    swap(state.u, prefetch_staging_.u);
    swap(state.u_prev, prefetch_staging_.u_prev);
    staging_free_.record(s_.compute);  // the old state, now staging, is free once compute is past here
    staged_slot_ = -1;
    ++prefetch_hits_;
  } else {
    HostSlot& h = host_[static_cast<std::size_t>(slot)];
    s_.after_compute(s_.transfer);
    copy_async(state.u.data(), h.u.data(), field_bytes_, cudaMemcpyHostToDevice, s_.transfer);
    copy_async(state.u_prev.data(), h.u_prev.data(), field_bytes_, cudaMemcpyHostToDevice, s_.transfer);
    restored_.record(s_.transfer);
    clock_.timed_wait(s_.compute, restored_);
  }
  maybe_prefetch();
}

// The first pinned restore ahead whose slot is not stored again before it: fetch it now.
void DeviceCheckpointStore::maybe_prefetch() {
  if (hint_ == nullptr || split_.host_slots == 0 || staged_slot_ >= 0) return;
  const std::int64_t slot = hint_->next_restore(0, split_.host_slots, lookahead_limit);
  if (slot < 0) return;  // none ahead, or its slot is stored again first: wait until that store has happened
  NvtxRange range("prefetch");
  HostSlot& h = host_[static_cast<std::size_t>(slot)];
  s_.transfer.wait(staging_free_);
  copy_async(prefetch_staging_.u.data(), h.u.data(), field_bytes_, cudaMemcpyHostToDevice, s_.transfer);
  copy_async(prefetch_staging_.u_prev.data(), h.u_prev.data(), field_bytes_, cudaMemcpyHostToDevice, s_.transfer);
  prefetched_.record(s_.transfer);
  staged_slot_ = slot;
}

}  // namespace revwave
