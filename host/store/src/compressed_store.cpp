// Compressed checkpoint slots: encode on store, decode into free pool fields on restore.
#include "revwave/store/compressed_store.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/core/seconds_since.hpp"

namespace revwave {

CompressionStats EncodedSlot::encode(const FieldCodec& codec, const std::byte* u, const std::byte* u_prev) {
  const auto t0 = std::chrono::steady_clock::now();
  bytes_[0] = codec.encode(u, data_.data());
  bytes_[1] = codec.encode(u_prev, data_.data() + stride(codec));
  CompressionStats done;
  done.seconds_compress = seconds_since(t0);
  done.fields_compressed = 2;
  done.raw_bytes = 2 * static_cast<std::uint64_t>(codec.layout().encoded_values()) * codec.layout().value_bytes;
  done.compressed_bytes = bytes();
  return done;
}

CompressionStats EncodedSlot::decode(const FieldCodec& codec, std::byte* u, std::byte* u_prev) const {
  const auto t0 = std::chrono::steady_clock::now();
  codec.decode(data_.data(), bytes_[0], u);
  codec.decode(data_.data() + stride(codec), bytes_[1], u_prev);
  CompressionStats done;
  done.seconds_decompress = seconds_since(t0);
  done.fields_decompressed = 2;
  return done;
}

CompressedStore::CompressedStore(std::int64_t slots, HostFieldPool& pool, const FieldCodec& codec)
    : pool_(pool), codec_(codec) {
  if (slots < 1) throw InputError("compressed checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  if (codec.layout().field_bytes() != pool.field_bytes()) {
    throw std::invalid_argument("CompressedStore: the codec's fields are " +
                                std::to_string(codec.layout().field_bytes()) + " bytes, the pool's " +
                                std::to_string(pool.field_bytes()));
  }
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i) slots_.emplace_back(codec_);
}

EncodedSlot& CompressedStore::checked(std::int64_t slot, const HostState& state) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("CompressedStore: slot " + std::to_string(slot) + " outside [0, " +
                            std::to_string(slots()) + ")");
  }
  if (state.u.bytes() != pool_.field_bytes() || state.u_prev.bytes() != pool_.field_bytes()) {
    throw std::invalid_argument("CompressedStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " +
                                std::to_string(pool_.field_bytes()) + " each");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void CompressedStore::store(std::int64_t slot, const HostState& state) {
  EncodedSlot& s = checked(slot, state);
  stats_ += s.encode(codec_, state.u.data(), state.u_prev.data());
  copy_bytes_ += s.bytes();
}

void CompressedStore::restore(std::int64_t slot, HostState& state, bool /*last_use*/) {
  const EncodedSlot& s = checked(slot, state);
  if (s.empty())
    throw std::logic_error("CompressedStore: restore of slot " + std::to_string(slot) + ", which holds nothing");
  state = HostState{};  // its fields may go back to the pool before two are taken
  HostState fresh{pool_.acquire(), pool_.acquire()};
  stats_ += s.decode(codec_, fresh.u.data(), fresh.u_prev.data());
  state = std::move(fresh);
  copy_bytes_ += s.bytes();
}

}  // namespace revwave
