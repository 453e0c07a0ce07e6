// --free-surface on the command line: forward (a receiver on the surface records zero; the written
// configuration repeats the run), the adjoint and Taylor tests, a survey gradient with --aperture,
// invert, and the one-line refusal of a source on or above the surface.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliFreeSurface : public revwave::testing::CliFixture {};

const std::string small = " --shape 14,12,12 --tn 0.08 --nbl 5 --threads 1 --free-surface ";

TEST_F(CliFreeSurface, ForwardRecordsZeroOnTheSurfaceAndItsConfigRepeatsTheRun) {
  const Outcome r = invoke("forward" + small + "--src 60,50,20 --rec 40,50,0 --rec 80,50,15 --out fs.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["free_surface"], true);
  const revwave::NpyArray a = revwave::read_npy((dir_ / "fs.npy").string());
  ASSERT_EQ(a.shape[1], 2);
  double surface = 0, below = 0;
  for (std::int64_t n = 0; n < a.shape[0]; ++n) {
    surface = std::max(surface, std::abs(a.data[static_cast<std::size_t>(2 * n)]));
    below = std::max(below, std::abs(a.data[static_cast<std::size_t>(2 * n + 1)]));
  }
  EXPECT_EQ(surface, 0.0);
  EXPECT_GT(below, 0.0);
  // Recording zeros is what a receiver on the surface does, and the run says so (a hostile round, #45).
  EXPECT_NE(r.err.find("revwave: warning: receiver 0 at (40, 50, 0) m lies on the free surface z = 0, where the "
                       "pressure is zero: it records zeros"),
            std::string::npos)
      << r.err;
  const Outcome again = invoke("forward --config fs.config.toml --out again.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(slurp((dir_ / "again.npy").string()) == slurp((dir_ / "fs.npy").string()));
  // Without the flag: another record, and no free_surface in the summary.
  const std::string plain = " --shape 14,12,12 --tn 0.08 --nbl 5 --threads 1 ";
  const Outcome sponge = invoke("forward" + plain + "--src 60,50,20 --rec 40,50,0 --rec 80,50,15 --out sp.npy --json");
  ASSERT_EQ(sponge.code, 0) << sponge.err;
  EXPECT_FALSE(nlohmann::json::parse(sponge.out).contains("free_surface"));
  EXPECT_FALSE(slurp((dir_ / "sp.npy").string()) == slurp((dir_ / "fs.npy").string()));
}

TEST_F(CliFreeSurface, ASourceOnOrAboveTheSurfaceIsRefusedWithOneLine) {
  expect_refused("forward" + small + "--src 60,50,0 --rec 40,50,10 --out x.npy", "lies on the free surface z = 0");
  expect_refused("adjtest" + small + "--src 60,50,-5 --rec 40,50,10", "lies above the free surface z = 0");
}

TEST_F(CliFreeSurface, AdjointAndTaylorTestsPass) {
  const Outcome a = invoke("adjtest" + small + "--src 60,50,5 --rec 40,50,0 --rec 30,40,7 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_LT(nlohmann::json::parse(a.out)["relative_error"].get<double>(), 1e-12);
  const Outcome g = invoke(
      "gradtest --shape 14,12,12 --nbl 5 --threads 1 --free-surface --src 60,50,5 --rec 40,50,3 --rec 30,40,7 --tn 0.2 --json");
  ASSERT_EQ(g.code, 0) << g.err << g.out;
  EXPECT_GE(nlohmann::json::parse(g.out)["rate_second"].get<double>(), 1.9);
}

TEST_F(CliFreeSurface, SurveyGradientWithAnApertureAndInvertRun) {
  const std::string grid = " --shape 16,14,12 --nbl 5 --threads 1 --free-surface --space-order 4 ";
  const Outcome f = invoke("forward" + grid + "--tn 0.1 --src-grid 2,1,10 --rec-grid 4,4,0 --out s.sgy --json");
  ASSERT_EQ(f.code, 0) << f.err;
  const Outcome g = invoke("gradient" + grid + "--velocity 2000 --observed s.sgy --aperture 40 --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_EQ(nlohmann::json::parse(g.out)["free_surface"], true);
  const Outcome i = invoke("invert" + grid +
                           "--velocity 2000 --observed s.sgy --vmin 1500 --vmax 2500 "
                           "--iterations 1 --strategy full --out-dir inv --json");
  ASSERT_EQ(i.code, 0) << i.err << i.out;
}

}  // namespace
