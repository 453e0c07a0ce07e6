// --boundary cpml on the command line: forward (its config file repeats the run), the adjoint
// test, a gradient under revolve with a memory budget equal to full's, dJ/drho, and the one-line refusals
// (a layer too thin, an unknown kind); --compress with the layer's values in each slot.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

using revwave::testing::Outcome;

class CliCpml : public revwave::testing::CliFixture {};

const std::string small = " --shape 14,12,12 --tn 0.08 --nbl 5 --threads 1 --backend cpu --boundary cpml ";

// The C-PML is the default: a run without --boundary gives its bytes, the sponge others.
TEST_F(CliCpml, ForwardDiffersFromTheSpongeAndItsConfigRepeatsTheRun) {
  const Outcome r = invoke("forward" + small + "--src 60,50,20 --rec 0,50,20 --rec 80,50,15 --out pml.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["boundary"], "cpml");
  const Outcome again = invoke("forward --config pml.config.toml --out again.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(slurp((dir_ / "again.npy").string()) == slurp((dir_ / "pml.npy").string()));
  const std::string plain = " --shape 14,12,12 --tn 0.08 --nbl 5 --threads 1 --backend cpu ";
  const std::string geometry = "--src 60,50,20 --rec 0,50,20 --rec 80,50,15 ";
  const Outcome by_default = invoke("forward" + plain + geometry + "--out default.npy --json");
  ASSERT_EQ(by_default.code, 0) << by_default.err;
  EXPECT_EQ(nlohmann::json::parse(by_default.out)["boundary"], "cpml");
  EXPECT_TRUE(slurp((dir_ / "default.npy").string()) == slurp((dir_ / "pml.npy").string()));
  const Outcome sponge = invoke("forward" + plain + geometry + "--boundary sponge --out sp.npy --json");
  ASSERT_EQ(sponge.code, 0) << sponge.err;
  EXPECT_EQ(nlohmann::json::parse(sponge.out)["boundary"], "sponge");
  EXPECT_FALSE(slurp((dir_ / "sp.npy").string()) == slurp((dir_ / "pml.npy").string()));
  const std::string config = slurp((dir_ / "sp.config.toml").string());
  EXPECT_NE(config.find("boundary = \"sponge\""), std::string::npos) << config;
}

TEST_F(CliCpml, AdjointTestAndCheckpointedGradientPass) {
  const Outcome a = invoke("adjtest" + small + "--src 60,50,20 --rec 0,50,20 --rec 30,40,7 --json --precision double");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_LT(nlohmann::json::parse(a.out)["relative_error"].get<double>(), 1e-12);
  const Outcome full = invoke("gradient" + small + "--src 60,50,20 --rec 0,50,20 --out gf.npy --json");
  ASSERT_EQ(full.code, 0) << full.err;
  const Outcome rev =
      invoke("gradient" + small + "--src 60,50,20 --rec 0,50,20 --strategy revolve --snaps 3 --out gr.npy --json");
  ASSERT_EQ(rev.code, 0) << rev.err;
  EXPECT_TRUE(slurp((dir_ / "gf.npy").string()) == slurp((dir_ / "gr.npy").string()));
}

// dJ/drho beside dJ/dm under the C-PML: written, finite and not zero, the same bytes under revolve.
TEST_F(CliCpml, DensityGradientIsWrittenAndRevolveGivesItsBytes) {
  std::vector<double> rho(14 * 12 * 12);
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = (i % 12) > 6 ? 1800.0 : 1000.0;
  revwave::write_npy((dir_ / "rho.npy").string(), {14, 12, 12}, rho.data());
  const std::string run = "gradient" + small + "--src 60,50,20 --rec 0,50,20 --density rho.npy ";
  const Outcome full = invoke(run + "--density-gradient rf.npy --out gf.npy --precision double --json");
  ASSERT_EQ(full.code, 0) << full.err;
  const Outcome rev =
      invoke(run + "--density-gradient rr.npy --out gr.npy --precision double --strategy revolve --snaps 3");
  ASSERT_EQ(rev.code, 0) << rev.err;
  EXPECT_TRUE(slurp((dir_ / "rf.npy").string()) == slurp((dir_ / "rr.npy").string()));
  EXPECT_TRUE(slurp((dir_ / "gf.npy").string()) == slurp((dir_ / "gr.npy").string()));
  const revwave::NpyArray g = revwave::read_npy((dir_ / "rf.npy").string());
  double norm = 0;
  for (double x : g.data) norm += x * x;
  EXPECT_GT(norm, 0.0);
  EXPECT_TRUE(std::isfinite(norm));
}

TEST_F(CliCpml, SurveyGradientWithAnApertureAndInvertRun) {
  const std::string grid = " --shape 16,14,12 --nbl 5 --threads 1 --backend cpu --boundary cpml --space-order 4 ";
  const Outcome f = invoke("forward" + grid + "--tn 0.15 --src-grid 2,1,10 --rec-grid 4,4,0 --out s.sgy --json");
  ASSERT_EQ(f.code, 0) << f.err;
  const Outcome g = invoke("gradient" + grid + "--velocity 2000 --observed s.sgy --aperture 40 --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_EQ(nlohmann::json::parse(g.out)["boundary"], "cpml");
  const Outcome r = invoke("gradient" + grid +
                           "--velocity 2000 --observed s.sgy --aperture 40 --strategy revolve --snaps 3 --out r.npy");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(slurp((dir_ / "g.npy").string()) == slurp((dir_ / "r.npy").string()));
  const Outcome i = invoke("invert" + grid +
                           "--velocity 2000 --observed s.sgy --vmin 1500 --vmax 2500 "
                           "--iterations 1 --strategy full --out-dir inv --json");
  ASSERT_EQ(i.code, 0) << i.err << i.out;
}

// The shot engine buys a window's slots at the C-PML state's size (two fields with their tails):
// every shot's checkpoints fit --checkpoint-memory, and the gradient stays full's.
TEST_F(CliCpml, SurveySlotsCountTheAuxiliaryValues) {
  const std::string grid = " --shape 16,14,12 --nbl 5 --threads 1 --backend cpu --boundary cpml --space-order 4 ";
  ASSERT_EQ(invoke("forward" + grid + "--tn 0.15 --src-grid 2,1,10 --rec-grid 4,4,0 --out s.sgy").code, 0);
  const Outcome full = invoke("gradient" + grid + "--velocity 2000 --observed s.sgy --aperture 40 --out f.npy");
  ASSERT_EQ(full.code, 0) << full.err;
  const Outcome r = invoke("gradient" + grid +
                           "--velocity 2000 --observed s.sgy --aperture 40 --strategy revolve "
                           "--checkpoint-memory 1MiB --out r.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto shots = nlohmann::json::parse(r.out)["per_shot"];
  ASSERT_EQ(shots.size(), 2U);
  for (const auto& shot : shots) {
    EXPECT_GE(shot["snaps"].get<int>(), 1);
    EXPECT_LE(shot["wavefield_storage_bytes"].get<double>(), 1048576.0) << shot.dump();
  }
  EXPECT_TRUE(slurp((dir_ / "f.npy").string()) == slurp((dir_ / "r.npy").string()));
}

// --compress under the C-PML: each slot encodes the layer's auxiliary values after the grid, so a
// budget of three raw slots buys more, and the gradient is close to full's but not its bits.
TEST_F(CliCpml, CompressedCheckpointsCarryTheLayer) {
  const std::string run = "gradient" + small + "--src 60,50,20 --rec 40,50,10 --precision double ";
  const Outcome full = invoke(run + "--out gf.npy --json");
  ASSERT_EQ(full.code, 0) << full.err;
  const Outcome raw = invoke(run + "--strategy revolve --snaps 3 --out g3.npy --json");
  ASSERT_EQ(raw.code, 0) << raw.err;
  const double slot = nlohmann::json::parse(raw.out)["slot_bytes"].get<double>();
  const std::string budget = std::to_string(static_cast<long long>(3 * slot));
  for (const char* mode : {"fp16", "zfp-rate:16"}) {
    const Outcome z = invoke(run + "--strategy revolve --checkpoint-memory " + budget + " --compress " + mode +
                             " --out gz.npy --json");
    ASSERT_EQ(z.code, 0) << mode << ": " << z.err;
    const auto j = nlohmann::json::parse(z.out);
    EXPECT_GT(j["snaps"].get<int>(), 3) << mode << ": " << j.dump();
    EXPECT_GT(j["compression"]["fields_decompressed"].get<double>(), 0) << mode;
    const revwave::NpyArray a = revwave::read_npy((dir_ / "gz.npy").string());
    const revwave::NpyArray b = revwave::read_npy((dir_ / "gf.npy").string());
    ASSERT_EQ(a.data.size(), b.data.size());
    double e2 = 0, r2 = 0;
    for (std::size_t i = 0; i < a.data.size(); ++i) {
      e2 += (a.data[i] - b.data[i]) * (a.data[i] - b.data[i]);
      r2 += b.data[i] * b.data[i];
    }
    EXPECT_GT(e2, 0.0) << mode;
    EXPECT_LT(std::sqrt(e2 / r2), 5e-2) << mode;
  }
}

// --nbl 0 is no layer at all: the C-PML's run is the sponge's, byte for byte (nothing to absorb).
TEST_F(CliCpml, NoLayerIsTheSpongesRun) {
  const std::string run =
      "gradient --shape 14,12,12 --tn 0.08 --nbl 0 --threads 1 --backend cpu --src 60,50,20 "
      "--rec 0,50,20 --strategy revolve --snaps 3 ";
  const Outcome c = invoke(run + "--boundary cpml --out c.npy");
  ASSERT_EQ(c.code, 0) << c.err;
  ASSERT_EQ(invoke(run + "--boundary sponge --out s.npy").code, 0);
  EXPECT_TRUE(slurp((dir_ / "c.npy").string()) == slurp((dir_ / "s.npy").string()));
  // Not silent: the named boundary changes nothing, and the run says so.
  EXPECT_NE(c.err.find("warning: --nbl 0 gives no absorbing layer"), std::string::npos) << c.err;
}

TEST_F(CliCpml, RefusalsNameTheValue) {
  expect_refused("forward --shape 14,12,12 --tn 0.08 --nbl 3 --backend cpu --boundary cpml --out x.npy",
                 "--nbl 3 is too thin for --boundary cpml");
  expect_refused("forward --boundary pml --out x.npy", "--boundary: 'pml' is not one of sponge, cpml");
}

}  // namespace
