// What a run writes and how it is written again: forward's spellings (one record of simultaneous
// sources, one shot per source), output names and their endings, and every subcommand's effective
// configuration replayed to the same bits.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliOutputs : public revwave::testing::CliFixture {
 protected:
  static constexpr const char* small = " --shape 14,12,10 --tn 0.15 --threads 1 ";
  // Runs `args --out FIRST`, then the configuration it wrote with --out SECOND: the same bytes in both.
  void expect_replays(const std::string& args, const std::string& first, const std::string& second,
                      const std::vector<std::string>& compare) {
    const Outcome a = invoke(args + " --out " + first);
    ASSERT_EQ(a.code, 0) << args << "\n" << a.err;
    const std::string stem = fs::path(first).replace_extension().string();
    const Outcome b =
        invoke(std::string(args.substr(0, args.find(' '))) + " --config " + stem + ".config.toml --out " + second);
    ASSERT_EQ(b.code, 0) << "replaying " << stem << ".config.toml\n" << b.err;
    for (const std::string& f : compare) {
      const std::string other = fs::path(second).replace_extension().string() + f.substr(stem.size());
      EXPECT_EQ(slurp((dir_ / f).string()), slurp((dir_ / other).string())) << f << " vs " << other;
      EXPECT_FALSE(slurp((dir_ / f).string()).empty()) << f;
    }
  }
};

TEST_F(CliOutputs, SeveralSourcesInOneRecordFireAtOnceAndTheHelpSaysSo) {
  const std::string two = std::string("forward") + small + "--src 40,40,20 --src 90,60,20 ";
  const Outcome r = invoke(two + "--out sim.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out).at("simultaneous_sources").get<bool>());
  EXPECT_TRUE(fs::exists(dir_ / "sim.npy"));
  const Outcome text = invoke(two + "--out sim2.npy");
  EXPECT_NE(text.out.find("2 simultaneous sources"), std::string::npos) << text.out;
  // Into a directory (a name without an ending) or SEG-Y, each --src is a shot.
  const Outcome d = invoke(two + "--out shots");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_TRUE(fs::exists(dir_ / "shots/shot_0000.npy"));
  EXPECT_TRUE(fs::exists(dir_ / "shots/shot_0001.npy"));
  const Outcome help = invoke("forward --help");
  EXPECT_NE(help.out.find("fire at once (simultaneous sources)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("every source a shot"), std::string::npos) << help.out;
}

TEST_F(CliOutputs, AnOutputNameGetsItsEndingOrIsRefused) {
  ASSERT_EQ(invoke(std::string("forward") + small + "--out plain").code, 0);
  EXPECT_TRUE(fs::exists(dir_ / "plain.npy"));
  EXPECT_TRUE(fs::exists(dir_ / "plain.json"));
  EXPECT_FALSE(fs::exists(dir_ / "plain"));
  ASSERT_EQ(invoke(std::string("gradient") + small + "--out g").code, 0);
  EXPECT_TRUE(fs::exists(dir_ / "g.npy"));
  for (const char* f : {"plain.npy", "plain.json", "plain.config.toml", "g.npy", "g.config.toml"}) fs::remove(dir_ / f);
  expect_refused(std::string("forward") + small + "--out shot.txt",
                 "--out shot.txt: its ending .txt is none of revwave's");
  expect_refused(std::string("gradient") + small + "--out g.dat", "--out g.dat: the output is a NumPy array, FILE.npy");
}

TEST_F(CliOutputs, EveryWrittenConfigurationReplaysToTheSameBits) {
  expect_replays(std::string("forward") + small, "f.npy", "f2.npy", {"f.npy", "f.json"});
  expect_replays(std::string("forward") + small + "--src-grid 2,1,20 --rec-grid 3,3,10", "s.sgy", "s2.sgy", {"s.sgy"});
  expect_replays(std::string("gradient") + small + "--snaps 3", "g.npy", "g2.npy", {"g.npy"});
  // Against --observed: its configuration once wrote --tn, which --observed excludes.
  expect_replays(std::string("gradient --velocity 2100 --observed f.npy --threads 1"), "go.npy", "go2.npy", {"go.npy"});
  expect_replays(std::string("gradient --shape 14,12,10 --velocity 2000 --observed s.sgy --aperture 50 --threads 1"),
                 "gs.npy", "gs2.npy", {"gs.npy"});
}

TEST_F(CliOutputs, ANumberTypedWithLeadingZerosIsWrittenAsThatNumber) {
  // TOML refuses 05 as a literal; the file once held nbl = "05", a string where a number belongs.
  expect_replays(std::string("forward") + small + "--nbl 05 --f0 012.5 --src 040,40,20", "z.npy", "z2.npy", {"z.npy"});
  const std::string config = slurp((dir_ / "z.config.toml").string());
  EXPECT_NE(config.find("\nnbl = 5\n"), std::string::npos) << config;
  EXPECT_NE(config.find("\nf0 = 12.5\n"), std::string::npos) << config;
  EXPECT_NE(config.find("\"040,40,20\""), std::string::npos) << config;  // text keeps its text
}

}  // namespace
