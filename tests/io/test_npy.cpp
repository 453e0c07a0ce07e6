// Tests of the .npy reader/writer and of atomic file writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using revwave::IoError;

namespace {

class NpyTest : public revwave::testing::TempDirTest {
 protected:
  NpyTest() : TempDirTest("revwave_npy") {}
  // Writes a .npy by hand: version, header text (padded to 64 bytes) and raw data bytes.
  std::string write_raw(const std::string& name, const std::string& dict, const std::string& data, int major = 1,
                        const std::string& magic = "\x93NUMPY") {
    std::string header = dict;
    const std::size_t prefix = 6 + 2 + (major == 1 ? 2 : 4);
    header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string bytes = magic;
    bytes += static_cast<char>(major);
    bytes += '\0';
    const auto len = static_cast<std::uint32_t>(header.size());
    for (int i = 0; i < (major == 1 ? 2 : 4); ++i) bytes += static_cast<char>((len >> (8 * i)) & 0xff);
    bytes += header + data;
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  template <class T>
  static std::string raw(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  // Expects read_npy(p) to throw IoError whose one-line message names the file and contains `what`.
  static void expect_io_error(const std::string& p, const std::string& what) {
    try {
      revwave::read_npy(p);
      FAIL() << "no IoError for " << p;
    } catch (const IoError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(p), std::string::npos) << msg;
      EXPECT_NE(msg.find(what), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
  }
};

template <class T>
void round_trip(const std::string& p, const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(0.1 * static_cast<double>(i) - 1.0 / 3.0);
  revwave::write_npy(p, shape, v.data());
  const auto a = revwave::read_npy(p);
  EXPECT_EQ(a.shape, shape);
  EXPECT_EQ(a.is_float32, sizeof(T) == 4);
  ASSERT_EQ(a.data.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(a.data[i], static_cast<double>(v[i])) << i;
  // Data starts on a 64-byte boundary, as numpy writes it.
  std::ifstream in(p, std::ios::binary);
  char pre[10];
  in.read(pre, 10);
  const auto hlen = static_cast<unsigned char>(pre[8]) | static_cast<unsigned char>(pre[9]) << 8;
  EXPECT_EQ((10 + hlen) % 64, 0);
}

}  // namespace

TEST_F(NpyTest, RoundTripFloat32Shapes) {
  round_trip<float>(path("a1.npy"), {7});
  round_trip<float>(path("a2.npy"), {3, 5});
  round_trip<float>(path("a3.npy"), {2, 3, 4});
  round_trip<float>(path("a0.npy"), {});
  round_trip<float>(path("empty.npy"), {0, 3});
}

TEST_F(NpyTest, RoundTripFloat64Shapes) {
  round_trip<double>(path("b1.npy"), {7});
  round_trip<double>(path("b2.npy"), {3, 5});
  round_trip<double>(path("b3.npy"), {2, 3, 4});
}

TEST_F(NpyTest, HeaderMatchesNumpyLayout) {
  const std::vector<double> v{1, 2, 3};
  revwave::write_npy(path("n.npy"), {3}, v.data());
  std::ifstream in(path("n.npy"), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  ASSERT_EQ(s.size(), 128u + 24u);
  EXPECT_EQ(s.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(s.substr(10, dict.size()), dict);
  EXPECT_EQ(s[127], '\n');
}

TEST_F(NpyTest, ReadsVersion2AndWritesItWhenHeaderIsLarge) {
  const std::vector<float> v{1.5f, -2.5f};
  const auto p = write_raw("v2.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", raw(v), 2);
  const auto a = revwave::read_npy(p);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(a.data, (std::vector<double>{1.5, -2.5}));

  // 25000 unit dimensions make a header longer than version 1.0's 65535 bytes.
  const std::vector<std::int64_t> shape(25000, 1);
  const double one = 42.0;
  revwave::write_npy(path("big.npy"), shape, &one);
  std::ifstream in(path("big.npy"), std::ios::binary);
  char pre[8];
  in.read(pre, 8);
  EXPECT_EQ(pre[6], 2);
  const auto b = revwave::read_npy(path("big.npy"));
  EXPECT_EQ(b.shape, shape);
  EXPECT_EQ(b.data, std::vector<double>{42.0});
}

TEST_F(NpyTest, AcceptsHeaderVariants) {
  // Keys in another order, double quotes, no trailing comma, extra spaces.
  const std::vector<double> v{1, 2, 3, 4, 5, 6};
  const auto p = write_raw("var.npy", "{\"shape\" : ( 2 , 3 ) ,'fortran_order':False,'descr':'<f8'}", raw(v));
  const auto a = revwave::read_npy(p);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.data, v);
}

TEST_F(NpyTest, BadMagicThrows) {
  const std::vector<double> v{1};
  expect_io_error(
      write_raw("magic.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", raw(v), 1, "\x93NUMPX"),
      "bad magic");
  const std::string p = path("short.npy");
  std::ofstream(p) << "abc";
  expect_io_error(p, "not a .npy file");
}

TEST_F(NpyTest, MalformedHeaderThrows) {
  const std::vector<double> v{1};
  expect_io_error(write_raw("h1.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,) ", raw(v)),
                  "malformed header");
  expect_io_error(write_raw("h2.npy", "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (1,), }", raw(v)),
                  "malformed header");
  expect_io_error(write_raw("h3.npy", "{'descr': '<f8', 'fortran_order': False, }", raw(v)), "'shape' is missing");
  expect_io_error(write_raw("h4.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", raw(v)),
                  "malformed header");
  expect_io_error(write_raw("h5.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", raw(v)),
                  "unexpected key");
  expect_io_error(write_raw("h6.npy", "not a dict at all", raw(v)), "malformed header");
}

TEST_F(NpyTest, UnsupportedDtypeThrows) {
  const std::vector<std::int32_t> i{1, 2};
  expect_io_error(write_raw("i4.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", raw(i)),
                  "dtype '<i4' is not supported (float32 or float64");
  const std::vector<double> d{1, 2};
  expect_io_error(write_raw("be.npy", "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", raw(d)),
                  "dtype '>f8' is not supported");
}

TEST_F(NpyTest, FortranOrderThrows) {
  const std::vector<double> d{1, 2, 3, 4};
  expect_io_error(write_raw("f.npy", "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", raw(d)),
                  "fortran_order True is not supported");
}

TEST_F(NpyTest, TruncatedAndOversizedDataThrow) {
  const std::vector<double> d{1, 2, 3};
  expect_io_error(write_raw("t.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", raw(d)),
                  "truncated data");
  // Trailing bytes are rejected too: the header and the file disagree about the array.
  expect_io_error(write_raw("x.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", raw(d)),
                  "unexpected bytes");
  // A file cut inside its header.
  const auto p = write_raw("th.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", raw(d));
  fs::resize_file(p, 30);
  expect_io_error(p, "truncated header");
}

TEST_F(NpyTest, UnsupportedVersionAndMissingFileThrow) {
  const std::vector<double> d{1};
  expect_io_error(write_raw("v9.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", raw(d), 9),
                  "unsupported .npy format version 9.0");
  expect_io_error(path("nope.npy"), "cannot open");
}

TEST_F(NpyTest, WriteToMissingDirectoryThrowsIoError) {
  const double x = 1;
  const std::string p = path("no/such/dir/a.npy");
  try {
    revwave::write_npy(p, {1}, &x);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

TEST_F(NpyTest, AtomicWriteLeavesNoTemporary) {
  const std::vector<float> v{1, 2, 3};
  revwave::write_npy(path("a.npy"), {3}, v.data());
  revwave::write_npy(path("a.npy"), {3}, v.data());  // overwrite an existing file
  EXPECT_EQ(entries(), std::vector<std::string>{"a.npy"});
}

TEST_F(NpyTest, AtomicWriteKeepsDestinationWhenWriterThrows) {
  const std::string p = path("keep.txt");
  revwave::write_file_atomically(p, [](std::ostream& out) { out << "old content"; });
  EXPECT_THROW(revwave::write_file_atomically(p,
                                              [](std::ostream& out) {
                                                out << "half of the new";
                                                throw std::runtime_error("writer failed");
                                              }),
               std::runtime_error);
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  EXPECT_EQ(s, "old content");
  EXPECT_EQ(entries(), std::vector<std::string>{"keep.txt"});
}

TEST_F(NpyTest, AStreamReadsLikeTheFile) {
  const std::vector<double> v{1.5, -2, 3e-300, 4};
  revwave::write_npy(path("s.npy"), {2, 2}, v.data());
  std::ifstream file(path("s.npy"), std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  const revwave::NpyArray a = revwave::read_npy(bytes, "in-memory");
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(a.data, v);
  std::stringstream junk("\x93NUMPY junk");
  try {
    revwave::read_npy(junk, "in-memory");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("in-memory: ", 0), 0u) << e.what();
  }
}
