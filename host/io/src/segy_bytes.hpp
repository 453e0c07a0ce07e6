// The bytes of a SEG-Y file (internal to revwave_io): a file read piece by piece, or bytes in memory
// (the fuzzers'), and the header fields and text they hold, in either byte order.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "revwave/core/errors.hpp"
#include "revwave/io/npy.hpp"

namespace revwave::segy_detail {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // `n` bytes from `offset` into `out`; IoError when they are not all there.
  virtual void read(std::uint64_t offset, std::size_t n, char* out) = 0;
};

class FileBytes final : public ByteSource {
 public:
  FileBytes(const std::string& path, std::uint64_t size) : path_(path), in_(path, std::ios::binary), size_(size) {
    if (!in_) throw IoError(path + ": cannot be opened");
  }
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::size_t n, char* out) override {
    if (offset > size_ || n > size_ - offset)
      throw IoError(path_ + ": reads past its end at byte " + std::to_string(offset));
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(out, static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in_.gcount()) != n)
      throw IoError(path_ + ": cannot be read at byte " + std::to_string(offset));
  }

 private:
  std::string path_;
  std::ifstream in_;
  std::uint64_t size_;
};

class MemoryBytes final : public ByteSource {
 public:
  MemoryBytes(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::size_t n, char* out) override {
    if (offset > bytes_.size() || n > bytes_.size() - offset) {
      throw IoError(name_ + ": reads past its end at byte " + std::to_string(offset));
    }
    std::memcpy(out, bytes_.data() + offset, n);
  }

 private:
  const std::string& bytes_;
  std::string name_;
};

// An unsigned integer of `bytes` (1..8) at `p`, most significant byte first unless `little`.
inline std::uint64_t read_unsigned(const char* p, int bytes, bool little) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    const auto b = static_cast<unsigned char>(p[little ? bytes - 1 - i : i]);
    v = v << 8 | b;
  }
  return v;
}
inline std::int64_t read_signed(const char* p, int bytes, bool little) {
  const std::uint64_t u = read_unsigned(p, bytes, little);
  const int shift = 64 - 8 * bytes;
  return static_cast<std::int64_t>(u << shift) >> shift;
}

// Header fields by their 1-based byte positions (segyio's SEGY_BIN_* / SEGY_TR_* numbers), relative to
// the header's first byte: a binary header field at 3225 is at 3225 - 3201 in the 400 bytes.
struct Header {
  const char* bytes;
  int first;  // byte number of bytes[0]: 3201 for the binary header, 1 for a trace header
  bool little;
  std::int64_t i16(int at) const { return read_signed(bytes + at - first, 2, little); }
  std::uint64_t u16(int at) const { return read_unsigned(bytes + at - first, 2, little); }
  std::int64_t i32(int at) const { return read_signed(bytes + at - first, 4, little); }
  std::uint64_t u64(int at) const { return read_unsigned(bytes + at - first, 8, little); }
  double f64(int at) const {
    const std::uint64_t u = read_unsigned(bytes + at - first, 8, little);
    double d = 0;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
};

// EBCDIC (code page 037) to ASCII: printable characters and newlines; anything else a space.
inline char ebcdic_to_ascii(unsigned char c) {
  static constexpr unsigned char table[256] = {
      32,  32,  32,  32,  32,  32,  32, 32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,
      32,  32,  32,  32,  32,  32,  32, 32,  32,  32,  32,  32,  32,  32,  32,  10,  32,  32,  32,  32,  32,  32,
      32,  32,  32,  32,  32,  32,  32, 32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,
      32,  32,  32,  32,  32,  32,  32, 32,  32,  46,  60,  40,  43,  124, 38,  32,  32,  32,  32,  32,  32,  32,
      32,  32,  33,  36,  42,  41,  59, 32,  45,  47,  32,  32,  32,  32,  32,  32,  32,  32,  32,  44,  37,  95,
      62,  63,  32,  32,  32,  32,  32, 32,  32,  32,  32,  96,  58,  35,  64,  39,  61,  34,  32,  97,  98,  99,
      100, 101, 102, 103, 104, 105, 32, 32,  32,  32,  32,  32,  32,  106, 107, 108, 109, 110, 111, 112, 113, 114,
      32,  32,  32,  32,  32,  32,  32, 126, 115, 116, 117, 118, 119, 120, 121, 122, 32,  32,  32,  32,  32,  32,
      94,  32,  32,  32,  32,  32,  32, 32,  32,  32,  91,  93,  32,  32,  32,  32,  123, 65,  66,  67,  68,  69,
      70,  71,  72,  73,  32,  32,  32, 32,  32,  32,  125, 74,  75,  76,  77,  78,  79,  80,  81,  82,  32,  32,
      32,  32,  32,  32,  92,  32,  83, 84,  85,  86,  87,  88,  89,  90,  32,  32,  32,  32,  32,  32,  48,  49,
      50,  51,  52,  53,  54,  55,  56, 57,  32,  32,  32,  32,  32,  32};
  return static_cast<char>(table[c]);
}

// A 3200-byte textual header as ASCII: EBCDIC unless its first byte is an ASCII 'C' (as segyio decides).
inline std::string text_header(const char* p, std::size_t n) {
  std::string s(p, n);
  if (n == 0 || static_cast<unsigned char>(p[0]) == 'C') {
    for (char& c : s)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127) c = ' ';
    return s;
  }
  for (char& c : s) c = ebcdic_to_ascii(static_cast<unsigned char>(c));
  return s;
}

}  // namespace revwave::segy_detail
