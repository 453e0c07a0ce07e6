// Checkpoint compression: fp16 / bf16 conversion loops (integer arithmetic, branch-free so that
// the compiler vectorises them; rows in parallel with OpenMP) and ZFP through libzfp.
#include "revwave/store/compression.hpp"

#include <zfp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/store/half_precision.hpp"

namespace revwave {
namespace {

constexpr const char* modes_rule =
    "none, fp16, bf16, zfp-rate:R (bits per value, > 0) or zfp-accuracy:E (absolute error, > 0)";

// fp16 needs a header: the power-of-two exponent the field was scaled by.
constexpr std::size_t fp16_header = 8;

// The casts stream memory at several GB/s on one core: threads pay off only on large fields (and
// cost more than they save where the cores are shared: a thread descheduled at the barrier).
constexpr std::int64_t parallel_points = std::int64_t(1) << 22;

// Calls row(src_offset, dst_offset) for every row of the padded box: offsets in values, the source
// row in the field's allocation, the destination packed (box rows back to back).
template <class Row>
void for_each_row(const FieldLayout& l, Row&& row) {
  const std::int64_t rows = l.box[0] * l.box[1];
  const std::int64_t sx = l.alloc[1] * l.alloc[2], sy = l.alloc[2];
#pragma omp parallel for schedule(static) if (l.box_points() >= parallel_points)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t i = r / l.box[1], j = r % l.box[1];
    row(l.origin + i * sx + j * sy, r * l.box[2]);
  }
}

template <class T>
double max_magnitude(const T* field, const FieldLayout& l) {
  const std::int64_t rows = l.box[0] * l.box[1];
  const std::int64_t sx = l.alloc[1] * l.alloc[2], sy = l.alloc[2];
  double m = 0;
#pragma omp parallel for schedule(static) reduction(max : m) if (l.box_points() >= parallel_points)
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* p = field + l.origin + (r / l.box[1]) * sx + (r % l.box[1]) * sy;
    T rm = 0, nan = 0;  // nan: 0 unless the row holds a NaN or an infinity (x * 0)
#pragma omp simd reduction(max : rm) reduction(+ : nan)
    for (std::int64_t k = 0; k < l.box[2]; ++k) {
      rm = std::max(rm, std::abs(p[k]));
      nan += p[k] * T(0);
    }
    m = std::max(m, nan == 0 ? static_cast<double>(rm) : std::numeric_limits<double>::infinity());
  }
  return m;
}

template <class T>
std::size_t encode_fp16(const T* field, const FieldLayout& l, std::byte* out) {
  const std::int32_t shift = fp16_shift(max_magnitude(field, l));
  std::memset(out, 0, fp16_header);
  std::memcpy(out, &shift, sizeof shift);
  const T scale = std::ldexp(T(1), shift);
  auto* h = reinterpret_cast<std::uint16_t*>(out + fp16_header);
  for_each_row(l, [&](std::int64_t src, std::int64_t dst) {
    const T* p = field + src;
    std::uint16_t* q = h + dst;
#pragma omp simd
    for (std::int64_t k = 0; k < l.box[2]; ++k) q[k] = float_to_half(static_cast<float>(p[k] * scale));
  });
  return fp16_header + 2 * static_cast<std::size_t>(l.box_points());
}

template <class T>
void decode_fp16(const std::byte* in, const FieldLayout& l, T* field) {
  std::int32_t shift = 0;
  std::memcpy(&shift, in, sizeof shift);
  const T unscale = std::ldexp(T(1), -shift);
  const auto* h = reinterpret_cast<const std::uint16_t*>(in + fp16_header);
  for_each_row(l, [&](std::int64_t dst, std::int64_t src) {
    T* p = field + dst;
    const std::uint16_t* q = h + src;
#pragma omp simd
    for (std::int64_t k = 0; k < l.box[2]; ++k) p[k] = static_cast<T>(half_to_float(q[k])) * unscale;
  });
}

template <class T>
std::size_t encode_bf16(const T* field, const FieldLayout& l, std::byte* out) {
  auto* b = reinterpret_cast<std::uint16_t*>(out);
  for_each_row(l, [&](std::int64_t src, std::int64_t dst) {
    const T* p = field + src;
    std::uint16_t* q = b + dst;
#pragma omp simd
    for (std::int64_t k = 0; k < l.box[2]; ++k) q[k] = float_to_bfloat(static_cast<float>(p[k]));
  });
  return 2 * static_cast<std::size_t>(l.box_points());
}

template <class T>
void decode_bf16(const std::byte* in, const FieldLayout& l, T* field) {
  const auto* b = reinterpret_cast<const std::uint16_t*>(in);
  for_each_row(l, [&](std::int64_t dst, std::int64_t src) {
    T* p = field + dst;
    const std::uint16_t* q = b + src;
#pragma omp simd
    for (std::int64_t k = 0; k < l.box[2]; ++k) p[k] = static_cast<T>(bfloat_to_float(q[k]));
  });
}

// ZFP: the padded box as a strided 3D field over the allocation (z fastest); a plane's (ny = 1, one
// padded row) as a 2D field, where ZFP's 4 x 4 x 4 blocks would be three quarters padding; one row
// (a C-PML's tail) as a 1D field.
struct ZfpHandles {
  zfp_field* field = nullptr;
  zfp_stream* stream = nullptr;
  bitstream* bits = nullptr;
  ~ZfpHandles() {
    if (bits) stream_close(bits);
    if (stream) zfp_stream_close(stream);
    if (field) zfp_field_free(field);
  }
};

// zfp-accuracy holds the values to c.parameter x accuracy_scale (a tail's scale, 1 for a grid).
void setup_zfp(ZfpHandles& z, const Compression& c, const FieldLayout& l, const void* base, double accuracy_scale) {
  const zfp_type type = l.value_bytes == 4 ? zfp_type_float : zfp_type_double;
  // No base (the size query, which reads the field's shape only): no offset from a null pointer.
  auto* origin = base == nullptr
                     ? nullptr
                     : static_cast<const std::byte*>(base) + static_cast<std::size_t>(l.origin) * l.value_bytes;
  const bool row = l.box[0] == 1 && l.box[1] == 1, plane = !row && l.box[1] == 1;
  if (row) {
    z.field = zfp_field_1d(const_cast<std::byte*>(origin), type, static_cast<size_t>(l.box[2]));
  } else if (plane) {
    z.field = zfp_field_2d(const_cast<std::byte*>(origin), type, static_cast<size_t>(l.box[2]),
                           static_cast<size_t>(l.box[0]));
    if (z.field) zfp_field_set_stride_2d(z.field, 1, l.alloc[1] * l.alloc[2]);
  } else {
    z.field = zfp_field_3d(const_cast<std::byte*>(origin), type, static_cast<size_t>(l.box[2]),
                           static_cast<size_t>(l.box[1]), static_cast<size_t>(l.box[0]));
    if (z.field) zfp_field_set_stride_3d(z.field, 1, l.alloc[2], l.alloc[1] * l.alloc[2]);
  }
  z.stream = zfp_stream_open(nullptr);
  if (!z.field || !z.stream) throw std::bad_alloc();
  if (c.mode == CompressionMode::zfp_rate)
    zfp_stream_set_rate(z.stream, c.parameter, type, row ? 1 : plane ? 2 : 3, zfp_false);
  else
    zfp_stream_set_accuracy(z.stream, c.parameter * accuracy_scale);
}

}  // namespace

std::string Compression::text() const {
  switch (mode) {
    case CompressionMode::none: return "none";
    case CompressionMode::fp16: return "fp16";
    case CompressionMode::bf16: return "bf16";
    case CompressionMode::zfp_rate: return "zfp-rate:" + number_text(parameter);
    case CompressionMode::zfp_accuracy: return "zfp-accuracy:" + number_text(parameter);
  }
  return "?";
}

Compression parse_compression(const std::string& text) {
  if (text == "none") return {};
  if (text == "fp16") return {CompressionMode::fp16, 0};
  if (text == "bf16") return {CompressionMode::bf16, 0};
  const auto colon = text.find(':');
  const std::string mode = text.substr(0, colon);
  if (mode == "zfp-rate" || mode == "zfp-accuracy") {
    if (colon == std::string::npos) {
      throw InputError("--compress '" + text + "' is invalid: " + mode + " needs its number, " +
                       (mode == "zfp-rate" ? "zfp-rate:R (bits per value, e.g. zfp-rate:8)"
                                           : "zfp-accuracy:E (e.g. zfp-accuracy:1e-6)"));
    }
    const std::string number = text.substr(colon + 1);
    if (mode == "zfp-rate") {
      return {CompressionMode::zfp_rate,
              parse_number("--compress " + mode + " rate (bits per value)", number, {0.0, 64.0, true, false})};
    }
    return {CompressionMode::zfp_accuracy, parse_number("--compress " + mode + " tolerance", number, positive())};
  }
  throw InputError("--compress '" + text + "' is unknown: use " + modes_rule);
}

std::size_t FieldLayout::alloc_bytes() const {
  return static_cast<std::size_t>(alloc[0] * alloc[1] * alloc[2]) * value_bytes;
}

std::size_t FieldLayout::field_bytes() const { return alloc_bytes() + static_cast<std::size_t>(tail) * value_bytes; }

FieldLayout FieldLayout::tail_layout() const {
  FieldLayout t;
  t.value_bytes = value_bytes;
  t.alloc = {1, 1, tail};
  t.box = {1, 1, tail};
  t.origin = alloc[0] * alloc[1] * alloc[2];
  return t;
}

namespace {

// The largest encoding of one part (the grid's padded box, or a tail) in mode c.
std::size_t part_max_bytes(const Compression& c, const FieldLayout& part, double accuracy_scale) {
  const auto points = static_cast<std::size_t>(part.box_points());
  switch (c.mode) {
    case CompressionMode::none: break;
    case CompressionMode::fp16: return fp16_header + 2 * points;
    case CompressionMode::bf16: return 2 * points;
    case CompressionMode::zfp_rate:
    case CompressionMode::zfp_accuracy: {
      ZfpHandles z;
      setup_zfp(z, c, part, nullptr, accuracy_scale);
      return zfp_stream_maximum_size(z.stream, z.field);
    }
  }
  throw std::invalid_argument("FieldCodec: no codec for --compress none");
}

}  // namespace

FieldCodec::FieldCodec(const Compression& c, const FieldLayout& layout) : c_(c), layout_(layout) {
  if (layout.value_bytes != 4 && layout.value_bytes != 8)
    throw std::invalid_argument("FieldCodec: values of 4 or 8 bytes");
  if (layout.tail < 0) throw std::invalid_argument("FieldCodec: a negative tail");
  const double bits = 8.0 * double(layout.value_bytes);
  if (c.mode == CompressionMode::zfp_rate && c.parameter > bits) {
    throw InputError("--compress " + c.text() + " is invalid: the rate must be at most " + number_text(bits) +
                     " bits per value for " + (layout.value_bytes == 4 ? "float" : "double") + " wavefields");
  }
  const bool zfp = c.mode == CompressionMode::zfp_rate || c.mode == CompressionMode::zfp_accuracy;
  if (zfp && layout.tail_fields > 0) {
    throw InputError("--compress " + c.text() +
                     " does not run with more than one wavefield in each field (epsilon and delta: the VTI pair; Q: "
                     "the memory variables) in this release: give --compress fp16, bf16 or none");
  }
  box_max_bytes_ = part_max_bytes(c, layout, 1.0);
  max_bytes_ = box_max_bytes_;
  if (layout.tail > 0) {
    tail_offset_ = tail_encoding_offset(box_max_bytes_);
    max_bytes_ = tail_offset_ + part_max_bytes(c, layout.tail_layout(), layout.tail_accuracy_scale);
  }
}

std::size_t FieldCodec::encode_part(const FieldLayout& part, double accuracy_scale, const std::byte* field,
                                    std::byte* out, std::size_t capacity) const {
  const bool single = part.value_bytes == 4;
  switch (c_.mode) {
    case CompressionMode::fp16:
      return single ? encode_fp16(reinterpret_cast<const float*>(field), part, out)
                    : encode_fp16(reinterpret_cast<const double*>(field), part, out);
    case CompressionMode::bf16:
      return single ? encode_bf16(reinterpret_cast<const float*>(field), part, out)
                    : encode_bf16(reinterpret_cast<const double*>(field), part, out);
    default: break;
  }
  ZfpHandles z;
  setup_zfp(z, c_, part, field, accuracy_scale);
  z.bits = stream_open(out, capacity);
  zfp_stream_set_bit_stream(z.stream, z.bits);
  zfp_stream_rewind(z.stream);
  zfp_stream_set_execution(z.stream, zfp_exec_omp);  // falls back to serial where zfp lacks OpenMP
  const std::size_t bytes = zfp_compress(z.stream, z.field);
  if (bytes == 0) throw std::runtime_error("zfp_compress failed for --compress " + c_.text());
  return bytes;
}

void FieldCodec::decode_part(const FieldLayout& part, double accuracy_scale, const std::byte* in, std::size_t bytes,
                             std::byte* field) const {
  const bool single = part.value_bytes == 4;
  switch (c_.mode) {
    case CompressionMode::fp16:
      return single ? decode_fp16(in, part, reinterpret_cast<float*>(field))
                    : decode_fp16(in, part, reinterpret_cast<double*>(field));
    case CompressionMode::bf16:
      return single ? decode_bf16(in, part, reinterpret_cast<float*>(field))
                    : decode_bf16(in, part, reinterpret_cast<double*>(field));
    default: break;
  }
  ZfpHandles z;
  setup_zfp(z, c_, part, field, accuracy_scale);
  z.bits = stream_open(const_cast<std::byte*>(in), bytes);
  zfp_stream_set_bit_stream(z.stream, z.bits);
  zfp_stream_rewind(z.stream);
  // Debian's zfp 1.0 decompresses serially only (its OpenMP policy covers compression).
  if (zfp_decompress(z.stream, z.field) == 0)
    throw std::runtime_error("zfp_decompress failed for --compress " + c_.text());
}

std::size_t FieldCodec::encode(const std::byte* field, std::byte* out) const {
  const std::size_t box = encode_part(layout_, 1.0, field, out, box_max_bytes_);
  if (layout_.tail == 0) return box;
  std::memset(out + box, 0, tail_offset_ - box);  // the gap up to the tail: no stale bytes in a slot
  return tail_offset_ + encode_part(layout_.tail_layout(), layout_.tail_accuracy_scale, field, out + tail_offset_,
                                    max_bytes_ - tail_offset_);
}

void FieldCodec::decode(const std::byte* in, std::size_t bytes, std::byte* field) const {
  if (layout_.tail == 0) return decode_part(layout_, 1.0, in, bytes, field);
  decode_part(layout_, 1.0, in, tail_offset_, field);
  decode_part(layout_.tail_layout(), layout_.tail_accuracy_scale, in + tail_offset_, bytes - tail_offset_, field);
}

CompressionStats& CompressionStats::operator+=(const CompressionStats& o) {
  raw_bytes += o.raw_bytes;
  compressed_bytes += o.compressed_bytes;
  seconds_compress += o.seconds_compress;
  seconds_decompress += o.seconds_decompress;
  fields_compressed += o.fields_compressed;
  fields_decompressed += o.fields_decompressed;
  return *this;
}

}  // namespace revwave
