// Lossy checkpoint compression: what the user chose (--compress), and the codec that turns one
// wavefield into compact bytes and back.
//
//   none            no codec: checkpoints stay handles to the state's fields (bit for bit).
//   fp16            IEEE binary16, round to nearest even, after scaling the field by a power of two
//                   so that its largest magnitude lies in [2^14, 2^15): nothing overflows (65504
//                   is never reached) and the scaling itself is exact. Per value
//                   |x - q(x)| <= 2^-11 |x| + 2^-39 max|x| (the second term: fp16's subnormals).
//                   Infinities and NaNs pass through as fp16 infinities and NaNs.
//   bf16            bfloat16 (float's exponent range, 8 significant bits), round to nearest even:
//                   |x - q(x)| <= 2^-8 |x| for every normal float; no scaling is needed. A double
//                   field goes through float first (a double beyond float's range becomes inf).
//   zfp-rate:R      ZFP fixed rate, R bits per value (0 < R <= 8 x value size); the size is exact,
//                   the error depends on the field's smoothness (no pointwise bound).
//   zfp-accuracy:E  ZFP fixed accuracy: |x - q(x)| <= E (absolute, in the wavefield's units);
//                   the size depends on the field, so a slot reserves ZFP's worst case for it
//                   (zfp_stream_maximum_size, slightly more than the raw field: this mode buys no
//                   extra slots under --checkpoint-memory; it is there to bound the error).
//
// Every codec reads and writes the padded points only (the halo and the row gaps stay zero, as the
// sweeps need them) and maps 0 to 0 exactly. A field with a tail (a C-PML's auxiliary values after
// the allocation, FieldLayout::tail) has the tail encoded by the same mode as a run of values of
// its own (fp16 with its own scale, ZFP as a 1D array, zfp-accuracy to E x tail_accuracy_scale),
// after the grid's encoding.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace revwave {

enum class CompressionMode { none, fp16, bf16, zfp_rate, zfp_accuracy };

struct Compression {
  CompressionMode mode = CompressionMode::none;
  double parameter = 0;  // zfp-rate: bits per value; zfp-accuracy: the absolute tolerance
  bool enabled() const { return mode != CompressionMode::none; }
  std::string text() const;  // as the user writes it: "none", "fp16", "zfp-rate:8"
};

// Parses --compress (none|fp16|bf16|zfp-rate:R|zfp-accuracy:E). An unknown mode, a missing or
// malformed number, R outside (0, 64] or E not finite and > 0 is an InputError naming the value
// and the rule. (R above 8 x the value size is refused by the codec, which knows the type.)
Compression parse_compression(const std::string& text);

// Where a wavefield's values lie in its allocation (the store part knows no Grid): `alloc`
// elements per axis (slowest first), the padded box of `box` points per axis starting at element
// `origin`, rows of alloc[2] elements, planes of alloc[1] x alloc[2].
struct FieldLayout {
  std::size_t value_bytes = 4;  // float or double
  std::array<std::int64_t, 3> alloc{};
  std::array<std::int64_t, 3> box{};
  std::int64_t origin = 0;
  std::int64_t tail = 0;  // values after the allocation (a C-PML's auxiliary values), 0 for none
  // zfp-accuracy:E holds the tail's values to E x tail_accuracy_scale: they are not in the
  // wavefield's units (field_layout gives 1 / h^2, see docs/physics/boundaries.md).
  double tail_accuracy_scale = 1.0;
  // Whole fields of the allocation's layout at the tail's start (VTI's second field): fp16 and bf16
  // encode them as tail values; ZFP, which would encode their halos and row gaps as values (no longer
  // exactly zero), refuses them.
  std::int64_t tail_fields = 0;
  std::size_t alloc_bytes() const;  // the allocated grid's bytes, without the tail
  std::size_t field_bytes() const;  // the whole field's: the allocation and the tail
  std::int64_t box_points() const { return box[0] * box[1] * box[2]; }
  std::int64_t encoded_values() const { return box_points() + tail; }  // what a codec encodes
  // The tail as a layout of its own: one row of `tail` values from the allocation's end.
  FieldLayout tail_layout() const;
};

// Where a tail's encoding starts after a grid's encoding of `grid_bytes` (at most): rounded up to
// 8 bytes, as ZFP reads its bit streams in 64-bit words. The CPU's codec and the device's alike.
inline std::size_t tail_encoding_offset(std::size_t grid_bytes) { return (grid_bytes + 7) / 8 * 8; }

// One codec per store: encodes a field into at most max_bytes() bytes and decodes it back.
// Not thread-safe for concurrent calls (one scratch stream).
class FieldCodec {
 public:
  // InputError when the mode does not fit the layout (a rate beyond the value size).
  FieldCodec(const Compression& c, const FieldLayout& layout);
  const Compression& compression() const { return c_; }
  const FieldLayout& layout() const { return layout_; }
  // The bytes one encoded field may take: exact for fp16, bf16 and zfp-rate (each encode
  // returns it), the reserved worst case for zfp-accuracy. With a tail, the tail's encoding
  // starts at tail_offset(): the grid's largest encoding rounded up to 8 bytes.
  std::size_t max_bytes() const { return max_bytes_; }
  std::size_t tail_offset() const { return tail_offset_; }
  // Encodes `field` (layout().field_bytes() bytes) into `out` (max_bytes()); returns the bytes used.
  std::size_t encode(const std::byte* field, std::byte* out) const;
  // Decodes into the padded points of `field`; the rest of `field` is left as it is (zeros).
  void decode(const std::byte* in, std::size_t bytes, std::byte* field) const;

 private:
  std::size_t encode_part(const FieldLayout& part, double accuracy_scale, const std::byte* field, std::byte* out,
                          std::size_t capacity) const;
  void decode_part(const FieldLayout& part, double accuracy_scale, const std::byte* in, std::size_t bytes,
                   std::byte* field) const;

  Compression c_;
  FieldLayout layout_;
  std::size_t max_bytes_ = 0, box_max_bytes_ = 0, tail_offset_ = 0;
};

// What a compressing store did so far.
struct CompressionStats {
  std::uint64_t raw_bytes = 0;         // fields encoded, at their uncompressed size (padded points)
  std::uint64_t compressed_bytes = 0;  // what they took encoded
  double seconds_compress = 0, seconds_decompress = 0;
  std::uint64_t fields_compressed = 0, fields_decompressed = 0;
  double ratio() const { return compressed_bytes > 0 ? double(raw_bytes) / double(compressed_bytes) : 1.0; }
  CompressionStats& operator+=(const CompressionStats& o);
};

}  // namespace revwave
