// 2D models (--shape NX,1,NZ) on the command line: forward with the default layouts and its
// configuration repeating the run, a survey gradient with --aperture (SEG-Y in, the plane's
// windows), invert, the adjoint and Taylor tests, and the one-line refusals of a point off the
// plane and of one point in x or z.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

using revwave::testing::Outcome;

class CliPlanar : public revwave::testing::CliFixture {};

const std::string plane = " --shape 40,1,30 --nbl 5 --threads 1 ";

TEST_F(CliPlanar, ForwardOnAPlaneAndItsConfigRepeatsTheRun) {
  const Outcome r = invoke("forward" + plane + "--tn 0.3 --src 150,0,40 --rec-grid 8,1,20 --out p.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["shape"], nlohmann::json::parse("[40, 1, 30]"));
  const revwave::NpyArray a = revwave::read_npy((dir_ / "p.npy").string());
  ASSERT_EQ(a.shape.size(), 2u);
  ASSERT_EQ(a.shape[1], 8);
  double peak = 0;
  for (double v : a.data) {
    ASSERT_TRUE(std::isfinite(v));
    peak = std::max(peak, std::abs(v));
  }
  EXPECT_GT(peak, 0.0);
  const Outcome again = invoke("forward --config p.config.toml --out again.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_TRUE(slurp((dir_ / "again.npy").string()) == slurp((dir_ / "p.npy").string()));
}

TEST_F(CliPlanar, SurveyGradientWithAnApertureAndInvertRun) {
  const std::string grid = plane + "--space-order 4 ";
  const Outcome f = invoke("forward" + grid + "--tn 0.2 --src-grid 3,1,20 --rec-grid 10,1,10 --out s.sgy --json");
  ASSERT_EQ(f.code, 0) << f.err;
  const Outcome g = invoke("gradient" + grid + "--velocity 2100 --observed s.sgy --aperture 60 --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  const revwave::NpyArray gradient = revwave::read_npy((dir_ / "g.npy").string());
  EXPECT_EQ(gradient.shape, (std::vector<std::int64_t>{40, 1, 30}));
  double norm = 0;
  for (double v : gradient.data) norm += v * v;
  EXPECT_GT(norm, 0.0);
  EXPECT_TRUE(std::isfinite(norm));
  const Outcome i = invoke("invert" + grid +
                           "--velocity 2100 --observed s.sgy --vmin 1500 --vmax 2500 "
                           "--iterations 1 --strategy revolve --out-dir inv --json");
  ASSERT_EQ(i.code, 0) << i.err << i.out;
}

TEST_F(CliPlanar, AdjointAndTaylorTestsPass) {
  const Outcome a = invoke("adjtest" + plane + "--tn 0.2 --src 150,0,40 --rec 100,0,20 --rec 250,0,60 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_LT(nlohmann::json::parse(a.out)["relative_error"].get<double>(), 1e-12);
  const Outcome g = invoke("gradtest" + plane + "--tn 0.3 --src 150,0,40 --rec 100,0,20 --rec 250,0,60 --json");
  ASSERT_EQ(g.code, 0) << g.err << g.out;
  EXPECT_GE(nlohmann::json::parse(g.out)["rate_second"].get<double>(), 1.9);
}

// The built-in problem on a plane: a line of 16 receivers, not the 3D default's 16 x 16, which a
// plane would stack 16 deep on each x (its model's anomaly: Planar.TheBuiltInModelKeepsItsAnomalyOnAPlane).
TEST_F(CliPlanar, TheBuiltInProblemOnAPlaneHasALineOfDistinctReceivers) {
  const Outcome r = invoke("forward --shape 60,1,40 --tn 0.3 --threads 1 --precision double --out d.npy");
  ASSERT_EQ(r.code, 0) << r.err;
  const revwave::NpyArray a = revwave::read_npy((dir_ / "d.npy").string());
  ASSERT_EQ(a.shape[1], 16);
  // Sixteen places along x, each once (their traces pair up by the model's symmetry, not their places).
  std::ifstream sidecar(dir_ / "d.json");
  const nlohmann::json receivers = nlohmann::json::parse(sidecar)["receivers"];
  ASSERT_EQ(receivers.size(), 16u);
  for (std::size_t p = 0; p + 1 < receivers.size(); ++p) {
    EXPECT_LT(receivers[p][0].get<double>(), receivers[p + 1][0].get<double>()) << p;
    EXPECT_EQ(receivers[p][1].get<double>(), 0.0) << p;
  }
  const Outcome g = invoke("gradient --shape 60,1,40 --tn 0.3 --threads 1 --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_GT(nlohmann::json::parse(g.out)["objective"].get<double>(), 0.0);
}

TEST_F(CliPlanar, GridLayoutsOfMoreThanOneRowAreRefusedOnAPlane) {
  expect_refused("forward" + plane + "--rec-grid 20,3,10 --out x.npy",
                 "--rec-grid '20,3,10' NY 3 is invalid on a 2D model (ny = 1)");
  expect_refused("forward" + plane + "--src-grid 3,2,20 --out xs", "--src-grid '3,2,20' NY 2 is invalid");
}

TEST_F(CliPlanar, PointsOffThePlaneAndOnePointInXOrZAreRefusedWithOneLine) {
  expect_refused("forward" + plane + "--src 150,5,40 --rec 100,0,20 --out x.npy",
                 "source 0 at (150, 5, 40) m lies outside the grid: coordinates must be within [0, 390] x [0, 0]");
  expect_refused("forward" + plane + "--src 150,0,40 --rec 100,-1,20 --out x.npy", "receiver 0 at (100, -1, 20) m");
  expect_refused("forward --shape 1,1,30 --out x.npy", "shape 1 on axis 0 is too small");
  expect_refused("forward --shape 40,1,1 --out x.npy", "ny = 1 makes a 2D model in x and z");
}

}  // namespace
