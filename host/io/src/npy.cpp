// NumPy .npy reader and writer (format 1.0/2.0/3.0 read, 1.0/2.0 written).
#include "revwave/io/npy.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <stdexcept>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "revwave's npy I/O assumes a little-endian host"
#endif

namespace revwave {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw IoError(path + ": " + what); }

// The header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// This is a small recursive-descent parser for exactly that subset.
class HeaderParser {
 public:
  HeaderParser(const std::string& path, const std::string& text) : path_(path), s_(text) {}

  struct Header {
    std::string descr;
    bool fortran_order = false;
    std::vector<std::int64_t> shape;
  };

  Header parse() {
    Header h;
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    skip_ws();
    while (peek() != '}') {
      const std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        h.descr = parse_string();
        have_descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = parse_bool();
        have_order = true;
      } else if (key == "shape") {
        h.shape = parse_shape();
        have_shape = true;
      } else {
        bad("unexpected key '" + key + "'");
      }
      skip_ws();
      if (peek() == ',') {
        ++i_;
        skip_ws();
      } else if (peek() != '}') {
        bad("expected ',' or '}'");
      }
    }
    ++i_;
    skip_ws();
    if (i_ != s_.size()) bad("unexpected text after the closing '}'");
    if (!have_descr) bad("key 'descr' is missing");
    if (!have_order) bad("key 'fortran_order' is missing");
    if (!have_shape) bad("key 'shape' is missing");
    return h;
  }

 private:
  [[noreturn]] void bad(const std::string& what) const {
    fail(path_, "malformed header (" + what + " at offset " + std::to_string(i_) + ")");
  }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  char peek() {
    skip_ws();
    if (i_ >= s_.size()) bad("unexpected end");
    return s_[i_];
  }
  void expect(char c) {
    if (peek() != c) bad(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string parse_string() {
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted string");
    const std::size_t start = ++i_;
    while (i_ < s_.size() && s_[i_] != q) ++i_;
    if (i_ >= s_.size()) bad("unterminated string");
    return s_.substr(start, i_++ - start);
  }
  bool parse_bool() {
    skip_ws();
    if (s_.compare(i_, 4, "True") == 0) return i_ += 4, true;
    if (s_.compare(i_, 5, "False") == 0) return i_ += 5, false;
    bad("expected True or False");
  }
  std::int64_t parse_int() {
    skip_ws();
    const std::size_t start = i_;
    std::int64_t v = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      const int d = s_[i_] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) bad("dimension too large");
      v = v * 10 + d;
      ++i_;
    }
    if (i_ == start) bad("expected a non-negative integer dimension");
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;  // Python 2 long suffix
    return v;
  }
  std::vector<std::int64_t> parse_shape() {
    std::vector<std::int64_t> shape;
    expect('(');
    while (peek() != ')') {
      shape.push_back(parse_int());
      if (peek() == ',') {
        ++i_;
      } else if (peek() != ')') {
        bad("expected ',' or ')' in shape");
      }
    }
    ++i_;
    return shape;
  }

  const std::string& path_;
  const std::string& s_;
  std::size_t i_ = 0;
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  // Python's tuple repr, as numpy writes it: (), (3,), (3, 4).
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Product of the dimensions, or -1 on overflow.
std::int64_t checked_size(const std::vector<std::int64_t>& shape, std::int64_t elem_bytes) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / elem_bytes / d) return -1;
    n *= d;
  }
  return n;
}

void write_npy_impl(const std::string& path, const std::vector<std::int64_t>& shape, const void* data,
                    const char* descr, std::int64_t elem_bytes) {
  const std::int64_t n = checked_size(shape, elem_bytes);
  if (n < 0) throw std::invalid_argument("write_npy(" + path + "): shape " + shape_text(shape) + " is invalid");
  if (n > 0 && data == nullptr) throw std::invalid_argument("write_npy(" + path + "): data is null");

  std::string dict =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  // Pad with spaces and end with '\n' so the data starts at a multiple of 64 bytes.
  auto padded = [&](std::size_t prefix) {
    std::string h = dict;
    const std::size_t total = prefix + h.size() + 1;
    h.append((64 - total % 64) % 64, ' ');
    h += '\n';
    return h;
  };
  std::string header = padded(kMagicLen + 2 + 2);
  int major = 1;
  if (header.size() > std::numeric_limits<std::uint16_t>::max()) {
    major = 2;
    header = padded(kMagicLen + 2 + 4);
  }

  write_file_atomically(path, [&](std::ostream& out) {
    out.write(kMagic, kMagicLen);
    const char version[2] = {static_cast<char>(major), 0};
    out.write(version, 2);
    if (major == 1) {
      const auto len = static_cast<std::uint16_t>(header.size());
      out.write(reinterpret_cast<const char*>(&len), sizeof len);
    } else {
      const auto len = static_cast<std::uint32_t>(header.size());
      out.write(reinterpret_cast<const char*>(&len), sizeof len);
    }
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    if (n > 0) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n * elem_bytes));
  });
}

}  // namespace

void require_regular_file(const std::string& path, const std::string& name) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st) || std::filesystem::is_regular_file(st)) return;
  const char* what = std::filesystem::is_directory(st)                                              ? "a directory"
                     : std::filesystem::is_fifo(st)                                                 ? "a FIFO (a pipe)"
                     : std::filesystem::is_socket(st)                                               ? "a socket"
                     : std::filesystem::is_block_file(st) || std::filesystem::is_character_file(st) ? "a device"
                                                                                                    : "no regular file";
  throw IoError((name.empty() ? path : name) + ": is " + what + ", not a file (give a regular file)");
}

NpyArray read_npy(const std::string& path) {
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open for reading: ") + std::strerror(errno));
  return read_npy(in, path);
}

NpyArray read_npy(std::istream& in, const std::string& path) {
  in.seekg(0, std::ios::end);
  const std::int64_t file_size = static_cast<std::int64_t>(in.tellg());
  in.seekg(0, std::ios::beg);
  if (file_size < 0) fail(path, "cannot determine the file size");

  char prefix[kMagicLen + 2];
  if (file_size < static_cast<std::int64_t>(sizeof prefix) || !in.read(prefix, sizeof prefix)) {
    fail(path, "not a .npy file (too short for the magic string)");
  }
  if (std::memcmp(prefix, kMagic, kMagicLen) != 0) fail(path, "not a .npy file (bad magic string)");
  const int major = static_cast<unsigned char>(prefix[6]);
  const int minor = static_cast<unsigned char>(prefix[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  }

  std::uint64_t header_len = 0;
  std::int64_t len_bytes = major == 1 ? 2 : 4;
  unsigned char len_buf[4] = {0, 0, 0, 0};
  if (!in.read(reinterpret_cast<char*>(len_buf), len_bytes)) fail(path, "truncated header length");
  for (std::int64_t i = len_bytes - 1; i >= 0; --i) header_len = header_len << 8 | len_buf[i];
  const std::int64_t data_offset =
      static_cast<std::int64_t>(sizeof prefix) + len_bytes + static_cast<std::int64_t>(header_len);
  if (data_offset > file_size) fail(path, "truncated header (file ends before the header's declared length)");
  std::string text(header_len, '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(header_len))) fail(path, "truncated header");

  const auto h = HeaderParser(path, text).parse();
  if (h.descr != "<f4" && h.descr != "<f8") {
    fail(path, "dtype '" + h.descr + "' is not supported (float32 or float64 only, little-endian '<f4' or '<f8')");
  }
  if (h.fortran_order) fail(path, "fortran_order True is not supported (C order only)");

  NpyArray arr;
  arr.shape = h.shape;
  arr.is_float32 = h.descr == "<f4";
  const std::int64_t elem = arr.is_float32 ? 4 : 8;
  const std::int64_t n = checked_size(h.shape, elem);
  if (n < 0) fail(path, "shape " + shape_text(h.shape) + " is too large");
  const std::int64_t expected = data_offset + n * elem;
  if (file_size < expected) {
    fail(path, "truncated data: shape " + shape_text(h.shape) + " needs " + std::to_string(n * elem) +
                   " bytes, file has " + std::to_string(file_size - data_offset));
  }
  if (file_size > expected) {
    fail(path,
         std::to_string(file_size - expected) + " unexpected bytes after the data of shape " + shape_text(h.shape));
  }

  arr.data.resize(static_cast<std::size_t>(n));
  if (arr.is_float32) {
    std::vector<float> tmp(static_cast<std::size_t>(n));
    if (n > 0 && !in.read(reinterpret_cast<char*>(tmp.data()), n * elem)) fail(path, "read of the data failed");
    for (std::size_t i = 0; i < tmp.size(); ++i) arr.data[i] = tmp[i];
  } else if (n > 0 && !in.read(reinterpret_cast<char*>(arr.data.data()), n * elem)) {
    fail(path, "read of the data failed");
  }
  return arr;
}

void write_npy(const std::string& path, const std::vector<std::int64_t>& shape, const float* data) {
  write_npy_impl(path, shape, data, "<f4", 4);
}

void write_npy(const std::string& path, const std::vector<std::int64_t>& shape, const double* data) {
  write_npy_impl(path, shape, data, "<f8", 8);
}

}  // namespace revwave
