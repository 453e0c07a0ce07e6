// fp16 / bf16 device slots: encode kernels into the slot on store, decode kernels on restore, or
// both left to the steps through the fused codec.
#include "revwave/cuda/store/encoded_device_slots.hpp"

#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/cuda/runtime/nvtx_range.hpp"
#include "revwave/cuda/store/fused_codec.hpp"

namespace revwave {

EncodedDeviceSlots::EncodedDeviceSlots(std::int64_t slots, const DeviceStoreContext& context, DeviceCodec& codec)
    : c_(context), codec_(codec) {
  if (slots < 1)
    throw InputError("compressed device checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i)
    slots_.emplace_back(codec_.slot_bytes(), "a compressed device checkpoint slot");
  filled_.assign(static_cast<std::size_t>(slots), false);
}

DeviceBuffer& EncodedDeviceSlots::checked(std::int64_t slot) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("compressed device checkpoint slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(slots()) + ")");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void EncodedDeviceSlots::store(std::int64_t slot, const DeviceState& state) {
  auto* out = static_cast<unsigned char*>(checked(slot).data());
  NvtxRange range("store");
  if (FusedCodec* f = fused()) {
    f->defer_encode(state, out);  // the next forward sweep writes the bytes
  } else {
    codec_.encode(state.u.data(), out, c_.streams.compute);
    codec_.encode(state.u_prev.data(), out + codec_.stride(), c_.streams.compute);
  }
  filled_[static_cast<std::size_t>(slot)] = true;
  stats_ += codec_.counted(2, true);
}

void EncodedDeviceSlots::restore(std::int64_t slot, DeviceState& state, bool /*last_use*/) {
  const auto* in = static_cast<const unsigned char*>(checked(slot).data());
  if (!filled_[static_cast<std::size_t>(slot)]) {
    throw std::logic_error("restore of compressed device checkpoint slot " + std::to_string(slot) +
                           ", which holds nothing");
  }
  NvtxRange range("restore");
  if (FusedCodec* f = fused()) {
    f->flush();  // what is pending may write this slot, or hold the state's fields
    take_fresh_fields(c_, state);
    f->defer_decode(in, state);  // the next forward step reads the bytes
  } else {
    decode_into_state(c_, codec_, in, state);
  }
  stats_ += codec_.counted(2, false);
}

FusedCodec* EncodedDeviceSlots::fused() const {
  return c_.fused != nullptr && &c_.fused->codec() == &codec_ ? c_.fused : nullptr;
}

void take_fresh_fields(const DeviceStoreContext& c, DeviceState& state) {
  state = DeviceState{};  // its fields may go back to the pool before two are taken
  state = DeviceState{c.pool.acquire(), c.pool.acquire()};
  for (DeviceField* f : {&state.u, &state.u_prev}) c.fences.before_write(f->data(), c.streams.compute, &c.clock);
}

void decode_into_state(const DeviceStoreContext& c, DeviceCodec& codec, const unsigned char* in, DeviceState& state) {
  take_fresh_fields(c, state);
  codec.decode(in, state.u.data(), c.streams.compute);
  codec.decode(in + codec.stride(), state.u_prev.data(), c.streams.compute);
}

}  // namespace revwave
