#include "segy_layout.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "segy_samples.hpp"

namespace revwave::segy_detail {
namespace {

// Binary header fields by byte number (SEG-Y rev 2.0; segyio's SEGY_BIN_*).
enum BinaryField {
  interval_field = 3217,
  samples_field = 3221,
  format_field = 3225,
  measurement_field = 3255,
  ext_samples_field = 3269,
  ext_interval_field = 3273,
  byte_order_field = 3297,
  revision_field = 3501,
  ext_text_field = 3505,
  ext_trace_headers_field = 3507,
  first_trace_field = 3521
};
constexpr int trace_count_field = 115;  // a trace header's sample count

std::string n(std::uint64_t v) { return std::to_string(v); }

// The byte order: as stated, rev 2's byte-order constant, else the order in which the sample format
// code is a code (1..16 reads as 256..4096 in the other order).
bool little_endian(const char* bin, const std::string& name, const SegyReadOptions& o,
                   std::vector<std::string>& warnings) {
  if (o.endian != SegyEndian::detect) return o.endian == SegyEndian::little;
  const Header big{bin, 3201, false}, small{bin, 3201, true};
  if (big.i32(byte_order_field) == 0x01020304) return false;
  if (small.i32(byte_order_field) == 0x01020304) return true;
  const std::int64_t fb = big.i16(format_field), fl = small.i16(format_field);
  if (fb >= 1 && fb <= 16) return false;
  if (fl >= 1 && fl <= 16) {
    warnings.push_back(name + ": read as little-endian: its binary header's sample format code is " +
                       std::to_string(fl) + " least significant byte first (" + std::to_string(fb) +
                       " the other way), and it has no byte-order "
                       "constant (--segy-endian states the order)");
    return true;
  }
  throw IoError(name + ": is not SEG-Y (in either byte order): binary header sample format code " + std::to_string(fb) +
                " big-endian, " + std::to_string(fl) + " little-endian");
}

void read_format(const Header& b, const std::string& name, FileLayout& l) {
  l.format = static_cast<int>(b.i16(format_field));
  l.sample_size = sample_bytes(l.format);
  if (l.sample_size == 0) {
    throw IoError(
        name + ": sample format code " + std::to_string(l.format) +
        (l.format == 4 ? " (fixed point with gain, obsolete)" : "") +
        " is not supported: 1 (IBM float), 5 (IEEE float), 6 (IEEE double), 2, 3, 7, 8, 9 (signed integers) or 10, 11, "
        "12, 15, 16 (unsigned integers)");
  }
}

void read_interval(const Header& b, const std::string& name, FileLayout& l) {
  const std::int64_t us = b.i16(interval_field);
  if (us < 0) throw IoError(name + ": binary header sample interval " + std::to_string(us) + " us is invalid");
  l.interval_us = static_cast<double>(us);
  if (l.revision >= 2) {  // rev 2's extended interval overrides the 16-bit one where set
    const double ext = b.f64(ext_interval_field);
    if (std::isfinite(ext) && ext > 0) {
      // A positive interval too small to be one (a denormal reads as dt = 0 s) is refused, not used.
      if (ext < 1e-3 || ext > 1e9) {
        throw IoError(name + ": rev 2 extended sample interval " + number_text(ext) +
                      " us is outside 0.001 us to 1e9 us");
      }
      l.interval_us = ext;
    }
  }
}

void read_units(const Header& b, const std::string& name, const SegyReadOptions& o, FileLayout& l) {
  if (o.units != SegyUnits::file) {
    l.unit = o.units == SegyUnits::feet ? 0.3048 : 1.0;
    l.units_stated = true;
    return;
  }
  const std::int64_t units = b.i16(measurement_field);
  if (units != 0 && units != 1 && units != 2) {
    throw IoError(name + ": binary header measurement system " + std::to_string(units) +
                  " is invalid: 1 (metres) or 2 (feet); --segy-units states the unit");
  }
  l.unit = units == 2 ? 0.3048 : 1.0;
}

bool ends_text(const char* p) {
  static const std::string stanza = "((SEG: ENDTEXT))";
  for (int ebcdic = 0; ebcdic < 2; ++ebcdic) {
    std::string s(p, stanza.size());
    for (char& c : s)
      c = static_cast<char>(
          std::toupper(static_cast<unsigned char>(ebcdic ? ebcdic_to_ascii(static_cast<unsigned char>(c)) : c)));
    if (s == stanza) return true;
  }
  return false;
}

// Extended textual headers: counted, or (-1) as many as it takes to reach an EndText stanza.
std::uint64_t extended_text_headers(ByteSource& src, const Header& b, const std::string& name) {
  const std::int64_t count = b.i16(ext_text_field);
  const std::uint64_t first = text_bytes + binary_bytes;
  if (count >= 0) {
    if (first + text_bytes * static_cast<std::uint64_t>(count) > src.size()) {
      throw IoError(name + ": its binary header counts " + std::to_string(count) +
                    " extended textual headers, more than the file holds");
    }
    return static_cast<std::uint64_t>(count);
  }
  if (count != -1)
    throw IoError(name + ": binary header extended textual header count " + std::to_string(count) +
                  " is invalid: -1 or >= 0");
  char stanza[16];
  for (std::uint64_t k = 0; first + text_bytes * (k + 1) <= src.size(); ++k) {
    src.read(first + text_bytes * k, sizeof stanza, stanza);
    if (ends_text(stanza)) return k + 1;
  }
  throw IoError(name + ": its extended textual headers (count -1: variable) never end with a ((SEG: EndText)) stanza");
}

// Whether the bytes after the headers are whole traces of `samples` samples.
bool whole_traces(const FileLayout& l, std::uint64_t size, std::uint64_t samples) {
  if (samples < 1 || size <= l.trace0) return false;
  const std::uint64_t record = trace_header_bytes * l.headers + samples * static_cast<std::uint64_t>(l.sample_size);
  return (size - l.trace0) % record == 0;
}

// Samples per trace: the binary header's, unless the trace headers say otherwise and only their count
// makes the file whole traces; --segy-samples over both.
void choose_samples(ByteSource& src, const Header& b, const std::string& name, const SegyReadOptions& o, FileLayout& l,
                    std::vector<std::string>& warnings) {
  std::uint64_t binary = b.u16(samples_field);
  const std::int64_t ext = b.i32(ext_samples_field);
  if (ext > 0 && (binary == 0 || l.revision >= 2)) binary = static_cast<std::uint64_t>(ext);
  std::uint64_t trace = 0;
  if (src.size() >= l.trace0 + trace_header_bytes) {
    char th[trace_header_bytes];
    src.read(l.trace0, sizeof th, th);
    trace = Header{th, 1, l.little}.u16(trace_count_field);
  }
  const std::string said =
      "the binary header says " + n(binary) + " samples per trace, the first trace header " + n(trace);
  if (o.samples > 0) {
    l.samples = o.samples;
    if (!whole_traces(l, src.size(), static_cast<std::uint64_t>(o.samples))) {
      throw IoError(name + ": --segy-samples " + std::to_string(o.samples) + " does not fit: the file's " +
                    n(src.size() - std::min(src.size(), l.trace0)) +
                    " bytes after its headers are not whole traces of " + std::to_string(o.samples) + " samples");
    }
    if (binary != static_cast<std::uint64_t>(o.samples) || (trace != 0 && trace != binary)) {
      warnings.push_back(name + ": --segy-samples " + std::to_string(o.samples) + " overrides its headers (" + said +
                         ")");
      l.other_count = static_cast<std::int64_t>(trace);
    }
    return;
  }
  if (binary >= 1 && (trace == 0 || trace == binary)) {
    l.samples = static_cast<std::int64_t>(binary);
    return;
  }
  if (binary == 0 && trace == 0)
    throw IoError(name + ": binary header sample count 0 is invalid: at least 1 (--segy-samples states it)");
  const bool fits_binary = whole_traces(l, src.size(), binary), fits_trace = whole_traces(l, src.size(), trace);
  if (fits_binary != fits_trace) {
    const std::uint64_t chosen = fits_binary ? binary : trace;
    warnings.push_back(name + ": " + said + ": read " + n(chosen) + " (the " + n(src.size() - l.trace0) +
                       " bytes after its headers are whole traces of " + n(chosen) +
                       " samples only; --segy-samples states the count)");
    l.samples = static_cast<std::int64_t>(chosen);
    l.other_count = static_cast<std::int64_t>(fits_binary ? trace : binary);
    return;
  }
  throw IoError(name + ": " + said + ", and its size " + (fits_binary ? "fits both" : "fits neither") +
                ": give the count with --segy-samples (traces of different lengths are not supported)");
}

}  // namespace

FileLayout read_layout(ByteSource& src, const std::string& name, const SegyReadOptions& o,
                       std::vector<std::string>& warnings) {
  const std::uint64_t size = src.size();
  if (size < text_bytes + binary_bytes) {
    throw IoError(name + ": is not SEG-Y: " + n(size) +
                  " bytes, shorter than the 3600 bytes of textual and binary headers");
  }
  char head[text_bytes + binary_bytes];
  src.read(0, sizeof head, head);
  FileLayout l;
  l.text = text_header(head, text_bytes);
  const char* bin = head + text_bytes;
  l.little = little_endian(bin, name, o, warnings);
  const Header b{bin, 3201, l.little};
  l.revision = static_cast<int>(b.u16(revision_field) >> 8);
  read_format(b, name, l);
  read_interval(b, name, l);
  read_units(b, name, o, l);
  const std::uint64_t ext_text = extended_text_headers(src, b, name);
  l.trace0 = text_bytes + binary_bytes + text_bytes * ext_text;
  if (l.revision >= 2) {
    const std::int64_t extensions = b.i16(ext_trace_headers_field);
    if (extensions < 0)
      throw IoError(name + ": binary header trace header extension count " + std::to_string(extensions) +
                    " is invalid");
    l.headers = 1 + static_cast<std::uint64_t>(extensions);
    const std::uint64_t first = b.u64(first_trace_field);
    if (first > 0) {
      if (first < text_bytes + binary_bytes || first > size) {
        throw IoError(name + ": binary header first-trace offset " + n(first) + " lies outside the file's " + n(size) +
                      " bytes");
      }
      l.trace0 = first;
    }
  }
  choose_samples(src, b, name, o, l, warnings);
  l.record = trace_header_bytes * l.headers +
             static_cast<std::uint64_t>(l.samples) * static_cast<std::uint64_t>(l.sample_size);
  if (size < l.trace0 || (size - l.trace0) % l.record != 0) {
    throw IoError(name + ": file size " + n(size) + " bytes is not its headers (" + n(l.trace0) +
                  ") plus whole traces of " + n(l.record) + " bytes: truncated, or not SEG-Y");
  }
  l.traces = (size - l.trace0) / l.record;
  if (l.traces < 1) throw IoError(name + ": holds no traces");
  return l;
}

}  // namespace revwave::segy_detail
