// Nothing lost, nothing silent (#45): two outputs of one run that name one file, a boolean that is
// neither true nor false: each is one line before the run and nothing written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliNothingLost : public revwave::testing::CliFixture {
 protected:
  static constexpr const char* small = " --shape 12,12,12 --tn 0.15 --threads 1 ";
  void write_cube(const std::string& name, double value) {
    const std::vector<double> v(12 * 12 * 12, value);
    revwave::write_npy((dir_ / name).string(), {12, 12, 12}, v.data());
  }
  std::vector<std::string> sorted_leftovers() const {
    std::vector<std::string> names = leftovers();
    std::sort(names.begin(), names.end());
    return names;
  }
  // Refused with exit `code`, one line naming every string of `mentions`, the directory as it was.
  void expect_refused_as(const std::string& args, int code, const std::vector<std::string>& mentions) {
    const std::vector<std::string> before = sorted_leftovers();
    const Outcome r = invoke(args);
    EXPECT_EQ(r.code, code) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    for (const std::string& m : mentions) EXPECT_NE(r.err.find(m), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(sorted_leftovers(), before) << args;
  }
};

TEST_F(CliNothingLost, TwoOutputsThatNameOneFileAreRefusedBeforeAnythingIsWritten) {
  write_cube("rho.npy", 2000.0);
  write_cube("m.npy", 2000.0);
  const std::string rho = "gradient" + std::string(small) + "--density rho.npy ";
  // dJ/drho and dJ/dm into one file: one of them would be lost.
  expect_refused_as(rho + "--density-gradient g.npy --out g.npy", 2,
                    {"--density-gradient g.npy and --out g.npy are the same file"});
  expect_refused_as(rho + "--density-gradient ./g.npy --out g.npy", 2, {"--density-gradient ./g.npy", "--out g.npy"});
  // The estimated wavelet is written next to --out as g.wavelet.npy.
  expect_refused_as(rho + "--estimate-wavelet --density-gradient g.wavelet.npy --out g.npy", 2,
                    {"the wavelet written next to --out g.wavelet.npy", "--density-gradient g.wavelet.npy"});
  // An output of a survey forward run that names an input (one shot: one record).
  expect_refused_as("forward --model m.npy --tn 0.1 --src-grid 1,1,20 --out m.npy", 2,
                    {"--out m.npy would overwrite --model m.npy"});
  // A run whose outputs differ goes ahead.
  const Outcome ok = invoke(rho + "--density-gradient rho_g.npy --out g.npy");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(dir_ / "rho_g.npy") && fs::exists(dir_ / "g.npy"));
}

TEST_F(CliNothingLost, ABooleanThatIsNeitherTrueNorFalseIsRefused) {
  const std::string fwd = "forward" + std::string(small);
  expect_refused_as(fwd + "--free-surface=0.5", 2, {"--free-surface '0.5' is invalid", "true or false"});
  expect_refused_as(fwd + "--free-surface=1.5", 2, {"'1.5'"});
  for (const char* value : {"0.5", "1.5", "2"}) {
    std::ofstream(dir_ / "c.toml") << "[forward]\nfree-surface = " << value << "\n";
    const Outcome r = invoke(fwd + "--config c.toml --out s.npy");
    fs::remove(dir_ / "c.toml");
    EXPECT_EQ(r.code, 2) << value << "\n" << r.err;
    EXPECT_NE(r.err.find("--free-surface '" + std::string(value) + "' is invalid"), std::string::npos) << r.err;
    EXPECT_TRUE(leftovers().empty());
  }
  // What is a boolean still reads as one.
  std::ofstream(dir_ / "c.toml") << "[forward]\nfree-surface = true\n";
  const Outcome on = invoke(fwd + "--config c.toml --out s.npy --json");
  ASSERT_EQ(on.code, 0) << on.err;
  EXPECT_NE(on.out.find("\"free_surface\": true"), std::string::npos) << on.out;
  EXPECT_EQ(invoke(fwd + "--free-surface=false --out s.npy").code, 0);
}

}  // namespace
