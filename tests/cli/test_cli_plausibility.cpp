// Numbers that parse but describe no physical run, and substitutions a user would not see: a model
// in km/s, grids too coarse for the wavelet, records shorter than its delay, a model of the user's
// fitted to the demo's data, a --shape that is not the model's, grid layouts against the absorbing
// layer, thread counts the OpenMP runtime cannot start, and the peak memory of a run started by a
// large process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/segy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliPlausibility : public revwave::testing::CliFixture {
 protected:
  void write_model(const std::string& name, double v, std::int64_t n = 12) {
    const std::vector<double> m(static_cast<std::size_t>(n * n * n), v);
    revwave::write_npy((dir_ / name).string(), {n, n, n}, m.data());
  }
  static int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }
};

TEST_F(CliPlausibility, VelocitiesBelowTheFloorAreRefusedWithAHintAboutUnits) {
  write_model("kms.npy", 2.0);
  expect_refused_reading(
      "kms.npy", "forward --model kms.npy --tn 0.05",
      "--model kms.npy: velocity 2 m/s at point (0, 0, 0) is below 100 m/s, slower than sound in air or any "
      "soil or rock: velocities are in m/s (a model in km/s needs multiplying by 1000");
  expect_refused("gradient --shape 12,12,12 --velocity 50 --tn 0.05", "--velocity 50 m/s is below 100 m/s");
}

TEST_F(CliPlausibility, UnderSamplingAndShortRecordsGiveOneWarningLineEach) {
  // 60 Hz on 10 m cells: about one point per shortest wavelength; the record ends before the wavelet's peak.
  const Outcome r = invoke("forward --shape 12,12,12 --f0 60 --tn 0.02 --out w.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.err), 2) << r.err;
  EXPECT_NE(
      r.err.find(
          "revwave: warning: the grid under-samples the Ricker wavelet of f0 60 Hz: 1.087 points per shortest wavelength"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("revwave: warning: the record ends at"), std::string::npos) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("warnings").size(), 2u);
  EXPECT_NE(j.at("warnings")[0].get<std::string>().find("under-samples"), std::string::npos);
  // Coarse enough in time too (50 m cells let a 20 ms step be stable): its own line.
  const Outcome t =
      invoke("forward --shape 12,12,12 --spacing 100 --velocity 1500 --f0 12 --dt 0.02 --tn 1 --out t.npy");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(
      t.err.find(
          "revwave: warning: the time step 0.02 s aliases the Ricker wavelet of f0 12 Hz: its Nyquist frequency 25 Hz"),
      std::string::npos)
      << t.err;
  // The built-in problem warns of nothing.
  const Outcome quiet = invoke("forward --shape 20,20,20 --tn 0.2 --out q.npy --json");
  ASSERT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_TRUE(nlohmann::json::parse(quiet.out).at("warnings").empty());
}

TEST_F(CliPlausibility, AModelOfTheUsersNeedsDataAndItsShapeRulesTheGrid) {
  write_model("mine.npy", 2000);
  expect_refused_reading("mine.npy", "gradient --model mine.npy --tn 0.1",
                         "--model mine.npy: a gradient of your own model needs data to fit: give --observed");
  write_model("mine.npy", 2000);
  expect_refused_reading("mine.npy", "gradient --model mine.npy --shape 30,30,30 --true-model mine.npy --tn 0.1",
                         "--shape 30,30,30 disagrees with --model mine.npy, whose shape is (12, 12, 12)");
  write_model("mine.npy", 2000);
  write_model("truth.npy", 2100);
  ASSERT_EQ(invoke("gradient --model mine.npy --true-model truth.npy --tn 0.1 --out g.npy").code, 0);
  EXPECT_NE(slurp((dir_ / "g.config.toml").string()).find("shape = \"12,12,12\""), std::string::npos);
  // The demo stays for runs without --model (and with a homogeneous --velocity).
  EXPECT_EQ(invoke("gradient --shape 12,12,12 --velocity 2000 --tn 0.1 --out v.npy").code, 0);
}

TEST_F(CliPlausibility, GridLayoutsLieAtCellCentresAndSaySo) {
  const Outcome r = invoke("forward --shape 21,21,12 --tn 0.05 --src-grid 2,2,20 --rec-grid 4,4,10 --out s.sgy");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("--src-grid 2,2,20: 2 x 2 at cell centres, x 50 and 150 m, y 50 and 150 m, z 20 m"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--rec-grid 4,4,10: 4 x 4 at cell centres, x 25, 75, ... 175 (every 50) m"), std::string::npos)
      << r.out;
  const revwave::SegySurvey s = revwave::read_segy((dir_ / "s.sgy").string());
  ASSERT_EQ(s.shots.size(), 4u);
  const std::array<double, 3> first{50, 50, 20}, last{150, 150, 20};
  EXPECT_EQ(s.shots.front().source, first);
  EXPECT_EQ(s.shots.back().source, last);
  for (const auto& p : s.shots[0].receivers) {
    EXPECT_GT(p[0], 0);
    EXPECT_LT(p[0], 200);
  }
}

TEST_F(CliPlausibility, ThreadCountsTheRuntimeCannotStartAreRefusedNotCrashed) {
  const Outcome r = invoke("forward --shape 12,12,12 --tn 0.02 --threads 65536 --out x.npy");
  EXPECT_EQ(r.code, 2) << r.err;  // was a segmentation fault inside libgomp
  EXPECT_NE(r.err.find("--threads 65536 is more threads than the OpenMP runtime can start here: at most"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("refused rather than capped"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

// getrusage's ru_maxrss survives exec: a run started by a process holding 256 MiB reported them.
TEST_F(CliPlausibility, PeakMemoryIsTheRunsOwn) {
  std::vector<char> held(256u << 20);
  std::memset(held.data(), 1, held.size());  // resident in this process, which system() forks
  const Outcome r = invoke("forward --shape 12,12,12 --tn 0.02 --out m.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_LT(j.at("peak_rss_bytes").get<double>(), 128.0 * (1 << 20)) << j.at("peak_rss_bytes");
  EXPECT_NE(j.at("peak_rss_counts").get<std::string>().find("VmHWM"), std::string::npos);
  EXPECT_EQ(held[12345], 1);
}

}  // namespace
