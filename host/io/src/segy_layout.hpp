// Where a SEG-Y file's traces are and what they hold (internal to revwave_io), from its textual and
// binary headers, its first trace header and its size; what the reader overrode goes into `warnings`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "revwave/io/segy.hpp"
#include "segy_bytes.hpp"

namespace revwave::segy_detail {

inline constexpr std::uint64_t text_bytes = 3200, binary_bytes = 400, trace_header_bytes = 240;

struct FileLayout {
  std::string text;     // the textual header, ASCII
  bool little = false;  // byte order
  int revision = 0;     // major revision number
  int format = 0, sample_size = 0;
  std::int64_t samples = 0;       // per trace
  std::int64_t other_count = -1;  // a trace header count the reader overruled (its traces may say it), else -1
  double interval_us = 0;         // the binary header's, 0: none
  double unit = 1;                // metres per coordinate unit
  bool units_stated = false;      // --segy-units: the trace headers' CoordinateUnits are not consulted
  std::uint64_t trace0 = 0;       // byte offset of the first trace
  std::uint64_t headers = 1;      // 240-byte headers per trace (rev 2: the standard one and its extensions)
  std::uint64_t record = 0;       // bytes per trace, headers and samples
  std::uint64_t traces = 0;
};

FileLayout read_layout(ByteSource& src, const std::string& name, const SegyReadOptions& options,
                       std::vector<std::string>& warnings);

}  // namespace revwave::segy_detail
