// fp16 (IEEE binary16) and bfloat16 conversions, written once for the CPU loops and the CUDA cast
// kernels: integer arithmetic and selects only (no branches, no lookup tables), so that the CPU
// loops vectorise and both backends give the same bits. Round to nearest, ties to even; NaN stays
// NaN, a float beyond fp16's range becomes infinity (the codec scales fields first so that none is).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "revwave/core/config.hpp"

namespace revwave {

REVWAVE_HD std::uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
#endif
}

REVWAVE_HD float bits_float(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float x;
  std::memcpy(&x, &b, 4);
  return x;
#endif
}

// All ones where `c` holds, else zero; blend(m, a, b) = m ? a : b without a branch.
REVWAVE_HD std::uint32_t mask_if(bool c) { return 0u - static_cast<std::uint32_t>(c); }
REVWAVE_HD std::uint32_t blend(std::uint32_t m, std::uint32_t a, std::uint32_t b) { return (a & m) | (b & ~m); }

REVWAVE_HD std::uint16_t float_to_half(float x) {
  const std::uint32_t b = float_bits(x);
  const std::uint32_t sign = (b >> 16) & 0x8000u;
  const std::uint32_t a = b & 0x7fffffffu;
  // Normal halves: rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even;
  // a carry out of the mantissa correctly bumps the exponent (up to infinity).
  const std::uint32_t normal = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
  // Below 2^-14: subnormal halves, multiples of 2^-24. Adding 0.5 (whose ulp is 2^-24) rounds to
  // nearest even in float arithmetic; the mantissa bits are then the half's.
  const std::uint32_t sub = float_bits(bits_float(a) + 0.5f) - 0x3f000000u;
  std::uint32_t r = blend(mask_if(a < 0x38800000u), sub, normal);
  r = blend(mask_if(a >= 0x477ff000u), 0x7c00u, r);  // 65520 and beyond round to infinity
  r = blend(mask_if(a > 0x7f800000u), 0x7e00u, r);   // NaN stays NaN
  return static_cast<std::uint16_t>(sign | r);
}

REVWAVE_HD float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  const float sub = static_cast<float>(m) * 5.9604644775390625e-08f;  // m x 2^-24, exact
  std::uint32_t r = ((e + 112u) << 23) | (m << 13);
  r = blend(mask_if(e == 0x1fu), 0x7f800000u | (m << 13), r);
  r = blend(mask_if(e == 0), float_bits(sub), r);
  return bits_float(sign | r);
}

REVWAVE_HD std::uint16_t float_to_bfloat(float x) {
  const std::uint32_t b = float_bits(x);
  const std::uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
  const std::uint32_t quiet = (b >> 16) | 0x40u;
  return static_cast<std::uint16_t>(blend(mask_if((b & 0x7fffffffu) > 0x7f800000u), quiet, rounded));
}

REVWAVE_HD float bfloat_to_float(std::uint16_t v) { return bits_float(static_cast<std::uint32_t>(v) << 16); }

// fp16 checkpoints scale a field by 2^shift so that its largest magnitude `peak` lies in
// [2^14, 2^15): well inside fp16's range (65504), and exact. 0 for a zero or non-finite peak (a
// blown-up field keeps its infinities and NaNs). Clamped to [-120, 120], so that 2^shift is a
// finite float (a field peaking below 2^-105 or above 2^135 is not scaled all the way).
REVWAVE_HD int fp16_shift(double peak) {
  if (!(peak > 0) || !(peak <= 1.7976931348623157e308)) return 0;
  int e = 0;
  frexp(peak, &e);  // peak < 2^e
  const int shift = 15 - e;
  return shift < -120 ? -120 : shift > 120 ? 120 : shift;
}

}  // namespace revwave
