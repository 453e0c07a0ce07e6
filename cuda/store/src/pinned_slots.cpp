// Raw pinned host slots: spills out of the state's fields, restores prefetched into free fields.
#include "revwave/cuda/store/pinned_slots.hpp"

#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {

PinnedSlots::PinnedSlots(std::int64_t slots, const DeviceStoreContext& context, TierLookahead ahead)
    : c_(context), ahead_(ahead) {
  if (slots < 1) throw InputError("pinned checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i)
    slots_.push_back({PinnedBuffer(c_.pool.field_bytes(), "a wavefield of a pinned host checkpoint slot"),
                      PinnedBuffer(c_.pool.field_bytes(), "a wavefield of a pinned host checkpoint slot")});
}

PinnedSlots::HostSlot& PinnedSlots::checked(std::int64_t slot) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("pinned checkpoint slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(slots()) + ")");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void PinnedSlots::copy_async(void* dst, const void* src, cudaMemcpyKind kind) {
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, c_.pool.field_bytes(), kind, c_.streams.transfer));
  copy_bytes_ += c_.pool.field_bytes();
}

void PinnedSlots::store(std::int64_t slot, const DeviceState& state) {
  HostSlot& h = checked(slot);
  NvtxRange range("store");
  {
    NvtxRange spill("spill");
    CudaStreams& s = c_.streams;
    s.after_compute(s.transfer);
    copy_async(h.u_prev.data(), state.u_prev.data(), cudaMemcpyDeviceToHost);
    c_.fences.arm(state.u_prev.data(), s.transfer, true);
    copy_async(h.u.data(), state.u.data(), cudaMemcpyDeviceToHost);
    c_.fences.arm(state.u.data(), s.transfer, true);
    spilling_ = state;  // lets go of the previous spill's fields: their fences keep them until it is done
    if (staged_slot_ == slot) staged_slot_ = -1;  // cannot happen with the lookahead rule; kept safe
  }
  maybe_prefetch();
}

void PinnedSlots::restore(std::int64_t slot, DeviceState& state, bool /*last_use*/) {
  HostSlot& h = checked(slot);
  NvtxRange range("restore");
  CudaStreams& s = c_.streams;
  if (staged_slot_ == slot) {
    c_.clock.timed_wait(s.compute, prefetched_);
    state = std::move(staged_);
    staged_ = DeviceState{};
    staged_slot_ = -1;
    ++prefetch_hits_;
  } else {
    state = DeviceState{};
    state = DeviceState{c_.pool.acquire(), c_.pool.acquire()};
    s.after_compute(s.transfer);  // the fields' last readers on the compute stream are done
    copy_async(state.u.data(), h.u.data(), cudaMemcpyHostToDevice);
    copy_async(state.u_prev.data(), h.u_prev.data(), cudaMemcpyHostToDevice);
    restored_.record(s.transfer);
    c_.clock.timed_wait(s.compute, restored_);
  }
  maybe_prefetch();
}

// The first restore ahead whose slot is not stored again before it: fetch it now.
void PinnedSlots::maybe_prefetch() {
  if (staged_slot_ >= 0) return;
  const std::int64_t slot = ahead_.next(slots());
  if (slot < 0) return;  // none ahead, or its slot is stored again first: wait until that store has happened
  NvtxRange range("prefetch");
  HostSlot& h = slots_[static_cast<std::size_t>(slot)];
  CudaStreams& s = c_.streams;
  staged_ = DeviceState{c_.pool.acquire(), c_.pool.acquire()};
  s.after_compute(s.transfer);  // free fields: their last compute-stream users are enqueued already
  copy_async(staged_.u.data(), h.u.data(), cudaMemcpyHostToDevice);
  copy_async(staged_.u_prev.data(), h.u_prev.data(), cudaMemcpyHostToDevice);
  prefetched_.record(s.transfer);
  staged_slot_ = slot;
}

}  // namespace revwave
