// SEG-Y sample formats (internal to revwave_io): which codes this reader decodes, and the decoding.
#pragma once
#include <cstddef>
#include <string>

namespace revwave::segy_detail {

// Bytes per sample of a format code this reader decodes (1 IBM float, 2 int32, 3 int16, 5 IEEE float,
// 6 IEEE double, 7 int24, 8 int8, 9 int64, 10 uint32, 11 uint16, 12 uint64, 15 uint24, 16 uint8); 0 for
// any other code (4, fixed point with gain, is obsolete).
int sample_bytes(int format);
// "IBM float", "int16", ...; "code N" for one it does not know.
std::string format_name(int format);
// `count` samples of `format` stored at `p` (most significant byte first unless `little`), as doubles.
// Every float and every integer up to 2^53 is exact as a double.
void decode_samples(int format, bool little, const char* p, std::size_t count, double* out);

}  // namespace revwave::segy_detail
