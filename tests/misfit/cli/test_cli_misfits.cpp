// --misfit and --estimate-wavelet on the command line: a survey's correlation and envelope gradients
// the same bits under mpirun -n 2 as in one process, gradtest's second-order rate for each misfit,
// the estimated signature written next to the gradient, invert with both (and its resume fingerprint
// telling them apart), and the refusals.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliMisfits : public revwave::testing::CliFixture {
 protected:
  Outcome run(const std::string& args) {
    const Outcome r = invoke(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
    return r;
  }
  nlohmann::json json(const std::string& args) { return nlohmann::json::parse(run(args + " --json").out); }
  std::string bytes(const std::string& name) { return slurp((dir_ / name).string()); }
  // The sponge: these runs are about the misfits, and on grids this small the default C-PML's layer
  // is most of the points (its own CLI tests are test_cli_cpml.cpp's).
  const std::string grid_ = " --shape 16,16,14 --threads 1 --boundary sponge ";
};

TEST_F(CliMisfits, ASurveysMisfitGradientIsTheSameBitsUnderMpirun) {
#ifndef REVWAVE_MPIEXEC
  GTEST_SKIP() << "MPI is not built (REVWAVE_MPI off or no mpirun)";
#else
  run("forward" + grid_ + "--tn 0.08 --src-grid 2,2,20 --rec-grid 4,4,10 --out s.sgy");
  for (const std::string misfit : {"correlation", "envelope"}) {
    const nlohmann::json one = json("gradient" + grid_ + "--velocity 2050 --observed s.sgy --misfit " + misfit +
                                    " --out one_" + misfit + ".npy");
    EXPECT_EQ(one["misfit"], misfit);
    EXPECT_EQ(one["shots"], 4);
    const Outcome two = mpirun(2, "gradient" + grid_ + "--velocity 2050 --observed s.sgy --misfit " + misfit +
                                      " --out two_" + misfit + ".npy --json");
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(nlohmann::json::parse(two.out)["processes"], 2);
    EXPECT_EQ(nlohmann::json::parse(two.out)["objective"], one["objective"]) << misfit;
    EXPECT_EQ(bytes("two_" + misfit + ".npy"), bytes("one_" + misfit + ".npy")) << misfit;
  }
  // Without --misfit the L2 run prints no misfit field (its JSON is what it always was).
  EXPECT_FALSE(json("gradient" + grid_ + "--velocity 2050 --observed s.sgy --out l2.npy").contains("misfit"));
#endif
}

TEST_F(CliMisfits, GradtestIsSecondOrderForEveryMisfit) {
  for (const std::string misfit : {"correlation", "envelope"}) {
    const nlohmann::json j =
        json("gradtest --shape 14,14,12 --tn 0.1 --threads 1 --boundary sponge --precision double --misfit " + misfit);
    EXPECT_TRUE(j["pass"].get<bool>()) << misfit << ": " << j.dump();
    EXPECT_GE(j["rate_second"].get<double>(), 1.9) << misfit;
    EXPECT_EQ(j["misfit"], misfit);
  }
}

TEST_F(CliMisfits, TheEstimatedWaveletIsWrittenNextToTheGradient) {
  run("forward" + grid_ + "--tn 0.3 --out obs.npy");
  const nlohmann::json j = json("gradient" + grid_ + "--observed obs.npy --estimate-wavelet --out g.npy");
  EXPECT_EQ(j["wavelet"], "g.wavelet.npy");
  EXPECT_EQ(j["estimated_wavelet"]["samples"], j["nt"]);
  EXPECT_TRUE(fs::exists(dir_ / "g.wavelet.npy"));
  const Outcome text = run("gradient" + grid_ + "--observed obs.npy --estimate-wavelet --misfit envelope --out h.npy");
  EXPECT_NE(text.out.find("  wavelet         h.wavelet.npy (estimated)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(misfit envelope)"), std::string::npos) << text.out;
}

// A SEG-Y survey that says nothing of its wavelet (modelled with a sampled one) needs an f0 only
// for the checks that need a band; when the signature is estimated, the data's peak frequency
// stands in (a warning says so), and the estimate and the gradient are those a given --f0 gives.
TEST_F(CliMisfits, AnEstimatedWaveletNeedsNoF0FromASurveyWithoutOne) {
  run("forward" + grid_ + "--tn 0.3 --out obs.npy");
  run("gradient" + grid_ + "--observed obs.npy --estimate-wavelet --out w.npy");  // a sampled signature: w.wavelet.npy
  run("forward" + grid_ +
      "--tn 0.3 --src 50,50,20 --src 100,100,20 --rec-grid 4,4,10 --wavelet w.wavelet.npy "
      "--out s.sgy");
  const Outcome no_f0 = invoke("gradient" + grid_ + "--observed s.sgy --out x.npy");
  EXPECT_NE(no_f0.code, 0);
  EXPECT_NE(no_f0.err.find("does not say what the source wavelet was"), std::string::npos) << no_f0.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.npy"));
  const Outcome a = run("gradient" + grid_ + "--observed s.sgy --estimate-wavelet --out a.npy");
  EXPECT_NE(a.err.find("peak frequency as f0 ("), std::string::npos) << a.err;
  run("gradient" + grid_ + "--observed s.sgy --estimate-wavelet --f0 12 --out b.npy");
  EXPECT_EQ(bytes("a.wavelet.npy"), bytes("b.wavelet.npy"));
  EXPECT_EQ(bytes("a.npy"), bytes("b.npy"));
}

TEST_F(CliMisfits, InvertTakesAMisfitAndAnEstimatedWaveletAndResumesOnlyThatRun) {
  const std::string inv =
      " --shape 14,14,12 --tn 0.2 --threads 1 --boundary sponge --src-grid 2,1,20 --rec-grid 4,4,10 --vmin 1500 "
      "--vmax 3000 --iterations 1 ";
  const nlohmann::json j = json("invert" + inv + "--misfit correlation --estimate-wavelet --out-dir inv");
  EXPECT_EQ(j["misfit"], "correlation");
  EXPECT_EQ(j["iterations"], 1);
  EXPECT_TRUE(fs::exists(dir_ / "inv" / "wavelet.npy"));
  // --resume takes the options the run began with from inv/invert.config.toml: the same inversion.
  const Outcome same = invoke("invert" + inv + "--resume inv");
  EXPECT_EQ(same.code, 0) << same.err;
  const Outcome other = invoke("invert" + inv + "--misfit l2 --resume inv");  // options given win: another inversion
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("ran on other inputs or settings"), std::string::npos) << other.err;
}

TEST_F(CliMisfits, RefusesAnUnknownMisfitAndAWaveletGivenAndEstimated) {
  expect_refused("gradient" + grid_ + "--misfit l1", "--misfit: 'l1' is not one of l2, correlation, envelope");
  run("forward" + grid_ + "--tn 0.1 --out obs.npy");
  fs::path w = dir_ / "w.npy";
  fs::copy_file(dir_ / "obs.npy", w);
  const Outcome r = invoke("gradient" + grid_ + "--observed obs.npy --estimate-wavelet --wavelet w.npy --out g.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--estimate-wavelet excludes --wavelet"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
}

}  // namespace
