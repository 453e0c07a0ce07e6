// revwave invert against hostile inputs: an input its outputs would overwrite, a band a later shot
// cannot take, a state.bin that was edited or damaged, extreme option values; and what a run leaves
// for later: its configuration, which --resume DIR reads (nothing else needed), and a band that ended
// after its iterations, which a larger --iterations takes further, bit for bit as a longer run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/inversion/inversion_state.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/shot_record.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliInvertIntegrity : public revwave::testing::CliFixture {
 protected:
  // A tiny modelled survey: two shots, 16 receivers, one thread, the full history.
  static std::string args(const std::string& bounds = "--vmin 1400 --vmax 3000 ") {
    return "invert --shape 12,12,10 --spacing 10 --space-order 4 --nbl 4 --tn 0.2 --f0 20 --src-grid 2,1,10 --rec-grid 4,4,10 " +
           bounds + "--threads 1 --strategy full ";
  }
  void write_model(const std::string& name, double v = 2000) {
    const std::vector<double> m(12 * 12 * 10, v);
    revwave::write_npy((dir_ / name).string(), {12, 12, 10}, m.data());
  }
  std::vector<std::string> files_in(const std::string& sub) {
    std::vector<std::string> names;
    if (fs::exists(dir_ / sub))
      for (const auto& e : fs::directory_iterator(dir_ / sub)) names.push_back(e.path().filename().string());
    return names;
  }
};

TEST_F(CliInvertIntegrity, AnInputTheRunWouldOverwriteIsRefusedUpFront) {
  fs::create_directories(dir_ / "inv");
  write_model("inv/model_0002.npy");
  write_model("true.npy", 2100);
  const Outcome r = invoke(args() + "--model inv/model_0002.npy --true-model true.npy --iterations 3 --out-dir inv");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--out-dir inv would overwrite --model inv/model_0002.npy with the model of iteration 2"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(files_in("inv"), std::vector<std::string>{"model_0002.npy"});
  // A mask through a symbolic link, and a picture's name: the same.
  write_model("inv/model_0001.npy", 1.0);
  fs::create_symlink(fs::absolute(dir_ / "inv/model_0001.npy"), dir_ / "m.npy");
  const Outcome m = invoke(args() + "--model true.npy --true-model true.npy --mask m.npy --out-dir inv");
  EXPECT_NE(m.err.find("would overwrite --mask m.npy with the model of iteration 1 (inv/model_0001.npy)"),
            std::string::npos)
      << m.err;
}

// Two recorded shots with different sample intervals: the second band is beyond the coarser shot's
// Nyquist frequency. Refused before the first band writes anything.
TEST_F(CliInvertIntegrity, EveryShotAndEveryBandAreCheckedBeforeTheFirstOutput) {
  fs::create_directories(dir_ / "records");
  const std::string grid = "--shape 12,12,10 --spacing 50 --space-order 4 --nbl 4 --tn 0.2 --f0 20 --rec-grid 4,4,50 ";
  ASSERT_EQ(invoke("forward " + grid + "--dt 0.001 --src 200,300,50 --out records/a.npy").code, 0);
  ASSERT_EQ(invoke("forward " + grid + "--dt 0.004 --src 350,300,50 --out records/b.npy").code, 0);
  write_model("start.npy");
  const Outcome r = invoke(
      "invert --model start.npy --spacing 50 --space-order 4 --nbl 4 --observed records --vmin 1400 --vmax 2200 "
      "--bands 20,150 --iterations 1 --threads 1 --strategy full --out-dir inv");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--bands: cut-off 150 Hz is invalid for records/b.npy"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "inv"));
}

TEST_F(CliInvertIntegrity, OptionExtremesAreRefusedNamingTheOption) {
  const std::string a = args() + "--out-dir inv ";
  expect_refused(a + "--bands 0.001",
                 "--bands: cut-off 0.001 Hz is invalid for shot 0: its period 1000 s is longer than the record");
  expect_refused(a + "--smooth 1e-300", "--smooth 1e-300 m is invalid: it must be 0 (no smoothing) or in [1, 110] m");
  expect_refused(a + "--smooth 1e300", "--smooth 1e+300 m is invalid");
  expect_refused(a + "--first-step 1e308", "--first-step 1e+308 m/s is invalid: it must be in (0, 1600] m/s");
  expect_refused(a + "--aperture 1e300", "--aperture 1e+300 m is invalid: it must be at most the model's diagonal");
  expect_refused(args("--vmin 50 --vmax 3000 ") + "--out-dir inv", "--vmin 50 m/s is below 100 m/s");
}

// A state.bin flipped by a bit, or edited and resealed with a band that is not there, is refused
// with one line (exit 3); before, it resumed into another inversion or reported nothing to do.
TEST_F(CliInvertIntegrity, AnEditedOrDamagedStateIsRefused) {
  ASSERT_EQ(invoke(args() + "--iterations 1 --out-dir inv").code, 0);
  const std::string path = (dir_ / "inv/state.bin").string();
  const std::string good = slurp(path);
  std::string flipped = good;
  flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 1);
  std::ofstream(path, std::ios::binary) << flipped;
  Outcome r = invoke("invert --resume inv");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("inv/state.bin: the inversion state is invalid: its checksum does not match its contents"),
            std::string::npos)
      << r.err;
  // Resealed after the edit: the band beyond the bands is found by the checks behind the checksum.
  std::string edited = good;
  const auto at = edited.find("\"band\":1");
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, 8, "\"band\":4");
  const std::uint64_t sum = revwave::state_checksum(edited.data(), edited.size() - 8);
  for (int b = 0; b < 8; ++b) edited[edited.size() - 8 + b] = static_cast<char>((sum >> (8 * b)) & 0xff);
  std::ofstream(path, std::ios::binary) << edited;
  r = invoke("invert --resume inv");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("it is at band 5 with 1 bands ended before it"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

// The configuration in the run directory replays the run (the same models, bit for bit), and
// --resume DIR reads it: nothing else is needed, a larger --iterations takes the ended band further,
// and the result is the longer run's, bit for bit.
TEST_F(CliInvertIntegrity, TheConfigurationReplaysAndResumeNeedsNothingElse) {
  ASSERT_EQ(invoke(args() + "--iterations 1 --out-dir inv").code, 0);
  ASSERT_TRUE(fs::exists(dir_ / "inv/invert.config.toml"));
  const Outcome again = invoke("invert --config inv/invert.config.toml --out-dir replay");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(slurp((dir_ / "inv/model_0001.npy").string()), slurp((dir_ / "replay/model_0001.npy").string()));
  const Outcome done = invoke("invert --resume inv");
  ASSERT_EQ(done.code, 0) << done.err;
  EXPECT_NE(done.out.find("nothing left to do"), std::string::npos) << done.out;
  const Outcome more = invoke("invert --resume inv --iterations 2");
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_NE(more.out.find("band 1 goes on: it ended after 1 iterations, --iterations is now 2"), std::string::npos)
      << more.out;
  ASSERT_EQ(invoke(args() + "--iterations 2 --out-dir longer").code, 0);
  EXPECT_EQ(slurp((dir_ / "inv/model_0002.npy").string()), slurp((dir_ / "longer/model_0002.npy").string()));
}

// The boundary is part of the physics: a resume that names the other one is refused in one line
// rather than carrying on with a C-PML where the run had a sponge (the fingerprint counts it).
TEST_F(CliInvertIntegrity, AResumeWithAnotherBoundaryIsRefused) {
  ASSERT_EQ(invoke(args() + "--boundary cpml --iterations 1 --out-dir inv").code, 0);
  const Outcome other = invoke("invert --resume inv --boundary sponge --iterations 2");
  EXPECT_EQ(other.code, 2) << other.err;
  EXPECT_NE(other.err.find("that inversion ran on other inputs or settings"), std::string::npos) << other.err;
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1) << other.err;
  const Outcome same = invoke("invert --resume inv --iterations 2");
  EXPECT_EQ(same.code, 0) << same.err;
}

}  // namespace
