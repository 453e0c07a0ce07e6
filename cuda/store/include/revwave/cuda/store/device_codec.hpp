// --compress fp16|bf16 on the CUDA backend: the cast kernels (cast_kernels.hpp) behind a
// type-erased codec that the checkpoint store calls. ZFP has no device codec here (Debian's
// libzfp has no CUDA execution): with zfp modes the device slots stay raw and only the pinned host
// slots are encoded, on the host (encoded_host_slots.hpp, behind staged_host_tier.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

class DeviceCodec {
 public:
  virtual ~DeviceCodec() = default;
  const Compression& compression() const { return c_; }
  // Bytes of one encoded field, and what a slot (two of them, each rounded up to 128 bytes) takes:
  // the same as the CPU's compressed slots (CompressedStore::slot_bytes_of), what plan_strategy charges.
  std::size_t encoded_bytes() const { return shape_.encoded_bytes(); }
  std::size_t stride() const { return (encoded_bytes() + 127) / 128 * 128; }
  std::size_t slot_bytes() const { return 2 * stride(); }
  std::size_t raw_bytes() const { return static_cast<std::size_t>(shape_.points()) * value_bytes_; }
  // What encoding (or decoding) `fields` fields did, for a store's statistics (the kernels' time is
  // the compute stream's: not measured apart).
  CompressionStats counted(int fields, bool encode) const {
    CompressionStats done;
    const auto n = static_cast<std::uint64_t>(fields);
    if (encode) {
      done.fields_compressed = n;
      done.raw_bytes = n * raw_bytes();
      done.compressed_bytes = n * encoded_bytes();
    } else {
      done.fields_decompressed = n;
    }
    return done;
  }
  // Enqueued on `stream`: reads `field` (encode) or writes its padded points (decode).
  virtual void encode(const void* field, void* out, cudaStream_t stream) = 0;
  virtual void decode(const void* in, void* field, cudaStream_t stream) = 0;

 protected:
  DeviceCodec(const Compression& c, const CastShape& s, std::size_t value_bytes) : c_(c), shape_(s), value_bytes_(value_bytes) {}
  Compression c_;
  CastShape shape_;
  std::size_t value_bytes_;
};

template <class T>
class CastCodec final : public DeviceCodec {
 public:
  CastCodec(const Compression& c, const Grid& g)
      : DeviceCodec(c, shape_of(c, g), sizeof(T)), alloc_points_(static_cast<std::size_t>(g.alloc_points())),
        reducer_(alloc_points_), peak_(sizeof(double), "the peak of a checkpoint being compressed") {}
  void encode(const void* field, void* out, cudaStream_t stream) override {
    const T* f = static_cast<const T*>(field);
    if (!shape_.bf16) reducer_.max_abs(f, alloc_points_, peak_.as<double>(), stream);  // the halo's zeros change nothing
    launch_encode<T>(shape_, f, peak_.as<const double>(), out, stream);
  }
  void decode(const void* in, void* field, cudaStream_t stream) override {
    launch_decode<T>(shape_, in, static_cast<T*>(field), stream);
  }

 private:
  static CastShape shape_of(const Compression& c, const Grid& g) {
    if (c.mode != CompressionMode::fp16 && c.mode != CompressionMode::bf16) {
      throw std::invalid_argument("CastCodec: fp16 or bf16 only, not " + c.text());
    }
    CastShape s;
    s.box0 = g.padded(0);
    s.box1 = g.padded(1);
    s.box2 = g.padded(2);
    s.sx = g.stride_x();
    s.sy = g.stride_y();
    s.origin = g.origin();
    s.bf16 = c.mode == CompressionMode::bf16;
    return s;
  }
  std::size_t alloc_points_;
  DeviceReducer<T> reducer_;
  DeviceBuffer peak_;
};

}  // namespace revwave
