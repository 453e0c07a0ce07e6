// Tests of shot record I/O: the .npy traces and the required sidecar JSON.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/shot_record.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using revwave::IoError;
using revwave::ShotRecordMeta;

namespace {

class ShotRecordTest : public revwave::testing::TempDirTest {
 protected:
  ShotRecordTest() : TempDirTest("revwave_shot") {}

  static ShotRecordMeta meta(const std::string& precision = "float64") {
    ShotRecordMeta m;
    m.dt = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
    m.nt = 4;
    m.f0 = 1.0 / 3.0;
    m.t0 = 2.0 / 3.0;
    m.sources = {{1.0 / 3.0, 1e-300, -7.25}};
    m.receivers = {{0.0, 1.0 / 7.0, 10.0}, {5.0, 1.0 / 7.0, 10.0}, {10.0, 1e300, 10.0}};
    m.precision = precision;
    return m;
  }
  static std::vector<double> traces(std::int64_t n) {
    std::vector<double> t(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = (static_cast<double>(i) + 0.1) / 3.0;
    return t;
  }
  // A record of three receivers (traces(nt * 3)) written as shot.npy with its sidecar; its path.
  std::string written(const ShotRecordMeta& m) const {
    const std::string p = path("shot.npy");
    revwave::write_shot_record(p, m, traces(m.nt * 3));
    return p;
  }
  static json load(const std::string& p) {
    std::ifstream in(p);
    return json::parse(in);
  }
  static void save(const std::string& p, const json& j) { std::ofstream(p) << j.dump(); }
  static void expect_io_error(const std::string& p, const std::vector<std::string>& parts) {
    try {
      revwave::read_shot_record(p);
      FAIL() << "no IoError";
    } catch (const IoError& e) {
      for (const auto& s : parts)
        EXPECT_NE(std::string(e.what()).find(s), std::string::npos) << e.what() << " lacks " << s;
    }
  }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_F(ShotRecordTest, SidecarPath) {
  EXPECT_EQ(revwave::sidecar_path("a/b/shot.npy"), "a/b/shot.json");
  EXPECT_EQ(revwave::sidecar_path("shot"), "shot.json");
}

TEST_F(ShotRecordTest, RoundTripFloat64IsBitExact) {
  const auto m = meta();
  const auto t = traces(m.nt * 3);
  const std::string p = path("shot.npy");
  revwave::write_shot_record(p, m, t);
  ASSERT_TRUE(fs::exists(path("shot.json")));
  const auto r = revwave::read_shot_record(p);
  EXPECT_TRUE(same_bits(r.meta.dt, 0.1 + 0.2));
  EXPECT_TRUE(same_bits(r.meta.f0, 1.0 / 3.0));
  EXPECT_TRUE(same_bits(r.meta.t0, 2.0 / 3.0));
  EXPECT_EQ(r.meta.nt, m.nt);
  EXPECT_EQ(r.meta.precision, "float64");
  ASSERT_EQ(r.meta.sources.size(), 1u);
  ASSERT_EQ(r.meta.receivers.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(same_bits(r.meta.sources[0][k], m.sources[0][k]));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(r.meta.receivers[i][k], m.receivers[i][k]));
  }
  EXPECT_EQ(r.traces, t);
  // No temporaries left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2);
}

TEST_F(ShotRecordTest, RoundTripFloat32) {
  const auto m = meta("float32");
  const auto t = traces(m.nt * 3);
  const std::vector<float> tf(t.begin(), t.end());
  revwave::write_shot_record(path("s.npy"), m, tf);
  EXPECT_TRUE(revwave::read_npy(path("s.npy")).is_float32);
  const auto r = revwave::read_shot_record(path("s.npy"));
  ASSERT_EQ(r.traces.size(), tf.size());
  for (std::size_t i = 0; i < tf.size(); ++i) EXPECT_EQ(r.traces[i], static_cast<double>(tf[i]));
  EXPECT_TRUE(same_bits(r.meta.dt, 0.1 + 0.2));  // metadata stays double whatever the traces are
}

TEST_F(ShotRecordTest, JsonDumpRoundTripsDoubles) {
  const json j = {{"a", 0.1 + 0.2}, {"b", 1.0 / 3.0}, {"c", 5e-324}, {"d", 1.7976931348623157e308}};
  const json k = json::parse(revwave::dump_json(j));
  for (const char* key : {"a", "b", "c", "d"})
    EXPECT_TRUE(same_bits(k[key].get<double>(), j[key].get<double>())) << key;
}

TEST_F(ShotRecordTest, ShapeMismatchWithSidecarThrows) {
  const auto m = meta();
  const std::string p = written(m);
  const auto t = traces(m.nt * 2);
  revwave::write_npy(p, {m.nt, 2}, t.data());  // one receiver short
  expect_io_error(p, {p, "shape (4, 2)", "(4, 3)", "shot.json"});
}

TEST_F(ShotRecordTest, PrecisionMismatchThrows) {
  const auto m = meta("float64");
  const std::string p = written(m);
  const std::vector<float> f(static_cast<std::size_t>(m.nt * 3), 1.0f);
  revwave::write_npy(p, {m.nt, 3}, f.data());
  expect_io_error(p, {p, "precision"});
}

TEST_F(ShotRecordTest, MissingFieldThrowsNamingIt) {
  const auto m = meta();
  const std::string p = written(m);
  const std::string side = path("shot.json");
  const json good = load(side);
  for (const char* field : {"dt", "nt", "f0", "t0", "sources", "receivers", "precision"}) {
    json j = good;
    j.erase(field);
    save(side, j);
    expect_io_error(p, {side, std::string("'") + field + "'", "missing"});
  }
}

TEST_F(ShotRecordTest, WrongTypesAndRangesThrow) {
  const auto m = meta();
  const std::string p = written(m);
  const std::string side = path("shot.json");
  const json good = load(side);
  struct Case {
    const char* field;
    json value;
    const char* rule;
  };
  const std::vector<Case> cases = {
      {"dt", -0.001, "> 0"},
      {"dt", 0.0, "> 0"},
      {"dt", "0.001", "must be a number"},
      {"nt", 4.5, "integer"},
      {"nt", 0, "an integer in [1, "},
      {"nt", std::int64_t(1) << 41, "an integer in [1, 1099511627776]"},
      {"f0", nullptr, "must be a number"},
      {"precision", "float16", "float32"},
      {"receivers", json::array(), "non-empty"},
      {"receivers", json{{1, 2}}, "receivers[0]"},
      {"sources", json{{1, "x", 3}}, "sources[0]"},
  };
  for (const auto& c : cases) {
    json j = good;
    j[c.field] = c.value;
    save(side, j);
    expect_io_error(p, {side, c.field, c.rule});
  }
  std::ofstream(side) << "{ not json";
  expect_io_error(p, {side, "not valid JSON"});
}

TEST_F(ShotRecordTest, MissingSidecarThrowsSayingWhereItLooked) {
  const auto m = meta();
  const std::string p = written(m);
  fs::remove(path("shot.json"));
  expect_io_error(p, {p, "sidecar", "required", path("shot.json")});
}

TEST_F(ShotRecordTest, InvalidMetaOnWriteIsInputErrorAndWritesNothing) {
  auto m = meta();
  m.dt = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(revwave::write_shot_record(path("a.npy"), m, traces(m.nt * 3)), revwave::InputError);
  m = meta();
  EXPECT_THROW(revwave::write_shot_record(path("a.npy"), m, traces(m.nt * 3 + 1)), revwave::InputError);
  m.precision = "half";
  EXPECT_THROW(revwave::write_shot_record(path("a.npy"), m, traces(m.nt * 3)), revwave::InputError);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(ShotRecordTest, NonFiniteSamplesAreRefusedNamingSampleAndReceiver) {
  const auto m = meta();
  const std::string p = written(m);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
    auto t = traces(m.nt * 3);
    t[2 * 3 + 1] = bad;  // sample 2 of receiver 1
    revwave::write_npy(p, {m.nt, 3}, t.data());
    expect_io_error(p, {p, "sample 2 of receiver 1", "must be finite"});
  }
}

TEST_F(ShotRecordTest, SidecarTextIsCheckedByTheSameRules) {
  const auto m = meta();
  revwave::write_shot_record(path("shot.npy"), m, traces(m.nt * 3));
  std::ifstream in(path("shot.json"));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const ShotRecordMeta back = revwave::parse_sidecar(text, "mem.json");
  EXPECT_EQ(back.nt, m.nt);
  EXPECT_EQ(back.receivers.size(), 3u);
  // The IoError's message for a sidecar's text, or "(no IoError)".
  const auto refusal = [](const std::string& sidecar) -> std::string {
    try {
      revwave::parse_sidecar(sidecar, "mem.json");
    } catch (const IoError& e) {
      return e.what();
    }
    return "(no IoError)";
  };
  const std::string nt = refusal(R"({"dt": 1e-3, "nt": -4})");
  EXPECT_NE(nt.find("mem.json: field 'nt' -4 is invalid: it must be an integer in [1, "), std::string::npos) << nt;
  EXPECT_THROW(revwave::parse_sidecar("[1, 2]", "mem.json"), IoError);
  EXPECT_THROW(revwave::parse_sidecar("", "mem.json"), IoError);
  // A key given twice ran the record at the last dt without a word (a hostile round, #45).
  std::string twice = text;
  twice.insert(twice.find('{') + 1, R"("dt": 0.0009, )");
  EXPECT_EQ(refusal(twice), "mem.json: key 'dt' is given twice: give each field once");
  // In a nested object too; the same key in two objects is no repeat.
  std::string nested = text;
  nested.insert(nested.find('{') + 1, R"("a": {"x": 1, "x": 2}, "b": {"x": 1}, )");
  EXPECT_EQ(refusal(nested), "mem.json: key 'x' is given twice: give each field once");
  std::string apart = text;
  apart.insert(apart.find('{') + 1, R"("a": {"x": 1}, "b": {"x": 1}, )");
  EXPECT_EQ(revwave::parse_sidecar(apart, "mem.json").nt, m.nt);
}

TEST_F(ShotRecordTest, AFailedSidecarWriteLeavesAPreviousRecordWhole) {
  const auto m = meta();
  const std::string p = written(m);
  const auto before = revwave::read_shot_record(p);
  // A sidecar path that cannot be written (a directory of that name): the new .npy must not
  // replace the old one, which would leave a record that contradicts its sidecar.
  fs::remove(path("shot.json"));
  fs::create_directory(path("shot.json"));
  auto t = traces(m.nt * 3);
  t[0] = 42;
  EXPECT_THROW(revwave::write_shot_record(p, m, t), IoError);
  EXPECT_EQ(revwave::read_npy(p).data, before.traces);
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}
