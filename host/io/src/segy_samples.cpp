#include "segy_samples.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "segy_bytes.hpp"

namespace revwave::segy_detail {
namespace {

// IBM System/360 single precision: sign, 7-bit exponent of 16 biased by 64, 24-bit fraction in
// [1/16, 1). Every such number is exact as a double.
double ibm_to_double(std::uint32_t u) {
  const std::uint32_t fraction = u & 0x00ffffffu;
  if (fraction == 0) return 0.0;
  const int exponent = static_cast<int>((u >> 24) & 0x7f) - 64;
  const double v = std::ldexp(static_cast<double>(fraction), 4 * exponent - 24);
  return (u & 0x80000000u) ? -v : v;
}

double float_bits(std::uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return static_cast<double>(f);
}

double double_bits(std::uint64_t u) {
  double d = 0;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

}  // namespace

int sample_bytes(int format) {
  switch (format) {
    case 8:
    case 16: return 1;
    case 3:
    case 11: return 2;
    case 7:
    case 15: return 3;
    case 1:
    case 2:
    case 5:
    case 10: return 4;
    case 6:
    case 9:
    case 12: return 8;
    default: return 0;
  }
}

std::string format_name(int format) {
  switch (format) {
    case 1: return "IBM float";
    case 2: return "int32";
    case 3: return "int16";
    case 5: return "IEEE float";
    case 6: return "IEEE double";
    case 7: return "int24";
    case 8: return "int8";
    case 9: return "int64";
    case 10: return "uint32";
    case 11: return "uint16";
    case 12: return "uint64";
    case 15: return "uint24";
    case 16: return "uint8";
    default: return "code " + std::to_string(format);
  }
}

void decode_samples(int format, bool little, const char* p, std::size_t count, double* out) {
  const int size = sample_bytes(format);
  for (std::size_t i = 0; i < count; ++i, p += size) {
    switch (format) {
      case 1: out[i] = ibm_to_double(static_cast<std::uint32_t>(read_unsigned(p, 4, little))); break;
      case 5: out[i] = float_bits(static_cast<std::uint32_t>(read_unsigned(p, 4, little))); break;
      case 6: out[i] = double_bits(read_unsigned(p, 8, little)); break;
      case 2:
      case 3:
      case 7:
      case 8:
      case 9: out[i] = static_cast<double>(read_signed(p, size, little)); break;
      default: out[i] = static_cast<double>(read_unsigned(p, size, little)); break;
    }
  }
}

}  // namespace revwave::segy_detail
