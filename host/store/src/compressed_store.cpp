// Compressed checkpoint slots: encode on store, decode into free pool fields on restore.
#include "revwave/store/compressed_store.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
std::size_t stride_of(const FieldCodec& c) { return (c.max_bytes() + 127) / 128 * 128; }
}  // namespace

CompressedStore::CompressedStore(std::int64_t slots, HostFieldPool& pool, const FieldCodec& codec)
    : pool_(pool), codec_(codec) {
  if (slots < 1) throw InputError("compressed checkpoint store: slots = " + std::to_string(slots) + " must be >= 1");
  if (codec.layout().field_bytes() != pool.field_bytes()) {
    throw std::invalid_argument("CompressedStore: the codec's fields are " + std::to_string(codec.layout().field_bytes()) +
                                " bytes, the pool's " + std::to_string(pool.field_bytes()));
  }
  slots_.reserve(static_cast<std::size_t>(slots));
  for (std::int64_t i = 0; i < slots; ++i) slots_.push_back(Slot{HostBuffer(2 * stride_of(codec_)), 0, 0});
}

CompressedStore::Slot& CompressedStore::checked(std::int64_t slot, const HostState& state) {
  if (slot < 0 || slot >= slots()) {
    throw std::out_of_range("CompressedStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots()) + ")");
  }
  if (state.u.bytes() != pool_.field_bytes() || state.u_prev.bytes() != pool_.field_bytes()) {
    throw std::invalid_argument("CompressedStore: state fields of " + std::to_string(state.u.bytes()) + " and " +
                                std::to_string(state.u_prev.bytes()) + " bytes, expected " +
                                std::to_string(pool_.field_bytes()) + " each");
  }
  return slots_[static_cast<std::size_t>(slot)];
}

void CompressedStore::store(std::int64_t slot, const HostState& state) {
  Slot& s = checked(slot, state);
  const auto t0 = std::chrono::steady_clock::now();
  std::byte* out = s.data.data();
  s.bytes_u = codec_.encode(state.u.data(), out);
  s.bytes_u_prev = codec_.encode(state.u_prev.data(), out + stride_of(codec_));
  stats_.seconds_compress += seconds_since(t0);
  stats_.fields_compressed += 2;
  stats_.raw_bytes += 2 * static_cast<std::uint64_t>(codec_.layout().box_points()) * codec_.layout().value_bytes;
  stats_.compressed_bytes += s.bytes_u + s.bytes_u_prev;
  copy_bytes_ += s.bytes_u + s.bytes_u_prev;
}

void CompressedStore::restore(std::int64_t slot, HostState& state, bool /*last_use*/) {
  Slot& s = checked(slot, state);
  if (s.bytes_u == 0) throw std::logic_error("CompressedStore: restore of slot " + std::to_string(slot) + ", which holds nothing");
  const auto t0 = std::chrono::steady_clock::now();
  state = HostState{};  // its fields may go back to the pool before two are taken
  HostState fresh{pool_.acquire(), pool_.acquire()};
  const std::byte* in = s.data.data();
  codec_.decode(in, s.bytes_u, fresh.u.data());
  codec_.decode(in + stride_of(codec_), s.bytes_u_prev, fresh.u_prev.data());
  state = std::move(fresh);
  stats_.seconds_decompress += seconds_since(t0);
  stats_.fields_decompressed += 2;
  copy_bytes_ += s.bytes_u + s.bytes_u_prev;
}

}  // namespace revwave
