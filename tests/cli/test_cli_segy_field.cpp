// A SEG-Y file with the Viking Graben line's two header faults (trace headers that give another
// sample count than the binary header, CoordinateUnits saying degrees on coordinates in metres) runs a
// gradient as it is, with one warning line for each; a fault the file does not settle is refused with
// the option that does.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using revwave::testing::Outcome;

class CliSegyField : public revwave::testing::CliFixture {
 protected:
  // Sets a 16-bit big-endian field (1-based byte `at` of each 240-byte trace header) in every trace.
  static void set_in_every_trace(std::string& file, int at, int value, int samples) {
    const std::size_t record = 240 + 4 * static_cast<std::size_t>(samples);
    for (std::size_t t = 3600; t + record <= file.size(); t += record) {
      file[t + at - 1] = static_cast<char>((value >> 8) & 0xff);
      file[t + at] = static_cast<char>(value & 0xff);
    }
  }
};

TEST_F(CliSegyField, TheVikingLinesHeaderFaultsAreReadPastWithAWarningEach) {
  const std::string grid = "--shape 14,12,10 --spacing 10 --space-order 4 --nbl 4 --origin 5000,0,0 ";
  const Outcome f =
      invoke("forward " + grid + "--tn 0.15 --dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 --out s.sgy --json");
  ASSERT_EQ(f.code, 0) << f.err;
  const int nt = nlohmann::json::parse(f.out).at("nt").get<int>();
  std::string file = slurp((dir_ / "s.sgy").string());
  set_in_every_trace(file, 115, 1500, nt);  // the trace headers say 1500 samples, the file holds nt
  set_in_every_trace(file, 89, 3, nt);      // decimal degrees, on x = 5000 m and more
  std::ofstream((dir_ / "viking.sgy").string(), std::ios::binary) << file;
  const Outcome g = invoke("gradient " + grid + "--velocity 2000 --observed viking.sgy --threads 1 --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  const std::string n = std::to_string(nt);
  EXPECT_NE(g.err.find("revwave: warning: viking.sgy: the binary header says " + n +
                       " samples per trace, the first trace header 1500: read " + n),
            std::string::npos)
      << g.err;
  EXPECT_NE(g.err.find("revwave: warning: viking.sgy: CoordinateUnits 3 (decimal degrees) on 18 traces from trace 0"),
            std::string::npos)
      << g.err;
  EXPECT_EQ(std::count(g.err.begin(), g.err.end(), '\n'), 2) << g.err;
  EXPECT_EQ(nlohmann::json::parse(g.out).at("warnings").size(), 2u);
  // The unmended file gives the mended file's gradient.
  ASSERT_EQ(invoke("gradient " + grid + "--velocity 2000 --observed s.sgy --threads 1 --out mended.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "g.npy").string()), slurp((dir_ / "mended.npy").string()));
  // Degrees the coordinates could be: refused, naming --segy-units; stated, read.
  std::string near = slurp((dir_ / "s.sgy").string());
  set_in_every_trace(near, 89, 2, nt);  // seconds of arc: 500000 and more fit
  std::ofstream((dir_ / "arc.sgy").string(), std::ios::binary) << near;
  const Outcome refused = invoke("gradient " + grid + "--velocity 2000 --observed arc.sgy --threads 1 --out a.npy");
  EXPECT_EQ(refused.code, 3) << refused.err;
  EXPECT_NE(refused.err.find("arc.sgy: trace 0: CoordinateUnits 2 is not supported"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--segy-units"), std::string::npos) << refused.err;
  const Outcome stated =
      invoke("gradient " + grid + "--velocity 2000 --observed arc.sgy --segy-units metres --threads 1 --out a.npy");
  ASSERT_EQ(stated.code, 0) << stated.err;
  EXPECT_EQ(slurp((dir_ / "a.npy").string()), slurp((dir_ / "mended.npy").string()));
}

}  // namespace
