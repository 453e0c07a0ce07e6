#include "revwave/cuda/store/device_checkpoint_store.hpp"

#include <stdexcept>
#include <string>

#include "revwave/cuda/runtime/cuda_error.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"

namespace revwave {
namespace {

constexpr std::size_t lookahead_limit = std::size_t(1) << 16;

}  // namespace

DeviceCheckpointStore::DeviceCheckpointStore(const TierSplit& split, DeviceFieldPool& pool, CudaStreams& streams,
                                             WriteFences& fences, SpillClock& clock, PrefetchHint* hint,
                                             DeviceCodec* codec, const FieldCodec* host_codec)
    : split_(split), pool_(pool), s_(streams), fences_(fences), clock_(clock), hint_(hint), codec_(codec) {
  if (codec_ && host_codec) throw std::logic_error("DeviceCheckpointStore: a device codec or a host codec, not both");
  if (codec_) {
    for (index_t i = 0; i < split_.device_slots; ++i)
      device_encoded_.emplace_back(codec_->slot_bytes(), "a compressed device checkpoint slot");
    for (index_t i = 0; i < split_.host_slots; ++i)
      host_encoded_.emplace_back(codec_->slot_bytes(), "a compressed pinned host checkpoint slot");
    if (split_.host_slots > 0) {
      spill_staging_ = DeviceBuffer(codec_->slot_bytes(), "the staging of compressed spills");
      fetch_staging_ = DeviceBuffer(codec_->slot_bytes(), "the staging of compressed prefetches");
    }
    return;
  }
  device_.resize(static_cast<std::size_t>(split_.device_slots));
  if (host_codec != nullptr) {
    if (host_codec->layout().field_bytes() != pool_.field_bytes()) {
      throw std::invalid_argument("DeviceCheckpointStore: the host codec's fields are not the pool's");
    }
    if (split_.host_slots > 0) host_ = std::make_unique<HostEncodedSlots>(split_.host_slots, *host_codec);
    return;
  }
  host_slots_.reserve(static_cast<std::size_t>(split_.host_slots));
  for (index_t i = 0; i < split_.host_slots; ++i)
    host_slots_.push_back({PinnedBuffer(pool.field_bytes(), "a wavefield of a pinned host checkpoint slot"),
                     PinnedBuffer(pool.field_bytes(), "a wavefield of a pinned host checkpoint slot")});
}

void DeviceCheckpointStore::check(std::int64_t slot) const {
  if (slot < 0 || slot >= slots()) throw std::out_of_range("checkpoint slot " + std::to_string(slot) + " out of range");
}

void DeviceCheckpointStore::copy_async(void* dst, const void* src, cudaMemcpyKind kind, cudaStream_t stream) {
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, pool_.field_bytes(), kind, stream));
  copy_bytes_ += pool_.field_bytes();
}

void DeviceCheckpointStore::count_encoded(int fields, bool encode) {
  if (encode) {
    stats_.fields_compressed += static_cast<std::uint64_t>(fields);
    stats_.raw_bytes += static_cast<std::uint64_t>(fields) * codec_->raw_bytes();
    stats_.compressed_bytes += static_cast<std::uint64_t>(fields) * codec_->encoded_bytes();
  } else {
    stats_.fields_decompressed += static_cast<std::uint64_t>(fields);
  }
}

void DeviceCheckpointStore::store_encoded(std::int64_t slot, const DeviceState& state) {
  const std::size_t stride = codec_->stride();
  if (!is_host(slot)) {
    auto* out = static_cast<unsigned char*>(device_encoded_[static_cast<std::size_t>(slot - split_.host_slots)].data());
    codec_->encode(state.u.data(), out, s_.compute);
    codec_->encode(state.u_prev.data(), out + stride, s_.compute);
  } else {
    NvtxRange spill("spill");
    // The staging buffer is free once the previous spill's copy is done.
    if (spill_pending_) clock_.timed_wait(s_.compute, spilled_);
    auto* staging = static_cast<unsigned char*>(spill_staging_.data());
    codec_->encode(state.u.data(), staging, s_.compute);
    codec_->encode(state.u_prev.data(), staging + stride, s_.compute);
    s_.after_compute(s_.transfer);
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(host_encoded_[static_cast<std::size_t>(slot)].data(), staging, codec_->slot_bytes(),
                                       cudaMemcpyDeviceToHost, s_.transfer));
    copy_bytes_ += codec_->slot_bytes();
    spilled_.record(s_.transfer);
    spill_pending_ = true;
    if (staged_slot_ == slot) staged_slot_ = -1;
  }
  count_encoded(2, true);
}

void DeviceCheckpointStore::restore_encoded(std::int64_t slot, DeviceState& state) {
  const std::size_t stride = codec_->stride();
  const unsigned char* in = nullptr;
  if (!is_host(slot)) {
    in = static_cast<const unsigned char*>(device_encoded_[static_cast<std::size_t>(slot - split_.host_slots)].data());
  } else {
    if (staged_slot_ == slot) {
      clock_.timed_wait(s_.compute, prefetched_);
      ++prefetch_hits_;
    } else {
      // The fetch staging may hold another slot read ahead: that read-ahead is dropped.
      s_.after_compute(s_.transfer);  // the staging's last decode is done before it is overwritten
      REVWAVE_CUDA_CHECK(cudaMemcpyAsync(fetch_staging_.data(), host_encoded_[static_cast<std::size_t>(slot)].data(),
                                         codec_->slot_bytes(), cudaMemcpyHostToDevice, s_.transfer));
      copy_bytes_ += codec_->slot_bytes();
      restored_.record(s_.transfer);
      clock_.timed_wait(s_.compute, restored_);
    }
    staged_slot_ = -1;
    in = static_cast<const unsigned char*>(fetch_staging_.data());
  }
  state = DeviceState{};
  state = DeviceState{pool_.acquire(), pool_.acquire()};
  codec_->decode(in, state.u.data(), s_.compute);
  codec_->decode(in + stride, state.u_prev.data(), s_.compute);
  count_encoded(2, false);
}

void DeviceCheckpointStore::store(std::int64_t slot, const DeviceState& state) {
  check(slot);
  NvtxRange range("store");
  upload_decoded();
  if (codec_) {
    store_encoded(slot, state);
  } else if (!is_host(slot)) {
    device_[static_cast<std::size_t>(slot - split_.host_slots)] = state;
  } else if (host_) {
    spill_for_host_codec(slot, state);
  } else {
    NvtxRange spill("spill");
    HostSlot& h = host_slots_[static_cast<std::size_t>(slot)];
    s_.after_compute(s_.transfer);
    copy_async(h.u_prev.data(), state.u_prev.data(), cudaMemcpyDeviceToHost, s_.transfer);
    fences_.arm(state.u_prev.data(), s_.transfer, true);
    copy_async(h.u.data(), state.u.data(), cudaMemcpyDeviceToHost, s_.transfer);
    fences_.arm(state.u.data(), s_.transfer, true);
    spilling_ = state;  // lets go of the previous spill's fields: their fences keep them until it is done
    if (staged_slot_ == slot) staged_slot_ = -1;  // cannot happen with the lookahead rule; kept safe
  }
  maybe_prefetch();
}

void DeviceCheckpointStore::restore(std::int64_t slot, DeviceState& state, bool last_use) {
  check(slot);
  NvtxRange range("restore");
  upload_decoded();
  if (codec_) {
    restore_encoded(slot, state);
  } else if (host_ && is_host(slot)) {
    restore_from_host_codec(slot, state);
  } else if (!is_host(slot)) {
    DeviceState& d = device_[static_cast<std::size_t>(slot - split_.host_slots)];
    if (!d.u) throw std::logic_error("restore of device checkpoint slot " + std::to_string(slot) + ", which holds nothing");
    if (last_use) {
      state = std::move(d);
      d = DeviceState{};
    } else {
      state = d;
    }
  } else if (staged_slot_ == slot) {
    clock_.timed_wait(s_.compute, prefetched_);
    state = std::move(staged_);
    staged_ = DeviceState{};
    staged_slot_ = -1;
    ++prefetch_hits_;
  } else {
    HostSlot& h = host_slots_[static_cast<std::size_t>(slot)];
    state = DeviceState{};
    state = DeviceState{pool_.acquire(), pool_.acquire()};
    s_.after_compute(s_.transfer);  // the fields' last readers on the compute stream are done
    copy_async(state.u.data(), h.u.data(), cudaMemcpyHostToDevice, s_.transfer);
    copy_async(state.u_prev.data(), h.u_prev.data(), cudaMemcpyHostToDevice, s_.transfer);
    restored_.record(s_.transfer);
    clock_.timed_wait(s_.compute, restored_);
  }
  maybe_prefetch();
}

void DeviceCheckpointStore::spill_for_host_codec(std::int64_t slot, const DeviceState& state) {
  NvtxRange spill("spill");
  // The staging is free once the worker has encoded the previous spill out of it.
  if (spill_ticket_ > 0) clock_.add_host_wait(host_->wait(spill_ticket_));
  s_.after_compute(s_.transfer);
  copy_async(host_->spill_field(1), state.u_prev.data(), cudaMemcpyDeviceToHost, s_.transfer);
  fences_.arm(state.u_prev.data(), s_.transfer, true);
  copy_async(host_->spill_field(0), state.u.data(), cudaMemcpyDeviceToHost, s_.transfer);
  fences_.arm(state.u.data(), s_.transfer, true);
  spilling_ = state;
  spill_ticket_ = host_->encode_after(s_.transfer, slot);
  if (staged_slot_ == slot) {  // cannot happen with the lookahead rule; kept safe
    if (!staged_uploaded_) clock_.add_host_wait(host_->wait(fetch_ticket_));
    staged_ = DeviceState{};
    staged_slot_ = -1;
  }
}

// A decoded prefetch, once the worker is done with it, into free fields of the pool (asynchronous).
void DeviceCheckpointStore::upload_decoded() {
  if (!host_ || staged_slot_ < 0 || staged_uploaded_ || !host_->done(fetch_ticket_)) return;
  host_->wait(fetch_ticket_);  // rethrows what the worker failed with
  staged_ = DeviceState{pool_.acquire(), pool_.acquire()};
  s_.after_compute(s_.transfer);  // free fields: their last compute-stream users are enqueued already
  copy_async(staged_.u.data(), host_->fetch_field(0), cudaMemcpyHostToDevice, s_.transfer);
  copy_async(staged_.u_prev.data(), host_->fetch_field(1), cudaMemcpyHostToDevice, s_.transfer);
  prefetched_.record(s_.transfer);
  staged_uploaded_ = true;
}

void DeviceCheckpointStore::restore_from_host_codec(std::int64_t slot, DeviceState& state) {
  if (staged_slot_ == slot) {
    if (!staged_uploaded_) {  // the worker is still decoding it: wait, then copy
      clock_.add_host_wait(host_->wait(fetch_ticket_));
      upload_decoded();
    }
    clock_.timed_wait(s_.compute, prefetched_);
    state = std::move(staged_);
    staged_ = DeviceState{};
    staged_slot_ = -1;
    ++prefetch_hits_;
    return;
  }
  // Not read ahead. A read-ahead of another slot still in the fetch staging goes to the device first.
  if (staged_slot_ >= 0 && !staged_uploaded_) {
    clock_.add_host_wait(host_->wait(fetch_ticket_));
    upload_decoded();
  }
  const std::uint64_t ticket = host_->decode_after(s_.transfer, slot);
  state = DeviceState{};
  state = DeviceState{pool_.acquire(), pool_.acquire()};
  clock_.add_host_wait(host_->wait(ticket));
  s_.after_compute(s_.transfer);  // the fields' last readers on the compute stream are done
  copy_async(state.u.data(), host_->fetch_field(0), cudaMemcpyHostToDevice, s_.transfer);
  copy_async(state.u_prev.data(), host_->fetch_field(1), cudaMemcpyHostToDevice, s_.transfer);
  restored_.record(s_.transfer);
  clock_.timed_wait(s_.compute, restored_);
}

// The first pinned restore ahead whose slot is not stored again before it: fetch it now.
void DeviceCheckpointStore::maybe_prefetch() {
  if (hint_ == nullptr || split_.host_slots == 0 || staged_slot_ >= 0) return;
  const std::int64_t slot = hint_->next_restore(0, split_.host_slots, lookahead_limit);
  if (slot < 0) return;  // none ahead, or its slot is stored again first: wait until that store has happened
  NvtxRange range("prefetch");
  if (host_) {
    // The worker decodes once the transfer stream is past the last copy out of the fetch staging;
    // upload_decoded() copies the result to the device at the first store or restore after that.
    fetch_ticket_ = host_->decode_after(s_.transfer, slot);
    staged_slot_ = slot;
    staged_uploaded_ = false;
    upload_decoded();
    return;
  }
  if (codec_) {
    s_.after_compute(s_.transfer);  // the staging's last decode is enqueued already
    REVWAVE_CUDA_CHECK(cudaMemcpyAsync(fetch_staging_.data(), host_encoded_[static_cast<std::size_t>(slot)].data(),
                                       codec_->slot_bytes(), cudaMemcpyHostToDevice, s_.transfer));
    copy_bytes_ += codec_->slot_bytes();
    prefetched_.record(s_.transfer);
    staged_slot_ = slot;
    return;
  }
  HostSlot& h = host_slots_[static_cast<std::size_t>(slot)];
  staged_ = DeviceState{pool_.acquire(), pool_.acquire()};
  s_.after_compute(s_.transfer);  // free fields: their last compute-stream users are enqueued already
  copy_async(staged_.u.data(), h.u.data(), cudaMemcpyHostToDevice, s_.transfer);
  copy_async(staged_.u_prev.data(), h.u_prev.data(), cudaMemcpyHostToDevice, s_.transfer);
  prefetched_.record(s_.transfer);
  staged_slot_ = slot;
}

}  // namespace revwave
