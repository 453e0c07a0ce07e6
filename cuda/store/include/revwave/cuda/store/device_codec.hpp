// --compress fp16|bf16 on the CUDA backend: the cast kernels (cast_kernels.hpp) behind a
// type-erased codec that the checkpoint store calls. ZFP has no device codec here (Debian's
// libzfp has no CUDA execution): with zfp modes the device slots stay raw and only the pinned host
// slots are encoded, on the host (encoded_host_slots.hpp, behind staged_host_tier.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/kernels/reductions.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

// What a store and a restore of a state in encoded device slots cost, in forward steps, modelled
// from the bytes a point they move beyond a step's (the sweeps are bandwidth-bound; a forward step
// of T-valued fields moves 4 sizeof(T): u, u_prev, m read, out written). Fused (fused_codec.hpp):
// a store writes the two encodings in the next sweep (4 bytes), after fp16's peak reductions read
// both fields (2 sizeof(T)); the first step after a restore reads 4 encoded bytes where it would
// read 2 sizeof(T) and writes u[n] decoded (sizeof(T)): nothing in float. With the cast kernels a
// store reads both fields for the peaks (fp16) and again to encode, and writes 4 bytes; a restore
// reads 4 and writes 2 sizeof(T). A restore followed by a reverse step rather than an advance has
// its decode done by the cast kernels, fused or not: the model counts the fused cost for it.
struct CodecCosts {
  double store = 0, restore = 0;
};
inline CodecCosts codec_costs(bool bf16, std::size_t value_bytes, bool fused) {
  const double v = double(value_bytes), step = 4 * v, peaks = bf16 ? 0 : 2 * v;
  if (fused) return {(peaks + 4) / step, (4 - v > 0 ? 4 - v : 0) / step};
  return {(peaks + 2 * v + 4) / step, (4 + 2 * v) / step};
}

class DeviceCodec {
 public:
  virtual ~DeviceCodec() = default;
  const Compression& compression() const { return c_; }
  // Bytes of one encoded field, and what a slot (two of them, each rounded up to 128 bytes) takes:
  // the same as the CPU's compressed slots (CompressedStore::slot_bytes_of), what plan_strategy charges.
  // With a tail (a C-PML's values) its encoding follows the grid's at tail_offset(), as on the CPU
  // (FieldCodec).
  std::size_t tail_offset() const { return tail_encoding_offset(shape_.encoded_bytes()); }
  std::size_t encoded_bytes() const {
    return tail_.points() > 0 ? tail_offset() + tail_.encoded_bytes() : shape_.encoded_bytes();
  }
  std::size_t stride() const { return (encoded_bytes() + 127) / 128 * 128; }
  std::size_t slot_bytes() const { return 2 * stride(); }
  std::size_t raw_bytes() const { return static_cast<std::size_t>(shape_.points() + tail_.points()) * value_bytes_; }
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
  bool bf16() const { return shape_.bf16; }
  std::size_t value_bytes() const { return value_bytes_; }
  // Enqueued on `stream`: reads `field` (encode) or writes its padded points (decode).
  void encode(const void* field, void* out, cudaStream_t stream) {
    measure_peak(field, 0, stream);
    encode_measured(field, 0, out, stream);
  }
  virtual void decode(const void* in, void* field, cudaStream_t stream) = 0;
  // An encode in two parts, for the fused codec (fused_codec.hpp), which measures a state's peaks
  // when it is stored and encodes it later: fp16's peak of `field` into peak slot `which` (0: the
  // plain encode's; 2 and 3: the fused codec's), and the encode that uses it. bf16 needs no peak.
  static constexpr int peak_slots = 4;
  virtual void measure_peak(const void* field, int which, cudaStream_t stream) = 0;
  virtual const double* peak(int which) const = 0;
  virtual void encode_measured(const void* field, int which, void* out, cudaStream_t stream) = 0;

 protected:
  DeviceCodec(const Compression& c, const CastShape& s, const CastShape& tail, std::size_t value_bytes)
      : c_(c), shape_(s), tail_(tail), value_bytes_(value_bytes) {}
  Compression c_;
  CastShape shape_, tail_;  // tail_: no points without a C-PML
  std::size_t value_bytes_;
};

template <class T>
class CastCodec final : public DeviceCodec {
 public:
  CastCodec(const Compression& c, const Grid& g)
      : DeviceCodec(c, shape_of(c, g), tail_of(c, g), sizeof(T)),
        alloc_points_(static_cast<std::size_t>(g.alloc_points())),
        reducer_(std::max(alloc_points_, static_cast<std::size_t>(g.cpml_values()))),
        peaks_(2 * peak_slots * sizeof(double), "the peaks of checkpoints being compressed") {}
  void measure_peak(const void* field, int which, cudaStream_t stream) override {
    if (shape_.bf16) return;
    // The whole allocation: the halo's zeros change nothing. A tail has a peak (and a scale) of its
    // own, in peak slot which + peak_slots.
    reducer_.max_abs(static_cast<const T*>(field), alloc_points_, peaks_.as<double>() + which, stream);
    if (tail_.points() > 0) {
      reducer_.max_abs(static_cast<const T*>(field) + alloc_points_, static_cast<std::size_t>(tail_.points()),
                       peaks_.as<double>() + peak_slots + which, stream);
    }
  }
  const double* peak(int which) const override { return peaks_.as<const double>() + which; }
  void encode_measured(const void* field, int which, void* out, cudaStream_t stream) override {
    launch_encode<T>(shape_, static_cast<const T*>(field), peak(which), out, stream);
    if (tail_.points() > 0) {
      launch_encode<T>(tail_, static_cast<const T*>(field), peak(peak_slots + which),
                       static_cast<unsigned char*>(out) + tail_offset(), stream);
    }
  }
  void decode(const void* in, void* field, cudaStream_t stream) override {
    launch_decode<T>(shape_, in, static_cast<T*>(field), stream);
    if (tail_.points() > 0)
      launch_decode<T>(tail_, static_cast<const unsigned char*>(in) + tail_offset(), static_cast<T*>(field), stream);
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
  // A C-PML's tail as one row of values from the allocation's end (no points without one).
  static CastShape tail_of(const Compression& c, const Grid& g) {
    CastShape s;
    if (g.cpml_values() == 0) return s;
    s.box0 = s.box1 = 1;
    s.box2 = s.sx = s.sy = g.cpml_values();
    s.origin = g.alloc_points();
    s.bf16 = c.mode == CompressionMode::bf16;
    return s;
  }
  std::size_t alloc_points_;
  DeviceReducer<T> reducer_;
  DeviceBuffer peaks_;
};

}  // namespace revwave
