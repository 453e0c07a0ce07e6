// What SEG-Y reading and writing share (internal to revwave_io): segyio's file handle as an owner,
// and the coordinate scalars: value = stored * s (s > 0) or stored / |s| (s < 0); 0 means 1.
#pragma once
#include <segyio/segy.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave::segy_detail {

struct SegyCloser {
  void operator()(segy_file* f) const { segy_close(f); }
};
using SegyHandle = std::unique_ptr<segy_file, SegyCloser>;

inline std::string format_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

inline bool valid_scalar(std::int32_t s) {
  for (std::int32_t p : {0, 1, 10, 100, 1000, 10000}) {
    if (s == p || s == -p) return true;
  }
  return false;
}

inline double apply_scalar(std::int32_t stored, std::int32_t scalar) {
  if (scalar > 1) return static_cast<double>(stored) * scalar;
  if (scalar < -1) return static_cast<double>(stored) / static_cast<double>(-scalar);
  return static_cast<double>(stored);
}

// The finest scalar (mm, cm, dm, m, 10 m, ...) at which every |value| fits an int32 with room to spare.
inline std::int32_t choose_scalar(double max_abs) {
  const double limit = 2.0e9;
  for (std::int32_t k : {-1000, -100, -10, 1, 10, 100, 1000, 10000}) {
    const double factor = k < 0 ? -static_cast<double>(k) : 1.0 / k;
    if (max_abs * factor < limit) return k;
  }
  throw InputError("a coordinate of " + format_double(max_abs) + " m is too large for SEG-Y's 32-bit headers");
}

inline std::int32_t to_stored(double value, std::int32_t scalar) {
  const double scaled = scalar < 0 ? value * static_cast<double>(-scalar) : value / static_cast<double>(scalar);
  return static_cast<std::int32_t>(std::llround(scaled));
}

}  // namespace revwave::segy_detail
