// A host medium behind pinned staging: spills through the spill pair, read-aheads through the fetch pair.
#include "revwave/cuda/store/staged_host_tier.hpp"

#include <stdexcept>
#include <string>

#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {

StagedHostTier::StagedHostTier(std::unique_ptr<HostSlotMedium> medium, const DeviceStoreContext& context,
                               TierLookahead ahead)
    : c_(context), ahead_(ahead), medium_(std::move(medium)), worker_(*medium_) {
  if (medium_->field_bytes() != c_.pool.field_bytes()) {
    throw std::invalid_argument("StagedHostTier: the medium's fields are " + std::to_string(medium_->field_bytes()) +
                                " bytes, the pool's " + std::to_string(c_.pool.field_bytes()));
  }
}

void StagedHostTier::check(std::int64_t slot) const {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("host checkpoint slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) +
                            ")");
  }
}

void StagedHostTier::copy_async(void* dst, const void* src, cudaMemcpyKind kind) {
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, c_.pool.field_bytes(), kind, c_.streams.transfer));
  copy_bytes_ += c_.pool.field_bytes();
}

void StagedHostTier::store(std::int64_t slot, const DeviceState& state) {
  check(slot);
  NvtxRange range("store");
  upload_fetched();
  {
    NvtxRange spill("spill");
    CudaStreams& s = c_.streams;
    // The staging is free once the worker has put the previous spill out of it.
    if (spill_ticket_ > 0) c_.clock.add_host_wait(worker_.wait(spill_ticket_));
    s.after_compute(s.transfer);
    copy_async(worker_.spill_field(1), state.u_prev.data(), cudaMemcpyDeviceToHost);
    c_.fences.arm(state.u_prev.data(), s.transfer, true);
    copy_async(worker_.spill_field(0), state.u.data(), cudaMemcpyDeviceToHost);
    c_.fences.arm(state.u.data(), s.transfer, true);
    spilling_ = state;  // lets go of the previous spill's fields: their fences keep them until it is done
    spill_ticket_ = worker_.put_after(s.transfer, slot);
    if (staged_slot_ == slot) {  // cannot happen with the lookahead rule; kept safe
      if (!staged_uploaded_) c_.clock.add_host_wait(worker_.wait(fetch_ticket_));
      staged_ = DeviceState{};
      staged_slot_ = -1;
    }
  }
  maybe_prefetch();
}

// The fetch staging into `fields` on the transfer stream, after the compute work enqueued so far
// (the fields' last readers there).
void StagedHostTier::copy_fetched_into(DeviceState& fields) {
  CudaStreams& s = c_.streams;
  s.after_compute(s.transfer);
  copy_async(fields.u.data(), worker_.fetch_field(0), cudaMemcpyHostToDevice);
  copy_async(fields.u_prev.data(), worker_.fetch_field(1), cudaMemcpyHostToDevice);
}

// A read ahead the worker has finished, into free fields of the pool (asynchronous).
void StagedHostTier::upload_fetched() {
  if (staged_slot_ < 0 || staged_uploaded_ || !worker_.done(fetch_ticket_)) return;
  worker_.wait(fetch_ticket_);  // rethrows what the worker failed with
  staged_ = DeviceState{c_.pool.acquire(), c_.pool.acquire()};
  copy_fetched_into(staged_);
  prefetched_.record(c_.streams.transfer);
  staged_uploaded_ = true;
}

void StagedHostTier::restore(std::int64_t slot, DeviceState& state, bool /*last_use*/) {
  check(slot);
  NvtxRange range("restore");
  upload_fetched();
  if (staged_slot_ == slot) {
    if (!staged_uploaded_) {  // the worker is still getting it: wait, then copy
      c_.clock.add_host_wait(worker_.wait(fetch_ticket_));
      upload_fetched();
    }
    c_.clock.timed_wait(c_.streams.compute, prefetched_);
    state = std::move(staged_);
    staged_ = DeviceState{};
    staged_slot_ = -1;
    ++prefetch_hits_;
  } else {
    // Not read ahead. A read ahead of another slot still in the fetch staging goes to the device first.
    if (staged_slot_ >= 0 && !staged_uploaded_) {
      c_.clock.add_host_wait(worker_.wait(fetch_ticket_));
      upload_fetched();
    }
    const std::uint64_t ticket = worker_.get_after(c_.streams.transfer, slot);
    state = DeviceState{};
    state = DeviceState{c_.pool.acquire(), c_.pool.acquire()};
    c_.clock.add_host_wait(worker_.wait(ticket));
    copy_fetched_into(state);
    restored_.record(c_.streams.transfer);
    c_.clock.timed_wait(c_.streams.compute, restored_);
  }
  maybe_prefetch();
}

void StagedHostTier::look_ahead() {
  upload_fetched();
  maybe_prefetch();
}

// The first restore ahead whose slot is not stored again before it: the worker gets it once the
// transfer stream is past the last copy out of the fetch staging; upload_fetched() copies the
// result to the device at the first call after that.
void StagedHostTier::maybe_prefetch() {
  if (staged_slot_ >= 0) return;
  const std::int64_t slot = ahead_.next(slots());
  if (slot < 0) return;
  NvtxRange range("prefetch");
  fetch_ticket_ = worker_.get_after(c_.streams.transfer, slot);
  staged_slot_ = slot;
  staged_uploaded_ = false;
  upload_fetched();
}

}  // namespace revwave
