// ZFP-encoded checkpoint slots in host memory (--compress zfp-rate|zfp-accuracy on the CUDA
// backend, whose pinned tier they are): the medium a host worker encodes spills into and decodes
// restores out of, with the CPU backend's codec (Debian's libzfp has no CUDA execution). Each
// slot is allocated up front at the codec's largest (CompressedStore::slot_bytes_of).
#pragma once
#include <cstdint>
#include <vector>

#include "revwave/cuda/store/host_staging_worker.hpp"
#include "revwave/store/compressed_store.hpp"

namespace revwave {

class EncodedHostSlots final : public HostSlotMedium {
 public:
  // slots >= 1 (InputError); the codec is copied. Allocation failure is an OutOfMemoryError.
  EncodedHostSlots(std::int64_t slots, const FieldCodec& codec);

  std::int64_t slots() const override { return static_cast<std::int64_t>(slots_.size()); }
  std::size_t field_bytes() const override { return codec_.layout().field_bytes(); }
  std::size_t slot_bytes() const override { return CompressedStore::slot_bytes_of(codec_); }
  CompressionStats put(std::int64_t slot, const std::byte* u, const std::byte* u_prev) override;
  // A slot never stored is a std::logic_error.
  CompressionStats get(std::int64_t slot, std::byte* u, std::byte* u_prev) override;

 private:
  FieldCodec codec_;
  std::vector<EncodedSlot> slots_;
};

}  // namespace revwave
