// SEG-Y as field data comes: little-endian files, integer and double samples, rev 2 headers, and
// headers that contradict each other where the file itself settles it (read, with one warning saying
// what was overridden), or where it does not (refused, naming the --segy-* option that settles it).
// The files are written byte by byte here: segyio 1.8 writes neither rev 2 headers nor the faults.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/segy.hpp"
#include "temp_dir.hpp"

namespace {

using revwave::IoError;
using revwave::SegyReadOptions;
using revwave::SegySurvey;

// A SEG-Y file in memory: textual header (EBCDIC spaces), binary header, traces, either byte order.
class SegyBytes {
 public:
  SegyBytes(bool little, int format, int samples, int interval_us)
      : little_(little), format_(format), samples_(samples) {
    bytes_.assign(3600, 0);
    for (int i = 0; i < 3200; ++i) bytes_[i] = '\x40';  // EBCDIC space
    binary(3217, 2, interval_us);
    binary(3221, 2, samples);
    binary(3225, 2, format);
    binary(3255, 2, 1);       // metres
    binary(3501, 2, 0x0100);  // rev 1
  }
  void binary(int at, int size, std::int64_t v) { put(bytes_.data() + at - 1, size, v); }
  // Extended textual headers (rev 2): `count` blocks after the binary header; `stanza_last` ends the
  // last one with ((SEG: EndText)) in EBCDIC.
  void extended_text(int count, bool stanza_last) {
    for (int k = 0; k < count; ++k) {
      std::string block(3200, '\x40');
      if (stanza_last && k == count - 1) {
        const unsigned char endtext[] = {0x4D, 0x4D, 0xE2, 0xC5, 0xC7, 0x7A, 0x40, 0xC5,
                                         0x95, 0x84, 0xE3, 0x85, 0xA7, 0xA3, 0x5D, 0x5D};
        std::memcpy(block.data(), endtext, sizeof endtext);
      }
      bytes_.insert(bytes_.end(), block.begin(), block.end());
    }
  }
  struct Trace {
    std::int32_t fldr = 1, sx = 100, sy = 20, gx = 10, gy = 30, scalar = 1, units = 1, count = -1, interval = 0;
    std::vector<double> samples;
    int extensions = 0;  // rev 2: extra 240-byte headers
  };
  void trace(const Trace& t) {
    std::vector<char> h(240, 0);
    put(h.data() + 8, 4, t.fldr);
    put(h.data() + 28, 2, 1);
    put(h.data() + 70, 2, t.scalar);
    put(h.data() + 68, 2, 1);
    put(h.data() + 72, 4, t.sx);
    put(h.data() + 76, 4, t.sy);
    put(h.data() + 80, 4, t.gx);
    put(h.data() + 84, 4, t.gy);
    put(h.data() + 40, 4, -5);  // receivers 5 m deep
    put(h.data() + 48, 4, 10);  // sources 10 m deep
    put(h.data() + 88, 2, t.units);
    put(h.data() + 114, 2, t.count < 0 ? samples_ : t.count);
    put(h.data() + 116, 2, t.interval);
    bytes_.insert(bytes_.end(), h.begin(), h.end());
    bytes_.insert(bytes_.end(), static_cast<std::size_t>(240 * t.extensions), '\0');
    for (int i = 0; i < samples_; ++i) sample(i < static_cast<int>(t.samples.size()) ? t.samples[i] : 0.0);
  }
  const std::string& text() const { return bytes_; }
  void save(const std::string& path) const { std::ofstream(path, std::ios::binary) << bytes_; }

 private:
  void put(char* p, int size, std::int64_t v) const {
    for (int i = 0; i < size; ++i)
      p[little_ ? i : size - 1 - i] = static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
  }
  void raw(std::uint64_t bits, int size) {
    char b[8];
    put(b, size, static_cast<std::int64_t>(bits));
    bytes_.insert(bytes_.end(), b, b + size);
  }
  void sample(double v) {
    switch (format_) {
      case 5: {
        float f = static_cast<float>(v);
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        raw(u, 4);
        break;
      }
      case 6: {
        std::uint64_t u;
        std::memcpy(&u, &v, 8);
        raw(u, 8);
        break;
      }
      case 2: raw(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)), 4); break;
      case 3: raw(static_cast<std::uint16_t>(static_cast<std::int16_t>(v)), 2); break;
      case 7: raw(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) & 0xffffffu, 3); break;
      case 8: raw(static_cast<std::uint8_t>(static_cast<std::int8_t>(v)), 1); break;
      case 11: raw(static_cast<std::uint16_t>(v), 2); break;
      default: FAIL() << "format " << format_ << " not written here";
    }
  }
  bool little_;
  int format_, samples_;
  std::string bytes_;
};

SegyBytes::Trace trace(std::int32_t fldr, std::int32_t gx, std::vector<double> samples) {
  SegyBytes::Trace t;
  t.fldr = fldr;
  t.sx = 100 * fldr;
  t.gx = gx;
  t.samples = std::move(samples);
  return t;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const IoError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(SegyFieldData, LittleEndianFilesReadAsBigEndianOnesWithOneWarning) {
  SegySurvey read[2];
  for (int little = 0; little < 2; ++little) {
    SegyBytes f(little == 1, 5, 4, 2000);
    f.trace(trace(1, 10, {0.5, -1.25, 3, 0}));
    f.trace(trace(1, 20, {1, 2, 3, 4}));
    f.trace(trace(2, 10, {-1, -2, -3, -4}));
    read[little] = revwave::read_segy_bytes(f.text(), "f.sgy");
  }
  EXPECT_TRUE(read[0].warnings.empty());
  ASSERT_EQ(read[1].warnings.size(), 1u);
  EXPECT_NE(read[1].warnings[0].find("f.sgy: read as little-endian"), std::string::npos) << read[1].warnings[0];
  ASSERT_EQ(read[1].shots.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(read[1].shots[k].traces, read[0].shots[k].traces);
    EXPECT_EQ(read[1].shots[k].receivers, read[0].shots[k].receivers);
    EXPECT_EQ(read[1].shots[k].source, read[0].shots[k].source);
  }
  EXPECT_EQ(read[1].shots[0].traces[1 * 2 + 0], -1.25);  // (nt, nrec): sample 1 of receiver 0
  EXPECT_EQ(read[1].dt, 0.002);
  // Rev 2 says its byte order itself (the constant 16909060): no warning; stated: none either.
  SegyBytes r2(true, 5, 4, 2000);
  r2.binary(3501, 2, 0x0200);
  r2.binary(3297, 4, 0x01020304);
  r2.trace(trace(1, 10, {1, 2, 3, 4}));
  EXPECT_TRUE(revwave::read_segy_bytes(r2.text(), "r2.sgy").warnings.empty());
  SegyReadOptions little;
  little.endian = revwave::SegyEndian::little;
  SegyBytes plain(true, 5, 4, 2000);
  plain.trace(trace(1, 10, {1, 2, 3, 4}));
  EXPECT_TRUE(revwave::read_segy_bytes(plain.text(), "p.sgy", little).warnings.empty());
}

TEST(SegyFieldData, IntegerAndDoubleSamplesAreReadExactly) {
  const std::vector<double> values{-128, 127, 0, -7};
  for (int format : {2, 3, 7, 8, 6}) {
    for (int little = 0; little < 2; ++little) {
      SegyBytes f(little == 1, format, 4, 1000);
      f.trace(trace(1, 10, format == 6 ? std::vector<double>{0.1, -1e300, 3.5, 1e-310} : values));
      const SegySurvey s = revwave::read_segy_bytes(f.text(), "f.sgy");
      ASSERT_EQ(s.shots.size(), 1u) << format;
      EXPECT_EQ(s.shots[0].traces, (format == 6 ? std::vector<double>{0.1, -1e300, 3.5, 1e-310} : values)) << format;
    }
  }
  SegyBytes u16(false, 11, 2, 1000);
  u16.trace(trace(1, 10, {65535, 1}));
  EXPECT_EQ(revwave::read_segy_bytes(u16.text(), "u.sgy").shots[0].traces, (std::vector<double>{65535, 1}));
  // Not finite as IEEE double: refused, as a float one is.
  SegyBytes nan(false, 6, 2, 1000);
  nan.trace(trace(1, 10, {1, std::nan("")}));
  EXPECT_NE(message_of([&] { revwave::read_segy_bytes(nan.text(), "n.sgy"); }).find("trace 0 sample 1 is not finite"),
            std::string::npos);
  // The obsolete fixed point with gain stays refused.
  SegyBytes four(false, 5, 2, 1000);
  four.binary(3225, 2, 4);
  four.trace(trace(1, 10, {1, 2}));
  EXPECT_NE(message_of([&] {
              revwave::read_segy_bytes(four.text(), "g.sgy");
            }).find("sample format code 4 (fixed point with gain, obsolete)"),
            std::string::npos);
}

// The Viking Graben line of segyio's tutorial: its binary header says 600 samples, every trace header
// 1500, and the file is 480 whole traces of 600 samples (of 1500 it would not be).
TEST(SegyFieldData, TraceHeadersWhoseSampleCountTheFileSizeDisprovesAreOverruled) {
  SegyBytes f(false, 5, 4, 4000);
  for (int t = 0; t < 3; ++t) {
    SegyBytes::Trace tr = trace(1, 10 * t, {1, 2, 3, double(t)});
    tr.count = 10;
    f.trace(tr);
  }
  const SegySurvey s = revwave::read_segy_bytes(f.text(), "viking.sgy");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("the binary header says 4 samples per trace, the first trace header 10: read 4"),
            std::string::npos)
      << s.warnings[0];
  EXPECT_EQ(s.nt, 4);
  EXPECT_EQ(s.shots[0].traces[3 * 3 + 2], 2.0);
  // The other way round: the binary header wrong, the traces right.
  SegyBytes g(false, 5, 4, 4000);
  g.binary(3221, 2, 9);
  g.trace(trace(1, 10, {1, 2, 3, 4}));
  const SegySurvey t = revwave::read_segy_bytes(g.text(), "g.sgy");
  EXPECT_EQ(t.nt, 4);
  ASSERT_EQ(t.warnings.size(), 1u);
  // Both counts make whole traces: ambiguous, refused, and --segy-samples settles it. Two traces of 12
  // one-byte samples (2 x 252 bytes) are also one trace of 264 (240 + 264 bytes).
  SegyBytes amb(false, 8, 12, 4000);
  SegyBytes::Trace b = trace(1, 10, {});
  b.count = 264;
  amb.trace(b);
  amb.trace(b);
  const std::string m = message_of([&] { revwave::read_segy_bytes(amb.text(), "amb.sgy"); });
  EXPECT_NE(
      m.find(
          "amb.sgy: the binary header says 12 samples per trace, the first trace header 264, and its size fits both: give the "
          "count with --segy-samples"),
      std::string::npos)
      << m;
  SegyReadOptions o;
  o.samples = 12;
  const SegySurvey stated = revwave::read_segy_bytes(amb.text(), "amb.sgy", o);
  EXPECT_EQ(stated.nt, 12);
  ASSERT_EQ(stated.warnings.size(), 1u);
  EXPECT_NE(stated.warnings[0].find("--segy-samples 12 overrides its headers"), std::string::npos)
      << stated.warnings[0];
  // A trace whose count is neither: traces of different lengths, refused as before.
  SegyBytes v(false, 5, 4, 4000);
  v.trace(trace(1, 10, {1, 2, 3, 4}));
  SegyBytes::Trace odd = trace(1, 20, {1, 2, 3, 4});
  odd.count = 5;
  v.trace(odd);
  EXPECT_NE(message_of([&] { revwave::read_segy_bytes(v.text(), "v.sgy"); }).find("v.sgy: trace 1 has 5 samples"),
            std::string::npos);
}

TEST(SegyFieldData, DegreesOnCoordinatesNoAngleCanHaveAreReadAsLengths) {
  SegyBytes f(false, 5, 2, 4000);
  for (int t = 0; t < 2; ++t) {
    SegyBytes::Trace tr = trace(3, 25 * t, {1, 2});
    tr.sx = 3237;  // as the Viking line: x in metres, CoordinateUnits 3 (decimal degrees)
    tr.sy = 0;
    tr.gy = 0;
    tr.units = 3;
    f.trace(tr);
  }
  const SegySurvey s = revwave::read_segy_bytes(f.text(), "deg.sgy");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(
      s.warnings[0].find(
          "deg.sgy: CoordinateUnits 3 (decimal degrees) on 2 traces from trace 0, but their coordinates are no angles"),
      std::string::npos)
      << s.warnings[0];
  EXPECT_EQ(s.shots[0].source[0], 3237.0);
  // Coordinates that could be degrees: geographic, refused, naming --segy-units.
  SegyBytes g(false, 5, 2, 4000);
  SegyBytes::Trace tr = trace(1, 10, {1, 2});
  tr.units = 3;
  tr.sx = 12;
  g.trace(tr);
  const std::string m = message_of([&] { revwave::read_segy_bytes(g.text(), "geo.sgy"); });
  EXPECT_NE(m.find("geo.sgy: trace 0: CoordinateUnits 3 is not supported"), std::string::npos) << m;
  EXPECT_NE(m.find("--segy-units"), std::string::npos) << m;
  SegyReadOptions feet;
  feet.units = revwave::SegyUnits::feet;
  EXPECT_DOUBLE_EQ(revwave::read_segy_bytes(g.text(), "geo.sgy", feet).shots[0].source[0], 12 * 0.3048);
}

TEST(SegyFieldData, Rev2ExtendedTextualHeadersAndTraceHeaderExtensions) {
  for (int variable = 0; variable < 2; ++variable) {
    SegyBytes f(variable == 1, 5, 3, 1000);
    f.binary(3501, 2, 0x0200);
    f.binary(3297, 4, 0x01020304);
    f.binary(3505, 2, variable ? -1 : 2);
    f.binary(3507, 2, 2);  // two trace header extensions
    f.extended_text(2, variable == 1);
    SegyBytes::Trace tr = trace(1, 10, {1, 2, 3});
    tr.extensions = 2;
    f.trace(tr);
    tr.gx = 20;
    f.trace(tr);
    const SegySurvey s = revwave::read_segy_bytes(f.text(), "rev2.sgy");
    ASSERT_EQ(s.shots.size(), 1u);
    EXPECT_EQ(s.shots[0].traces, (std::vector<double>{1, 1, 2, 2, 3, 3}));
    EXPECT_TRUE(s.warnings.empty());
  }
  // Rev 2's extended sample count overrides the 16-bit one.
  SegyBytes e(false, 5, 3, 1000);
  e.binary(3501, 2, 0x0200);
  e.binary(3221, 2, 0);
  e.binary(3269, 4, 3);
  e.trace(trace(1, 10, {4, 5, 6}));
  EXPECT_EQ(revwave::read_segy_bytes(e.text(), "ext.sgy").nt, 3);
  // A variable count of extended textual headers that never ends: refused.
  SegyBytes never(false, 5, 3, 1000);
  never.binary(3501, 2, 0x0200);
  never.binary(3505, 2, -1);
  never.extended_text(1, false);
  never.trace(trace(1, 10, {1, 2, 3}));
  EXPECT_NE(message_of([&] {
              revwave::read_segy_bytes(never.text(), "never.sgy");
            }).find("never end with a ((SEG: EndText)) stanza"),
            std::string::npos);
}

TEST(SegyFieldData, ScalarsThatAreNoPowerOfTenAreRefusedUnlessStated) {
  SegyBytes f(false, 5, 2, 1000);
  SegyBytes::Trace tr = trace(1, 10, {1, 2});
  tr.scalar = 7;
  f.trace(tr);
  const std::string m = message_of([&] { revwave::read_segy_bytes(f.text(), "s.sgy"); });
  EXPECT_NE(
      m.find(
          "s.sgy: trace 0: SourceGroupScalar 7 is invalid: 0 or +-1, 10, 100, 1000, 10000 (--segy-coordinate-scalar states the right one)"),
      std::string::npos)
      << m;
  SegyReadOptions o;
  o.coordinate_scalar = -10;
  const SegySurvey s = revwave::read_segy_bytes(f.text(), "s.sgy", o);
  EXPECT_EQ(s.shots[0].source[0], 10.0);  // 100 / 10
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("--segy-coordinate-scalar -10 replaces the trace headers' SourceGroupScalar 7"),
            std::string::npos)
      << s.warnings[0];
}

class SegyFiles : public revwave::testing::TempDirTest {
 protected:
  SegyFiles() : TempDirTest("revwave_segy_field") {}
};

TEST_F(SegyFiles, AFileIsReadAsItsBytesAre) {
  SegyBytes f(true, 3, 3, 2000);
  f.trace(trace(1, 10, {1, -2, 3}));
  f.save(path("le.sgy"));
  const SegySurvey s = revwave::read_segy(path("le.sgy"));
  EXPECT_EQ(s.shots[0].traces, (std::vector<double>{1, -2, 3}));
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0].rfind(path("le.sgy") + ": read as little-endian", 0), 0u) << s.warnings[0];
}

}  // namespace
