// --density and --density-gradient on the command line: the refusals (one line, a non-zero exit,
// no output), the outputs, the config file that repeats them, a constant density's bytes, and the
// density through surveys with --aperture and through revwave invert.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;

using revwave::testing::Outcome;

class CliDensity : public revwave::testing::CliFixture {
 protected:
  // rho on the 12 x 12 x 12 grid: 1000 above, 1800 below z = 60 m, `at` replaced by `value`.
  void write_density(const std::string& name, std::vector<std::int64_t> shape = {12, 12, 12}, std::size_t at = 0,
                     double value = 0, bool replace = false) {
    std::vector<double> rho(static_cast<std::size_t>(shape[0] * shape[1] * shape[2]));
    for (std::size_t i = 0; i < rho.size(); ++i)
      rho[i] = (i % static_cast<std::size_t>(shape.back())) > 6 ? 1800.0 : 1000.0;
    if (replace) rho[at] = value;
    revwave::write_npy((dir_ / name).string(), shape, rho.data());
  }
};

const std::string small = " --shape 12,12,12 --tn 0.05 ";

TEST_F(CliDensity, BadDensitiesAreRefusedWithOneLineNamingTheValue) {
  write_density("zero.npy", {12, 12, 12}, 100, 0.0, true);
  expect_refused_reading("zero.npy", "forward" + small + "--density zero.npy --out s.npy",
                         "density 0 kg/m^3 at (0, 8, 4)");
  write_density("neg.npy", {12, 12, 12}, 5, -3.0, true);
  expect_refused_reading("neg.npy", "gradient" + small + "--density neg.npy --out g.npy", "density -3 kg/m^3");
  write_density("nan.npy", {12, 12, 12}, 7, std::nan(""), true);
  expect_refused_reading("nan.npy", "forward" + small + "--density nan.npy --out s.npy",
                         "densities must be finite and positive");
  write_density("shape.npy", {12, 12, 11});
  expect_refused_reading("shape.npy", "forward" + small + "--density shape.npy --out s.npy",
                         "--density shape.npy has shape (12, 12, 11), the model is (12, 12, 12)");
  expect_refused("gradient" + small + "--density-gradient rho_g.npy --out g.npy", "--density-gradient needs --density");
}

TEST_F(CliDensity, GradientWritesDJdrhoAndItsConfigRepeatsTheRun) {
  write_density("rho.npy");
  const Outcome r = invoke("gradient" + small + "--density rho.npy --density-gradient rho_g.npy --out g.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["density_gradient"].get<std::string>(), "rho_g.npy");
  EXPECT_GT(j["density_gradient_norm"].get<double>(), 0.0);
  const revwave::NpyArray g = revwave::read_npy((dir_ / "rho_g.npy").string());
  EXPECT_EQ(g.shape, (std::vector<std::int64_t>{12, 12, 12}));
  EXPECT_TRUE(g.is_float32);
  const std::string config = slurp((dir_ / "g.config.toml").string());
  // An input is written absolute, so that the file replays from any directory.
  EXPECT_NE(config.find("density = \"" + fs::absolute(dir_ / "rho.npy").lexically_normal().string() + "\""),
            std::string::npos)
      << config;
  const Outcome again = invoke("gradient --config g.config.toml --out g2.npy --density-gradient rho_g2.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(slurp((dir_ / "g.npy").string()), slurp((dir_ / "g2.npy").string()));
  EXPECT_EQ(slurp((dir_ / "rho_g.npy").string()), slurp((dir_ / "rho_g2.npy").string()));
  // The density changes the physics: dJ/dm differs from the constant-density run's.
  ASSERT_EQ(invoke("gradient" + small + "--out plain.npy").code, 0);
  EXPECT_NE(slurp((dir_ / "g.npy").string()), slurp((dir_ / "plain.npy").string()));
}

// The working set counts the density's s and t, two fields of the grid's size (a checkpoint slot
// holds two wavefields: the same bytes within the tail's rounding).
TEST_F(CliDensity, ThePlanCountsTheDensitysFields) {
  write_density("rho.npy");
  // The sponge: the C-PML's buffers near the layer grow with a density too (counted apart).
  const Outcome plain = invoke("plan" + small + "--backend cpu --boundary sponge --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const Outcome dense = invoke("plan" + small + "--backend cpu --boundary sponge --density rho.npy --json");
  ASSERT_EQ(dense.code, 0) << dense.err;
  const auto working = [](const Outcome& r) {
    return nlohmann::json::parse(r.out)["predicted_peak_parts"]["working_set"].get<double>();
  };
  // The density's five coefficient fields (s, t and B along each axis); a sponge's slot holds two.
  const double field = 0.5 * nlohmann::json::parse(plain.out)["slot_bytes"].get<double>();
  EXPECT_NEAR(working(dense) - working(plain), 5 * field, 0.01 * field);
}

TEST_F(CliDensity, AConstantDensityGivesTheConstantDensityBytes) {
  const std::vector<double> rho(12 * 12 * 12, 1234.5);
  revwave::write_npy((dir_ / "rho.npy").string(), {12, 12, 12}, rho.data());
  ASSERT_EQ(invoke("gradient" + small + "--out plain.npy").code, 0);
  ASSERT_EQ(invoke("gradient" + small + "--density rho.npy --out dense.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "plain.npy").string()), slurp((dir_ / "dense.npy").string()));
  ASSERT_EQ(invoke("forward" + small + "--out plain_shot.npy").code, 0);
  ASSERT_EQ(invoke("forward" + small + "--density rho.npy --out dense_shot.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "plain_shot.npy").string()), slurp((dir_ / "dense_shot.npy").string()));
}

TEST_F(CliDensity, SurveysWithAperturesAndInversionsCarryTheDensity) {
  const std::string layout = small + "--dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 ";
  // Refused before any output (so first: the directory holds nothing but the density it reads).
  write_density("rho.npy");
  expect_refused_reading("rho.npy", "gradient" + layout + "--density rho.npy --density-gradient r.npy --out g.npy",
                         "--density-gradient applies to one shot's gradient, not to a survey's");
  write_density("rho.npy");
  const Outcome plain = invoke("gradient" + layout + "--aperture 40 --out plain.npy --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const Outcome dense = invoke("gradient" + layout + "--aperture 40 --density rho.npy --out dense.npy --json");
  ASSERT_EQ(dense.code, 0) << dense.err;
  EXPECT_NE(nlohmann::json::parse(plain.out)["objective"].get<double>(),
            nlohmann::json::parse(dense.out)["objective"].get<double>());
  const Outcome inv = invoke("invert" + small +
                             "--src 50,50,10 --rec 30,30,10 --density rho.npy --vmin 1500 "
                             "--vmax 3000 --iterations 1 --out-dir inv --json");
  ASSERT_EQ(inv.code, 0) << inv.err;
  EXPECT_TRUE(fs::exists(dir_ / "inv" / "model.npy"));
}

// --free-surface with --density: a constant density gives the free surface's bytes; a layered one
// runs gradient (dJ/drho too, its config repeating both), adjtest, a survey with --aperture and
// invert.
TEST_F(CliDensity, WithAFreeSurface) {
  const std::string surface = small + "--free-surface --src 60,50,25 --rec 40,50,0 --rec 80,50,15 ";
  const std::vector<double> constant(12 * 12 * 12, 1234.5);
  revwave::write_npy((dir_ / "constant.npy").string(), {12, 12, 12}, constant.data());
  ASSERT_EQ(invoke("gradient" + surface + "--out plain.npy").code, 0);
  ASSERT_EQ(invoke("gradient" + surface + "--density constant.npy --out dense.npy").code, 0);
  EXPECT_EQ(slurp((dir_ / "plain.npy").string()), slurp((dir_ / "dense.npy").string()));
  write_density("rho.npy");
  const Outcome r = invoke("gradient" + surface + "--density rho.npy --density-gradient rho_g.npy --out g.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["free_surface"], true);
  EXPECT_GT(j["density_gradient_norm"].get<double>(), 0.0);
  EXPECT_NE(slurp((dir_ / "g.npy").string()), slurp((dir_ / "plain.npy").string()));
  const Outcome again = invoke("gradient --config g.config.toml --out g2.npy --density-gradient rho_g2.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(slurp((dir_ / "rho_g.npy").string()), slurp((dir_ / "rho_g2.npy").string()));
  const Outcome a = invoke("adjtest" + surface + "--density rho.npy --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_LT(nlohmann::json::parse(a.out)["relative_error"].get<double>(), 1e-12);
  const std::string layout = small + "--free-surface --dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 --density rho.npy ";
  const Outcome survey = invoke("gradient" + layout + "--aperture 40 --out survey.npy --json");
  ASSERT_EQ(survey.code, 0) << survey.err;
  EXPECT_GT(nlohmann::json::parse(survey.out)["gradient_norm"].get<double>(), 0.0);
  const Outcome inv =
      invoke("invert" + surface + "--density rho.npy --vmin 1500 --vmax 3000 --iterations 1 --out-dir inv --json");
  ASSERT_EQ(inv.code, 0) << inv.err;
  EXPECT_TRUE(fs::exists(dir_ / "inv" / "model.npy"));
}

}  // namespace
