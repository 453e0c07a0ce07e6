// ZFP-encoded host slots: the worker's side of the ZFP pinned tier.
#include "revwave/cuda/store/encoded_host_slots.hpp"

#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {

EncodedHostSlots::EncodedHostSlots(std::int64_t slots, const FieldCodec& codec) : codec_(codec) {
  if (slots < 1) throw InputError("encoded host checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i) slots_.emplace_back(codec_);
}

CompressionStats EncodedHostSlots::put(std::int64_t slot, const std::byte* u, const std::byte* u_prev) {
  return slots_.at(static_cast<std::size_t>(slot)).encode(codec_, u, u_prev);
}

CompressionStats EncodedHostSlots::get(std::int64_t slot, std::byte* u, std::byte* u_prev) {
  const EncodedSlot& s = slots_.at(static_cast<std::size_t>(slot));
  if (s.empty()) {
    throw std::logic_error("restore of encoded host checkpoint slot " + std::to_string(slot) + ", which holds nothing");
  }
  return s.decode(codec_, u, u_prev);
}

}  // namespace revwave
