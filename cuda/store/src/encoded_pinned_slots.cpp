// fp16 / bf16 pinned slots: encoded on the device, copied out; copied back ahead of time, decoded.
#include "revwave/cuda/store/encoded_pinned_slots.hpp"

#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"
#include "revwave/cuda/store/encoded_device_slots.hpp"

namespace revwave {

EncodedPinnedSlots::EncodedPinnedSlots(std::int64_t slots, const DeviceStoreContext& context, DeviceCodec& codec,
                                       TierLookahead ahead)
    : c_(context), codec_(codec), ahead_(ahead) {
  if (slots < 1)
    throw InputError("compressed pinned checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i)
    slots_.emplace_back(codec_.slot_bytes(), "a compressed pinned host checkpoint slot");
  spill_staging_ = DeviceBuffer(codec_.slot_bytes(), "the staging of compressed spills");
  fetch_staging_ = DeviceBuffer(codec_.slot_bytes(), "the staging of compressed prefetches");
}

PinnedBuffer& EncodedPinnedSlots::checked(std::int64_t slot) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("compressed pinned checkpoint slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(slots()) + ")");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void EncodedPinnedSlots::store(std::int64_t slot, const DeviceState& state) {
  PinnedBuffer& h = checked(slot);
  NvtxRange range("store");
  {
    NvtxRange spill("spill");
    CudaStreams& s = c_.streams;
    // The staging buffer is free once the previous spill's copy is done.
    if (spill_pending_) c_.clock.timed_wait(s.compute, spilled_);
    auto* staging = static_cast<unsigned char*>(spill_staging_.data());
    codec_.encode(state.u.data(), staging, s.compute);
    codec_.encode(state.u_prev.data(), staging + codec_.stride(), s.compute);
    s.after_compute(s.transfer);
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(h.data(), staging, codec_.slot_bytes(), cudaMemcpyDeviceToHost, s.transfer));
    copy_bytes_ += codec_.slot_bytes();
    spilled_.record(s.transfer);
    spill_pending_ = true;
    if (staged_slot_ == slot) staged_slot_ = -1;
    stats_ += codec_.counted(2, true);
  }
  maybe_prefetch();
}

// A slot's bytes into the fetch staging on the transfer stream, `done` recorded behind them.
void EncodedPinnedSlots::fetch(std::int64_t slot, const Event& done) {
  CudaStreams& s = c_.streams;
  s.after_compute(s.transfer);  // the staging's last decode is enqueued already: done before it is overwritten
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(fetch_staging_.data(), slots_[static_cast<std::size_t>(slot)].data(),
                                     codec_.slot_bytes(), cudaMemcpyHostToDevice, s.transfer));
  copy_bytes_ += codec_.slot_bytes();
  done.record(s.transfer);
}

void EncodedPinnedSlots::restore(std::int64_t slot, DeviceState& state, bool /*last_use*/) {
  checked(slot);
  NvtxRange range("restore");
  if (staged_slot_ == slot) {
    c_.clock.timed_wait(c_.streams.compute, prefetched_);
    ++prefetch_hits_;
  } else {  // the fetch staging may hold another slot read ahead: that read-ahead is dropped
    fetch(slot, restored_);
    c_.clock.timed_wait(c_.streams.compute, restored_);
  }
  staged_slot_ = -1;
  decode_into_state(c_, codec_, static_cast<const unsigned char*>(fetch_staging_.data()), state);
  stats_ += codec_.counted(2, false);
  maybe_prefetch();
}

void EncodedPinnedSlots::maybe_prefetch() {
  if (staged_slot_ >= 0) return;
  const std::int64_t slot = ahead_.next(slots());
  if (slot < 0) return;
  NvtxRange range("prefetch");
  fetch(slot, prefetched_);
  staged_slot_ = slot;
}

}  // namespace revwave
