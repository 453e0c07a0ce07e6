// The command line as a user meets it: bad input gives one line, a non-zero exit and no output file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;

using revwave::testing::Outcome;

class Cli : public revwave::testing::CliFixture {
 protected:
  Cli() : CliFixture(REVWAVE_BINARY) {}
};

const std::string small = " --shape 12,12,12 --tn 0.05 ";

TEST_F(Cli, ForwardWritesRecordSidecarAndConfigAndJsonRoundTrips) {
  const Outcome r = invoke("forward" + small + "--out shot.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"nt", "dt", "shape", "space_order", "backend", "precision", "seconds", "gpts_per_s", "peak_rss_bytes"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  const revwave::NpyArray a = revwave::read_npy((dir_ / "shot.npy").string());
  ASSERT_EQ(a.shape.size(), 2u);
  EXPECT_EQ(a.shape[0], j["nt"].get<std::int64_t>());
  const auto side = nlohmann::json::parse(slurp((dir_ / "shot.json").string()));
  EXPECT_EQ(side["dt"].get<double>(), j["dt"].get<double>());  // bit-exact round trip through text
  EXPECT_TRUE(fs::exists(dir_ / "shot.config.toml"));
  // The written configuration repeats the run.
  const Outcome again = invoke("forward --config shot.config.toml --out again.npy --json");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["dt"].get<double>(), j["dt"].get<double>());
  EXPECT_TRUE(slurp((dir_ / "again.npy").string()) == slurp((dir_ / "shot.npy").string()));
}

TEST_F(Cli, BadVelocityIsRefused) {
  expect_refused("forward" + small + "--velocity -1500", "velocity");
  expect_refused("forward" + small + "--velocity nan", "velocity");
}

TEST_F(Cli, ZeroVelocityIsRefused) {
  const std::vector<std::int64_t> shape{12, 12, 12};
  std::vector<double> v(12 * 12 * 12, 2000.0);
  v[100] = 0.0;
  revwave::write_npy((dir_ / "model.npy").string(), shape, v.data());
  const Outcome r = invoke("forward --model model.npy --tn 0.05");
  fs::remove(dir_ / "model.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("velocity 0 m/s"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(Cli, UnstableDtIsRefusedWithTheLargestStableValue) {
  expect_refused("forward" + small + "--dt 0.01", "largest stable dt");
}

TEST_F(Cli, SourceOrReceiverOutsideTheGridIsRefused) {
  expect_refused("forward" + small + "--src 50,50,500", "source 0");
  expect_refused("forward" + small + "--rec 10,10,10 --rec -1,0,0", "receiver 1");
}

TEST_F(Cli, UnknownOptionAndUnreadableFileAreRefused) {
  expect_refused("forward --no-such-option", "no-such-option");
  expect_refused("forward --model missing.npy", "missing.npy");
  std::ofstream(dir_ / "junk.npy") << "not an npy file";
  const Outcome r = invoke("forward --model junk.npy");
  fs::remove(dir_ / "junk.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("junk.npy"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(Cli, GradientBadStrategyAndBudgetAreRefused) {
  expect_refused("gradient" + small + "--strategy bogus", "bogus");
  expect_refused("gradient" + small + "--snaps 0 --strategy revolve --checkpoint-memory 1K", "below one checkpoint slot");
  expect_refused("gradient" + small + "--checkpoint-memory lots", "lots");
  expect_refused("gradient" + small + "--store disk --checkpoint-dir does-not-exist", "does-not-exist");
}

TEST_F(Cli, GradientAgainstObservedDataOfTheWrongShapeIsRefused) {
  ASSERT_EQ(invoke("forward" + small + "--out obs.npy").code, 0);
  // Same file, but the sidecar now claims more samples than the array has.
  auto side = nlohmann::json::parse(slurp((dir_ / "obs.json").string()));
  side["nt"] = side["nt"].get<std::int64_t>() + 3;
  std::ofstream(dir_ / "obs.json") << side.dump();
  const Outcome r = invoke("gradient --shape 12,12,12 --observed obs.npy --out g.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("obs.npy"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
}

TEST_F(Cli, GradientFromObservedFileUsesItsTimeAxis) {
  ASSERT_EQ(invoke("forward" + small + "--velocity 2500 --out obs.npy").code, 0);
  const auto side = nlohmann::json::parse(slurp((dir_ / "obs.json").string()));
  const Outcome r = invoke("gradient --shape 12,12,12 --velocity 2000 --observed obs.npy --out g.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["dt"].get<double>(), side["dt"].get<double>());
  EXPECT_EQ(j["nt"].get<std::int64_t>(), side["nt"].get<std::int64_t>());
  for (const char* key : {"objective", "gradient_norm", "strategy", "steps", "forward_steps", "reverse_steps", "seconds",
                          "peak_rss_bytes", "wavefield_storage_bytes", "snaps", "stores", "restores", "checkpoint_bytes",
                          "checkpoint_copy_bytes"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["forward_steps"], j["predicted_forward_steps"]);
  EXPECT_GT(j["stores"].get<std::int64_t>(), 0);
  EXPECT_EQ(j["checkpoint_copy_bytes"].get<std::uint64_t>(), 0u);  // memory slots are handles, not copies
  // On disk every store writes a slot and every restore but those of step 0 reads one.
  const Outcome disk = invoke("gradient --shape 12,12,12 --velocity 2000 --observed obs.npy --out g3.npy --json "
                              "--store disk --checkpoint-dir .");
  ASSERT_EQ(disk.code, 0) << disk.err;
  const auto jd = nlohmann::json::parse(disk.out);
  EXPECT_EQ(jd["objective"], j["objective"]);
  EXPECT_GE(jd["checkpoint_copy_bytes"].get<std::uint64_t>(),
            jd["stores"].get<std::uint64_t>() * jd["slot_bytes"].get<std::uint64_t>());
  // A model too fast for the data's dt is refused, not silently re-stepped.
  const Outcome fast = invoke("gradient --shape 12,12,12 --velocity 9000 --observed obs.npy --out g2.npy");
  EXPECT_NE(fast.code, 0);
  EXPECT_NE(fast.err.find("unstable"), std::string::npos) << fast.err;
  EXPECT_FALSE(fs::exists(dir_ / "g2.npy"));
}

TEST_F(Cli, AdjtestAndGradtestPassOnTheirDefaults) {
  const Outcome a = invoke("adjtest --shape 16,16,16 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_LT(nlohmann::json::parse(a.out)["relative_error"].get<double>(), 1e-12);
  const Outcome g = invoke("gradtest --shape 16,16,16 --tn 0.2 --json");
  ASSERT_EQ(g.code, 0) << g.err << g.out;
  const auto j = nlohmann::json::parse(g.out);
  EXPECT_GE(j["rate_second"].get<double>(), 1.9);
  EXPECT_EQ(j["first_order"].size(), 7u);
}

TEST_F(Cli, FullStrategyThatCannotFitIsRefusedUpFront) {
  // 230^3 points for 1615 steps: about 80 GB of history.
  const Outcome r = invoke("gradient --shape 230,230,230 --tn 1.3 --strategy full --velocity 1500 --dt 0.0008 --out g.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--strategy full needs"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
}

}  // namespace
