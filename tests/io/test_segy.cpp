// SEG-Y: revwave's writer read back by revwave and by segyio's own C API (raw headers), files in
// other sort orders and sample formats written with segyio directly, and malformed files refused.
#include <gtest/gtest.h>
#include <segyio/segy.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/segy.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using revwave::InputError;
using revwave::IoError;
using revwave::SegyShot;
using revwave::SegySurvey;

namespace {

class Segy : public revwave::testing::TempDirTest {
 protected:
  Segy() : TempDirTest("revwave_segy") {}
};

// Three shots of different sizes, coordinates on a millimetre grid that are also binary fractions
// (so that stored / 1000 is the same double), samples random floats.
SegySurvey sample_survey() {
  SegySurvey s;
  s.dt = revwave::segy_dt(1500);
  s.nt = 37;
  s.f0 = 1.0 / 3.0;
  s.t0 = 0.1 + 0.2;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int k = 0; k < 3; ++k) {
    SegyShot g;
    g.source = {100.0 + 12.375 * k, 50.5, 7.25};
    for (int r = 0; r < 4 + k; ++r) g.receivers.push_back({10.0 * r + 0.125, 20.0 - r, 3.5 + 0.125 * r});
    for (std::size_t i = 0; i < g.receivers.size() * 37; ++i)
      g.traces.push_back(static_cast<double>(normal(rng) * 1e-3f));
    s.shots.push_back(g);
  }
  return s;
}

std::int32_t field(const char* h, int f) {
  std::int32_t v = 0;
  segy_get_field(h, f, &v);
  return v;
}

// A file written with segyio alone, for what revwave itself never writes.
struct RawTrace {
  std::int32_t fldr = 0, sx = 0, sy = 0, sdepth = 0, gx = 0, gy = 0, gelev = 0, scalar = 0, elev_scalar = 0, units = 1;
  std::int32_t count = 0, interval = 0, id = 1;
  std::vector<float> samples;
};

void write_raw(const std::string& path, int format, int samples, int interval, const std::vector<RawTrace>& traces,
               int measurement = 1) {
  segy_file* fp = segy_open(path.c_str(), "w+b");
  ASSERT_NE(fp, nullptr);
  std::string text(3200, ' ');
  ASSERT_EQ(segy_write_textheader(fp, 0, text.c_str()), SEGY_OK);
  char bin[SEGY_BINARY_HEADER_SIZE] = {};
  segy_set_bfield(bin, SEGY_BIN_INTERVAL, interval);
  segy_set_bfield(bin, SEGY_BIN_SAMPLES, samples);
  segy_set_bfield(bin, SEGY_BIN_FORMAT, format);
  segy_set_bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM, measurement);
  ASSERT_EQ(segy_write_binheader(fp, bin), SEGY_OK);
  const int fmt = format == 1 || format == 5 ? format : 5;
  segy_set_format(fp, fmt);
  const long trace0 = segy_trace0(bin);
  const int bytes = segy_trsize(fmt, samples);
  for (int t = 0; t < static_cast<int>(traces.size()); ++t) {
    const RawTrace& r = traces[t];
    char th[SEGY_TRACE_HEADER_SIZE] = {};
    const std::pair<int, std::int32_t> fields[] = {{SEGY_TR_FIELD_RECORD, r.fldr},
                                                   {SEGY_TR_TRACE_ID, r.id},
                                                   {SEGY_TR_SOURCE_X, r.sx},
                                                   {SEGY_TR_SOURCE_Y, r.sy},
                                                   {SEGY_TR_SOURCE_DEPTH, r.sdepth},
                                                   {SEGY_TR_GROUP_X, r.gx},
                                                   {SEGY_TR_GROUP_Y, r.gy},
                                                   {SEGY_TR_RECV_GROUP_ELEV, r.gelev},
                                                   {SEGY_TR_SOURCE_GROUP_SCALAR, r.scalar},
                                                   {SEGY_TR_ELEV_SCALAR, r.elev_scalar},
                                                   {SEGY_TR_COORD_UNITS, r.units},
                                                   {SEGY_TR_SAMPLE_COUNT, r.count},
                                                   {SEGY_TR_SAMPLE_INTER, r.interval}};
    for (const auto& [f, v] : fields) segy_set_field(th, f, v);
    ASSERT_EQ(segy_write_traceheader(fp, t, th, trace0, bytes), SEGY_OK);
    std::vector<float> d = r.samples;
    d.resize(static_cast<std::size_t>(samples), 0.0f);
    ASSERT_EQ(segy_from_native(fmt, samples, d.data()), SEGY_OK);
    ASSERT_EQ(segy_writetrace(fp, t, d.data(), trace0, bytes), SEGY_OK);
  }
  segy_close(fp);
}

// Two shots, traces interleaved (not shot-sorted), no FieldRecord: grouped by source position.
std::vector<RawTrace> interleaved() {
  std::vector<RawTrace> v;
  for (int t = 0; t < 6; ++t) {
    RawTrace r;
    const int shot = t % 2;
    r.sx = 1000 + 500 * shot;  // scalar 10: x = 10000 + 5000 shot metres
    r.sy = 20;
    r.sdepth = 15;  // elevation scalar -10: 1.5 m
    r.gx = 1000 + 10 * t;
    r.gy = 30;
    r.gelev = -40;  // depth 4 m
    r.scalar = 10;
    r.elev_scalar = -10;
    r.samples = {0.5f * t, -1.25f, 3.0f, 0.0f};
    v.push_back(r);
  }
  return v;
}

TEST_F(Segy, RoundTripIsExact) {
  const SegySurvey s = sample_survey();
  revwave::write_segy(path("s.sgy"), s);
  const SegySurvey r = revwave::read_segy(path("s.sgy"));
  EXPECT_EQ(r.dt, s.dt);
  EXPECT_EQ(r.nt, s.nt);
  EXPECT_EQ(r.f0, s.f0);
  EXPECT_EQ(r.t0, s.t0);
  EXPECT_EQ(r.grouping, "FieldRecord");
  ASSERT_EQ(r.shots.size(), s.shots.size());
  std::int64_t trace = 0;
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    EXPECT_EQ(r.shots[k].field_record, static_cast<std::int64_t>(k + 1));
    EXPECT_EQ(r.shots[k].source, s.shots[k].source);
    EXPECT_EQ(r.shots[k].receivers, s.shots[k].receivers);
    EXPECT_EQ(r.shots[k].traces, s.shots[k].traces);  // float32 samples, exactly
    for (std::int64_t t : r.shots[k].trace_numbers) EXPECT_EQ(t, trace++);
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"s.sgy"});  // no temporary left
}

TEST_F(Segy, SegyioReadsTheRawHeadersRevwaveWrote) {
  const SegySurvey s = sample_survey();
  revwave::write_segy(path("s.sgy"), s);
  segy_file* fp = segy_open(path("s.sgy").c_str(), "rb");
  ASSERT_NE(fp, nullptr);
  char text[3201] = {};
  ASSERT_EQ(segy_read_textheader(fp, text), SEGY_OK);
  EXPECT_EQ(std::string(text, 4), "C 1 ");
  EXPECT_NE(std::string(text).find("REVWAVE RICKER F0="), std::string::npos);
  char bin[SEGY_BINARY_HEADER_SIZE];
  ASSERT_EQ(segy_binheader(fp, bin), SEGY_OK);
  std::int32_t v = 0;
  EXPECT_EQ(segy_format(bin), SEGY_IEEE_FLOAT_4_BYTE);
  EXPECT_EQ(segy_samples(bin), 37);
  segy_get_bfield(bin, SEGY_BIN_INTERVAL, &v);
  EXPECT_EQ(v, 1500);
  segy_get_bfield(bin, SEGY_BIN_SEGY_REVISION, &v);
  EXPECT_EQ(v, 0x0100);
  segy_get_bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM, &v);
  EXPECT_EQ(v, 1);
  segy_get_bfield(bin, SEGY_BIN_TRACE_FLAG, &v);
  EXPECT_EQ(v, 1);
  const long trace0 = segy_trace0(bin);
  const int bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, 37);
  ASSERT_EQ(segy_set_format(fp, SEGY_IEEE_FLOAT_4_BYTE), SEGY_OK);
  int traces = 0;
  ASSERT_EQ(segy_traces(fp, &traces, trace0, bytes), SEGY_OK);
  EXPECT_EQ(traces, 4 + 5 + 6);
  // Shot 1, receiver 2: trace 4 + 2.
  char th[SEGY_TRACE_HEADER_SIZE];
  ASSERT_EQ(segy_traceheader(fp, 6, th, trace0, bytes), SEGY_OK);
  const auto& g = s.shots[1];
  EXPECT_EQ(field(th, SEGY_TR_FIELD_RECORD), 2);
  EXPECT_EQ(field(th, SEGY_TR_NUMBER_ORIG_FIELD), 3);
  EXPECT_EQ(field(th, SEGY_TR_SEQ_FILE), 7);
  EXPECT_EQ(field(th, SEGY_TR_TRACE_ID), 1);
  EXPECT_EQ(field(th, SEGY_TR_SOURCE_GROUP_SCALAR), -1000);  // millimetres
  EXPECT_EQ(field(th, SEGY_TR_ELEV_SCALAR), -1000);
  EXPECT_EQ(field(th, SEGY_TR_SOURCE_X), std::lround(g.source[0] * 1000));
  EXPECT_EQ(field(th, SEGY_TR_SOURCE_Y), 50500);
  EXPECT_EQ(field(th, SEGY_TR_SOURCE_DEPTH), 7250);
  EXPECT_EQ(field(th, SEGY_TR_GROUP_X), 20125);
  EXPECT_EQ(field(th, SEGY_TR_GROUP_Y), 18000);
  EXPECT_EQ(field(th, SEGY_TR_RECV_GROUP_ELEV), -3750);  // 3.75 m deep
  EXPECT_EQ(field(th, SEGY_TR_COORD_UNITS), 1);
  EXPECT_EQ(field(th, SEGY_TR_SAMPLE_COUNT), 37);
  EXPECT_EQ(field(th, SEGY_TR_SAMPLE_INTER), 1500);
  std::vector<float> d(37);
  ASSERT_EQ(segy_readtrace(fp, 6, d.data(), trace0, bytes), SEGY_OK);
  ASSERT_EQ(segy_to_native(SEGY_IEEE_FLOAT_4_BYTE, 37, d.data()), SEGY_OK);
  for (int n = 0; n < 37; ++n) EXPECT_EQ(static_cast<double>(d[n]), g.traces[static_cast<std::size_t>(n) * 5 + 2]) << n;
  segy_close(fp);
}

TEST_F(Segy, OriginAndCoarserScalarsRoundTripWhatTheFileHolds) {
  SegySurvey s = sample_survey();
  const std::array<double, 3> origin{512345.678, 6712345.5, 100.0};  // UTM-sized: millimetres overflow 32 bits
  SegySurvey rounded = s;
  revwave::round_to_segy_coordinates(rounded, origin);
  EXPECT_NE(rounded.shots[0].receivers[0], s.shots[0].receivers[0]);  // centimetres: 0.125 m + X0 is not one
  revwave::write_segy(path("s.sgy"), s, origin);
  revwave::SegyReadOptions ro;
  ro.origin = origin;
  const SegySurvey r = revwave::read_segy(path("s.sgy"), ro);
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    EXPECT_EQ(r.shots[k].source, rounded.shots[k].source);
    EXPECT_EQ(r.shots[k].receivers, rounded.shots[k].receivers);
    for (std::size_t i = 0; i < r.shots[k].receivers.size(); ++i) {
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(r.shots[k].receivers[i][a], s.shots[k].receivers[i][a], 0.05);
    }
  }
  // Writing the rounded survey stores the same integers: the round trip is exact.
  revwave::write_segy(path("r.sgy"), rounded, origin);
  const SegySurvey rr = revwave::read_segy(path("r.sgy"), ro);
  EXPECT_EQ(rr.shots[2].receivers, rounded.shots[2].receivers);
}

TEST_F(Segy, UnsortedFileIsGroupedBySourcePositionWithScalars) {
  write_raw(path("u.segy"), SEGY_IBM_FLOAT_4_BYTE, 4, 2000, interleaved());
  const SegySurvey r = revwave::read_segy(path("u.segy"));
  EXPECT_EQ(r.grouping, "source position");
  EXPECT_EQ(r.dt, 0.002);
  EXPECT_EQ(r.f0, 0.0);  // no wavelet recorded
  ASSERT_EQ(r.shots.size(), 2u);
  const std::array<double, 3> s0{10000.0, 200.0, 1.5}, s1{15000.0, 200.0, 1.5};
  EXPECT_EQ(r.shots[0].source, s0);
  EXPECT_EQ(r.shots[1].source, s1);
  ASSERT_EQ(r.shots[1].receivers.size(), 3u);
  EXPECT_EQ(r.shots[1].trace_numbers, (std::vector<std::int64_t>{1, 3, 5}));
  const std::array<double, 3> g3{10300.0, 300.0, 4.0};
  EXPECT_EQ(r.shots[1].receivers[1], g3);
  // IBM float samples: (nt, nrec) with trace 3 in column 1.
  EXPECT_EQ(r.shots[1].traces[0 * 3 + 1], 1.5);
  EXPECT_EQ(r.shots[1].traces[1 * 3 + 1], -1.25);
  EXPECT_EQ(r.shots[1].traces[2 * 3 + 1], 3.0);
}

TEST_F(Segy, OriginFeetAndDeadTraces) {
  std::vector<RawTrace> t = interleaved();
  t[4].id = 2;  // dead
  write_raw(path("f.sgy"), SEGY_IEEE_FLOAT_4_BYTE, 4, 2000, t, /*feet*/ 2);
  revwave::SegyReadOptions ro;
  ro.origin = {3000.0, 0.0, 0.0};
  const SegySurvey r = revwave::read_segy(path("f.sgy"), ro);
  EXPECT_EQ(r.dead_traces, 1);
  ASSERT_EQ(r.shots[0].receivers.size(), 2u);
  EXPECT_NEAR(r.shots[0].source[0], 10000.0 * 0.3048 - 3000.0, 1e-9);
  EXPECT_DOUBLE_EQ(r.shots[0].source[2], 1.5 * 0.3048);
}

TEST_F(Segy, MalformedFilesAreRefusedWithTheirRule) {
  auto refused = [&](const std::string& file, const std::string& mention) {
    try {
      revwave::read_segy(path(file));
      ADD_FAILURE() << file << " was accepted";
    } catch (const IoError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(mention), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_EQ(msg.rfind(path(file), 0), 0u) << msg;
    }
  };
  std::ofstream(path("text.sgy")) << "this is not a SEG-Y file\n";
  refused("text.sgy", "not SEG-Y");
  {
    std::ofstream junk(path("junk.sgy"), std::ios::binary);
    std::mt19937 rng(3);
    for (int i = 0; i < 5000; ++i) junk.put(static_cast<char>(rng()));
  }
  refused("junk.sgy", "junk.sgy: ");
  revwave::write_segy(path("ok.sgy"), sample_survey());
  fs::copy_file(path("ok.sgy"), path("short.sgy"));
  fs::resize_file(path("short.sgy"), fs::file_size(path("short.sgy")) - 10);
  refused("short.sgy", "truncated");

  // interleaved() with one thing wrong, written by segyio (format 5, IEEE floats, and a 2000 us
  // interval unless given) and refused.
  using Traces = std::vector<RawTrace>;
  const auto refused_raw = [&](const std::string& file, const std::function<void(Traces&)>& spoil,
                               const std::string& mention, int format = 5, int interval = 2000) {
    Traces t = interleaved();
    spoil(t);
    write_raw(path(file), format, 4, interval, t);
    refused(file, mention);
  };
  const auto as_is = [](Traces&) {};
  refused_raw("zero.sgy", as_is, "sample interval is 0", 5, 0);
  refused_raw(
      "disagree.sgy", [](Traces& t) { t[3].interval = 1000; }, "trace 3: sample interval 1000 us disagrees");
  refused_raw(
      "disagree0.sgy",
      [](Traces& t) {
        t[1].interval = 2000;
        t[2].interval = 4000;
      },
      "trace 2: sample interval 4000 us disagrees", 5, 0);
  // Format 3 (int16) is read now (test_segy_field_data.cpp); the obsolete fixed point with gain is not.
  refused_raw("fixed_point.sgy", as_is, "sample format code 4 (fixed point with gain, obsolete) is not supported", 4);
  refused_raw(
      "scalar.sgy", [](Traces& t) { t[2].scalar = 7; }, "trace 2: SourceGroupScalar 7 is invalid");
  refused_raw(
      "arcsec.sgy", [](Traces& t) { t[5].units = 2; }, "trace 5: CoordinateUnits 2");
  refused_raw(
      "nan.sgy", [](Traces& t) { t[1].samples[2] = std::nanf(""); }, "trace 1 sample 2 is not finite");
  refused_raw(
      "record.sgy",
      [](Traces& t) {
        for (auto& r : t) r.fldr = 9;
      },  // one record, two source positions
      "FieldRecord 9 has traces 0 and 1 with different source positions");
  refused_raw(
      "count.sgy", [](Traces& t) { t[4].count = 5; }, "trace 4 has 5 samples");
  refused_raw(
      "dead.sgy",
      [](Traces& t) {
        for (auto& r : t) r.id = 2;
      },
      "dead or dummy");
}

TEST_F(Segy, WholeMicrosecondsAndWriteRefusals) {
  EXPECT_EQ(revwave::segy_interval_us(0.001), 1000);
  EXPECT_EQ(revwave::segy_interval_us(revwave::segy_dt(1517)), 1517);
  EXPECT_THROW(revwave::segy_interval_us(0.0010005), InputError);
  EXPECT_THROW(revwave::segy_interval_us(0.04), InputError);  // 40000 us: beyond 16 bits
  EXPECT_EQ(revwave::segy_dt_floor(0.00151663), 0.001516);
  EXPECT_EQ(revwave::segy_dt_floor(0.002), 0.002);
  EXPECT_THROW(revwave::segy_dt_floor(4e-7), InputError);

  SegySurvey s = sample_survey();
  s.dt = 0.00150001;
  EXPECT_THROW(revwave::write_segy(path("a.sgy"), s), InputError);
  s = sample_survey();
  s.shots[1].traces.pop_back();
  EXPECT_THROW(revwave::write_segy(path("b.sgy"), s), InputError);
  s = sample_survey();
  s.shots[2].traces[5] = 1e300;  // not a float
  EXPECT_THROW(revwave::write_segy(path("c.sgy"), s), InputError);
  EXPECT_TRUE(entries().empty());
  EXPECT_THROW(revwave::write_segy(path("no-such-dir/d.sgy"), sample_survey()), IoError);
}

}  // namespace
