// --epsilon and --delta on the command line: the refusals (one line, a non-zero exit, no output),
// a number and a .npy giving the same bytes, the config file that repeats the run, and the pair
// through a survey with --aperture and through revwave invert (the velocity inverted, epsilon and
// delta known and fixed).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;

using revwave::testing::Outcome;

class CliVti : public revwave::testing::CliFixture {
 protected:
  void write_constant(const std::string& name, double value, std::vector<std::int64_t> shape = {12, 12, 12}) {
    const std::vector<double> v(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]), value);
    revwave::write_npy((dir_ / name).string(), shape, v.data());
  }
};

const std::string small = " --shape 12,12,12 --tn 0.05 --boundary sponge ";

TEST_F(CliVti, BadParametersAreRefusedWithOneLineNamingTheValueAndTheRule) {
  expect_refused("forward" + small + "--epsilon 0.1 --delta 0.2 --out s.npy",
                 "epsilon 0.1 < delta 0.2 at (0, 0, 0): the pseudo-acoustic VTI equation is unstable");
  expect_refused("forward --shape 12,12,12 --tn 0.05 --epsilon 0.1 --out s.npy", "give --boundary sponge");
  expect_refused("forward" + small + "--epsilon nan --out s.npy", "--epsilon nan is invalid");
  expect_refused("forward" + small + "--delta -0.7 --epsilon 0 --out s.npy", "delta -0.7 at (0, 0, 0) is invalid");
  write_constant("eps.npy", 0.1, {12, 12, 11});
  expect_refused_reading("eps.npy", "forward" + small + "--epsilon eps.npy --out s.npy",
                         "--epsilon eps.npy has shape (12, 12, 11), the model is (12, 12, 12)");
  expect_refused("forward" + small + "--epsilon none.npy --out s.npy", "none.npy");
  // A survey (the shot engine, no make_problem of the whole model) refuses as one shot does.
  expect_refused("gradient --shape 12,12,12 --tn 0.05 --src-grid 2,1,20 --epsilon 0.1 --out g.npy",
                 "give --boundary sponge");
  // ZFP would encode the second field's halos as values; fp16 and bf16 keep them zero.
  expect_refused("gradient" + small + "--epsilon 0.1 --compress zfp-rate:8 --out g.npy",
                 "--compress zfp-rate:8 does not run with more than one wavefield");
  write_constant("eps.npy", 0.1);
  expect_refused_reading("eps.npy", "gradient" + small + "--epsilon eps.npy --out eps.npy", "eps.npy");
}

TEST_F(CliVti, ANumberIsItsConstantArrayAndTheConfigRepeatsTheRun) {
  write_constant("eps.npy", 0.2);
  write_constant("delta.npy", 0.05);
  ASSERT_EQ(invoke("gradient" + small + "--epsilon 0.2 --delta 0.05 --out a.npy").code, 0);
  ASSERT_EQ(invoke("gradient" + small + "--epsilon eps.npy --delta delta.npy --out b.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "a.npy").string()), slurp((dir_ / "b.npy").string()));
  ASSERT_EQ(invoke("gradient --config b.config.toml --out c.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "b.npy").string()), slurp((dir_ / "c.npy").string()));
  // The configuration names the files it read absolute (a replay elsewhere reads the same ones),
  // and a number as a number.
  const std::string config = slurp((dir_ / "b.config.toml").string());
  EXPECT_NE(config.find("epsilon = \"" + fs::absolute(dir_ / "eps.npy").lexically_normal().string() + "\""),
            std::string::npos)
      << config;
  EXPECT_NE(slurp((dir_ / "a.config.toml").string()).find("epsilon = 0.2"), std::string::npos);
  ASSERT_EQ(invoke("gradient" + small + "--epsilon 0.2 --delta 0.05 --compress fp16 --out h.npy").code, 0);
  ASSERT_EQ(invoke("gradient" + small + "--out iso.npy").code, 0);
  EXPECT_NE(slurp((dir_ / "a.npy").string()), slurp((dir_ / "iso.npy").string()));
}

TEST_F(CliVti, SurveysWithAperturesAndInversionsCarryTheAnisotropy) {
  const std::string layout = small + "--dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 ";
  const Outcome plain = invoke("gradient" + layout + "--aperture 40 --out plain.npy --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const Outcome vti = invoke("gradient" + layout + "--aperture 40 --epsilon 0.2 --delta 0.1 --out vti.npy --json");
  ASSERT_EQ(vti.code, 0) << vti.err;
  EXPECT_NE(nlohmann::json::parse(plain.out)["objective"].get<double>(),
            nlohmann::json::parse(vti.out)["objective"].get<double>());
  const Outcome inv = invoke("invert" + small +
                             "--src 50,50,10 --rec 30,30,10 --epsilon 0.2 --delta 0.1 --vmin 1500 "
                             "--vmax 3000 --iterations 1 --out-dir inv --json");
  ASSERT_EQ(inv.code, 0) << inv.err;
  EXPECT_TRUE(fs::exists(dir_ / "inv" / "model.npy"));
}

}  // namespace
