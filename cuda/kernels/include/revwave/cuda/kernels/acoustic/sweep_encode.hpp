// The fused codec's encode inside a forward sweep (sweep_columns.hpp): the sweep of step n reads
// the state (u[n], u[n-1]) at every point anyway, so it writes each value's fp16 or bf16 encoding
// in passing into the checkpoint slot the schedule stores that state in: 4 bytes a point more,
// instead of a cast kernel's read of 8 and write of 4 (float). The values and the header are
// those of the cast kernels (cast_kernels.hpp's encode_value, write_header), so are the bytes.
#pragma once
#include <cstdint>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/cast_kernels.hpp"

namespace revwave::columns {

// Encode = false: nothing, at no cost.
template <class T, bool Encode>
struct EncodeWalk {
  REVWAVE_HD EncodeWalk(const SweepArgs<T>&, index_t, int, int, bool) {}
  REVWAVE_HD void put(T, T) {}
  REVWAVE_HD void advance() {}
};

template <class T>
struct EncodeWalk<T, true> {
  std::uint16_t* u;
  std::uint16_t* up;
  T su, sup;  // scale_of(shift) of each field (fp16)
  bool bf16;
  index_t plane;  // packed values a plane

  // The walk of column (j, k) from plane i_begin; the thread of padded point (0, 0, 0) writes the fp16 headers.
  REVWAVE_HD EncodeWalk(const SweepArgs<T>& a, index_t i_begin, int j, int k, bool writes) {
    const SweepEncode& e = a.encode;
    bf16 = e.bf16;
    const index_t header = bf16 ? 0 : 8, first = (i_begin * a.ny + j) * a.nz + k;
    u = reinterpret_cast<std::uint16_t*>(e.u + header) + first;
    up = reinterpret_cast<std::uint16_t*>(e.u_prev + header) + first;
    const int shift_u = bf16 ? 0 : fp16_shift(*e.u_peak), shift_up = bf16 ? 0 : fp16_shift(*e.u_prev_peak);
    su = cast::scale_of<T>(shift_u);
    sup = cast::scale_of<T>(shift_up);
    plane = a.ny * a.nz;
    if (!bf16 && writes && i_begin == 0 && j == 0 && k == 0) {
      cast::write_header(e.u, shift_u);
      cast::write_header(e.u_prev, shift_up);
    }
  }
  REVWAVE_HD void put(T u0, T up0) {
    *u = cast::encode_value(bf16, su, u0);
    *up = cast::encode_value(bf16, sup, up0);
  }
  REVWAVE_HD void advance() {
    u += plane;
    up += plane;
  }
};

}  // namespace revwave::columns
