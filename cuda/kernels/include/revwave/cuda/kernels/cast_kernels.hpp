// fp16 / bf16 checkpoint compression on the device: one thread per point of the padded box,
// packed in the box's row-major order, the same bits as the CPU codec (FieldCodec in
// revwave/store/compression.hpp): an fp16 field carries an 8-byte header (the power-of-two shift
// it was scaled by, from its largest magnitude), then its values; a bf16 field its values only.
// The thread bodies are host+device: the kernels and the CPU emulation (tests/cudasim) run them.
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/launch_shape.hpp"
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

inline constexpr unsigned cast_block = 256;
inline LaunchShape launch_shape(index_t items) { return {{blocks_covering(items, cast_block), 1, 1}, {cast_block, 1, 1}}; }
REVWAVE_HD index_t global_index(const ThreadPlace& p) { return static_cast<index_t>(p.block.x) * cast_block + p.thread.x; }

REVWAVE_HD index_t field_index(const CastShape& s, index_t t) {
  const index_t k = t % s.box2, r = t / s.box2;
  return s.origin + (r / s.box1) * s.sx + (r % s.box1) * s.sy + k;
}

// Thread t encodes packed value t; thread 0 also writes the fp16 header. peak: max |field|
// (fp16 only; the reduction's result on the device).
template <class T>
REVWAVE_HD void encode_thread(const CastShape& s, const T* field, const double* peak, unsigned char* out, index_t t) {
  if (t >= s.points()) return;
  auto* values = reinterpret_cast<std::uint16_t*>(out + s.header_bytes());
  const T x = field[field_index(s, t)];
  if (s.bf16) {
    values[t] = float_to_bfloat(static_cast<float>(x));
    return;
  }
  const int shift = fp16_shift(*peak);
  if (t == 0) {
    auto* header = reinterpret_cast<std::int32_t*>(out);
    header[0] = shift;
    header[1] = 0;
  }
  values[t] = float_to_half(static_cast<float>(x * static_cast<T>(ldexp(1.0, shift))));
}

template <class T>
REVWAVE_HD void decode_thread(const CastShape& s, const unsigned char* in, T* field, index_t t) {
  if (t >= s.points()) return;
  const auto* values = reinterpret_cast<const std::uint16_t*>(in + s.header_bytes());
  if (s.bf16) {
    field[field_index(s, t)] = static_cast<T>(bfloat_to_float(values[t]));
    return;
  }
  const int shift = reinterpret_cast<const std::int32_t*>(in)[0];
  field[field_index(s, t)] = static_cast<T>(half_to_float(values[t])) * static_cast<T>(ldexp(1.0, -shift));
}

}  // namespace cast

// Enqueued on `stream`. out / in: device (or pinned) memory of encoded_bytes().
template <class T>
void launch_encode(const CastShape& s, const T* field, const double* peak, void* out, cudaStream_t stream);
template <class T>
void launch_decode(const CastShape& s, const void* in, T* field, cudaStream_t stream);

}  // namespace revwave
