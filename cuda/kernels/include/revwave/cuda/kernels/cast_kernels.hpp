// fp16 / bf16 checkpoint compression on the device: one thread per point of the padded box,
// packed in the box's row-major order, the same bits as the CPU codec (FieldCodec in
// revwave/store/compression.hpp): an fp16 field carries an 8-byte header (the power-of-two shift
// it was scaled by, from its largest magnitude), then its values; a bf16 field its values only.
// The thread bodies are host+device; their launch structs (cast_launch.hpp) run them on a GPU and
// on cudasim alike.
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "revwave/core/config.hpp"
#include "revwave/store/half_precision.hpp"

namespace revwave {

struct CastShape {
  index_t box0 = 0, box1 = 0, box2 = 0;  // padded points per axis (x slowest)
  index_t sx = 0, sy = 0;                // strides of the allocation, elements
  index_t origin = 0;                    // element of padded point (0, 0, 0)
  bool bf16 = false;
  REVWAVE_HD index_t points() const { return box0 * box1 * box2; }
  REVWAVE_HD std::size_t header_bytes() const { return bf16 ? 0 : 8; }
  std::size_t encoded_bytes() const { return header_bytes() + 2 * static_cast<std::size_t>(points()); }
};

namespace cast {

REVWAVE_HD index_t field_index(const CastShape& s, index_t t) {
  const index_t k = t % s.box2, r = t / s.box2;
  return s.origin + (r / s.box1) * s.sx + (r % s.box1) * s.sy + k;
}

// The factor an fp16 field is scaled by before rounding (2^shift), and back (2^-shift); 1 for bf16.
template <class T>
REVWAVE_HD T scale_of(int shift) {
  return static_cast<T>(ldexp(1.0, shift));
}

// One value's encoding and decoding, written once for the cast kernels and the sweeps that encode
// or decode in passing (acoustic/sweep_codec.hpp): `scale` is scale_of<T>(shift) to encode,
// scale_of<T>(-shift) to decode (unused for bf16).
template <class T>
REVWAVE_HD std::uint16_t encode_value(bool bf16, T scale, T x) {
  if (bf16) return float_to_bfloat(static_cast<float>(x));
  return float_to_half(static_cast<float>(x * scale));
}
template <class T>
REVWAVE_HD T decode_value(bool bf16, T scale, std::uint16_t v) {
  if (bf16) return static_cast<T>(bfloat_to_float(v));
  return static_cast<T>(half_to_float(v)) * scale;
}

// The fp16 header: the shift, and 4 bytes of zeros.
REVWAVE_HD void write_header(unsigned char* out, int shift) {
  auto* header = reinterpret_cast<std::int32_t*>(out);
  header[0] = shift;
  header[1] = 0;
}

// Thread t encodes packed value t; thread 0 also writes the fp16 header. peak: max |field|
// (fp16 only; the reduction's result on the device).
template <class T>
REVWAVE_HD void encode_thread(const CastShape& s, const T* field, const double* peak, unsigned char* out, index_t t) {
  if (t >= s.points()) return;
  auto* values = reinterpret_cast<std::uint16_t*>(out + s.header_bytes());
  const T x = field[field_index(s, t)];
  if (s.bf16) {
    values[t] = encode_value(true, T(1), x);
    return;
  }
  const int shift = fp16_shift(*peak);
  if (t == 0) write_header(out, shift);
  values[t] = encode_value(false, scale_of<T>(shift), x);
}

template <class T>
REVWAVE_HD void decode_thread(const CastShape& s, const unsigned char* in, T* field, index_t t) {
  if (t >= s.points()) return;
  const auto* values = reinterpret_cast<const std::uint16_t*>(in + s.header_bytes());
  const int shift = s.bf16 ? 0 : reinterpret_cast<const std::int32_t*>(in)[0];
  field[field_index(s, t)] = decode_value(s.bf16, scale_of<T>(-shift), values[t]);
}

}  // namespace cast

// Enqueued on `stream`. out / in: device (or pinned) memory of encoded_bytes().
template <class T>
void launch_encode(const CastShape& s, const T* field, const double* peak, void* out, cudaStream_t stream);
template <class T>
void launch_decode(const CastShape& s, const void* in, T* field, cudaStream_t stream);

}  // namespace revwave
