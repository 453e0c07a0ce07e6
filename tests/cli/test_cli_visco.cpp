// --q and --q-frequency on the command line: the refusals (one line, a non-zero exit, no output),
// a number and a .npy giving the same bytes, the config file that repeats the run, and Q through a
// survey with --aperture and through revwave invert (the velocity inverted, Q known and fixed).
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

class CliVisco : public revwave::testing::CliFixture {
 protected:
  void write_constant(const std::string& name, double value, std::vector<std::int64_t> shape = {12, 12, 12}) {
    const std::vector<double> v(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]), value);
    revwave::write_npy((dir_ / name).string(), shape, v.data());
  }
};

const std::string small = " --shape 12,12,12 --tn 0.05 --boundary sponge ";

TEST_F(CliVisco, BadQualityFactorsAreRefusedWithOneLineNamingTheValueAndTheRule) {
  expect_refused("forward" + small + "--q 3 --out s.npy", "--q 3 is invalid: Q must be a number of at least 5");
  expect_refused("forward" + small + "--q nan --out s.npy", "--q nan is invalid");
  expect_refused("forward --shape 12,12,12 --tn 0.05 --q 30 --out s.npy", "give --boundary sponge");
  expect_refused("forward" + small + "--q-frequency 10 --out s.npy", "--q-frequency 10 Hz needs --q");
  expect_refused("forward" + small + "--q 30 --q-frequency 0 --out s.npy", "--q-frequency");
  expect_refused("forward" + small + "--q 30 --epsilon 0.1 --out s.npy", "do not run with Q (attenuation)");
  write_constant("q.npy", 50, {12, 12, 11});
  expect_refused_reading("q.npy", "forward" + small + "--q q.npy --out s.npy",
                         "--q q.npy has shape (12, 12, 11), the model is (12, 12, 12)");
  write_constant("q.npy", 4);
  expect_refused_reading("q.npy", "forward" + small + "--q q.npy --out s.npy", "Q 4 at (0, 0, 0) is invalid");
  // A survey (the shot engine, no make_problem of the whole model) refuses as one shot does.
  expect_refused("gradient --shape 12,12,12 --tn 0.05 --src-grid 2,1,20 --q 30 --out g.npy", "give --boundary sponge");
  expect_refused("gradient" + small + "--q 30 --compress zfp-rate:8 --out g.npy",
                 "--compress zfp-rate:8 does not run with more than one wavefield");
}

TEST_F(CliVisco, ANumberIsItsConstantArrayAndTheConfigRepeatsTheRun) {
  write_constant("q.npy", 40);
  ASSERT_EQ(invoke("gradient" + small + "--q 40 --q-frequency 8 --out a.npy").code, 0);
  ASSERT_EQ(invoke("gradient" + small + "--q q.npy --q-frequency 8 --out b.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "a.npy").string()), slurp((dir_ / "b.npy").string()));
  ASSERT_EQ(invoke("gradient --config b.config.toml --out c.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "b.npy").string()), slurp((dir_ / "c.npy").string()));
  const std::string config = slurp((dir_ / "b.config.toml").string());
  EXPECT_NE(config.find("q = \"" + fs::absolute(dir_ / "q.npy").lexically_normal().string() + "\""), std::string::npos)
      << config;
  EXPECT_NE(config.find("q-frequency = 8"), std::string::npos) << config;
  // The reference frequency moves the result (the velocity is the phase velocity there), and so
  // does Q itself.
  ASSERT_EQ(invoke("gradient" + small + "--q 40 --out d.npy").code, 0);
  EXPECT_NE(slurp((dir_ / "a.npy").string()), slurp((dir_ / "d.npy").string()));
  ASSERT_EQ(invoke("gradient" + small + "--out elastic.npy").code, 0);
  EXPECT_NE(slurp((dir_ / "d.npy").string()), slurp((dir_ / "elastic.npy").string()));
}

// Observed records bring their own wavelets (one f0 each, or none): the band Q is fitted over
// then centres on --q-frequency, which must be given; with it, the band and the reference are the
// modelled run's at that f0, so the record modelled with Q gives J = 0.
TEST_F(CliVisco, ObservedRecordsNeedTheReferenceFrequency) {
  ASSERT_EQ(invoke("forward" + small + "--velocity 2000 --q 30 --f0 14 --out obs.npy").code, 0);
  const std::string run = "gradient --shape 12,12,12 --boundary sponge --velocity 2000 --q 30 --observed obs.npy ";
  const Outcome no = invoke(run + "--out g.npy");
  EXPECT_NE(no.code, 0);
  EXPECT_NE(no.err.find("--q with an observed record needs --q-frequency"), std::string::npos) << no.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
  const Outcome r = invoke(run + "--q-frequency 14 --out g.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["objective"].get<double>(), 0.0);
}

TEST_F(CliVisco, SurveysWithAperturesAndInversionsCarryTheAttenuation) {
  const std::string layout = small + "--dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 ";
  const Outcome plain = invoke("gradient" + layout + "--aperture 40 --out plain.npy --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const Outcome visco = invoke("gradient" + layout + "--aperture 40 --q 20 --out visco.npy --json");
  ASSERT_EQ(visco.code, 0) << visco.err;
  EXPECT_NE(nlohmann::json::parse(plain.out)["objective"].get<double>(),
            nlohmann::json::parse(visco.out)["objective"].get<double>());
  const Outcome inv = invoke("invert" + small +
                             "--src 50,50,10 --rec 30,30,10 --q 20 --vmin 1500 --vmax 3000 --iterations 1 "
                             "--out-dir inv --json");
  ASSERT_EQ(inv.code, 0) << inv.err;
  EXPECT_TRUE(fs::exists(dir_ / "inv" / "model.npy"));
}

}  // namespace
