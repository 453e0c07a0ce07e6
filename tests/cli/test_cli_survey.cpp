// Surveys on the command line: forward a survey to SEG-Y or records, the gradient from it, and the
// same gradient bit for bit under mpirun with 1, 2 and 3 processes; failures end every process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_fixture.hpp"
#include "revwave/io/segy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliSurvey : public revwave::testing::CliFixture {
 protected:
  std::string survey_sgy() {
    const Outcome f = invoke("forward" + grid_ + "--tn 0.08 --src-grid 2,2,20 --rec-grid 4,4,10 --out s.sgy --json");
    EXPECT_EQ(f.code, 0) << f.err;
    return f.out;
  }
  // The sponge: these runs are about surveys, records and processes, and on a grid this small the
  // default C-PML's layer is most of the points (test_cli_cpml.cpp runs a C-PML survey, and the MPI
  // gradient test below runs the default).
  const std::string shape_ = " --shape 16,16,16 --threads 1 ";
  const std::string grid_ = shape_ + "--boundary sponge ";
};

// plan reads a survey as gradient does (SEG-Y here) and counts what its gradient runs: the steps
// and forward steps summed over the shots, slots of the largest window; its peak within 20% of the
// run's (a 16^3 grid: the process's own memory is most of it), and records whose dt is no stable
// step planned at their substeps. Nothing is written.
TEST_F(CliSurvey, PlanOfASurveyCountsWhatItsGradientRuns) {
  survey_sgy();
  for (const char* velocity : {"2000", "3500"}) {
    const std::string args = grid_ + "--velocity " + velocity + " --observed s.sgy --snaps 6 --json";
    const Outcome p = invoke("plan" + args);
    ASSERT_EQ(p.code, 0) << p.err;
    const Outcome g = invoke("gradient" + args + " --out g.npy");
    ASSERT_EQ(g.code, 0) << g.err;
    const auto plan = nlohmann::json::parse(p.out), run = nlohmann::json::parse(g.out);
    EXPECT_EQ(plan["shots"], 4);
    std::int64_t steps = 0, forward = 0, substeps = 0;
    for (const auto& shot : run["per_shot"]) {
      steps += shot["steps"].get<std::int64_t>();
      forward += shot["forward_steps"].get<std::int64_t>();
      substeps = std::max(substeps, shot["substeps"].get<std::int64_t>());
    }
    EXPECT_EQ(plan["steps"].get<std::int64_t>(), steps) << velocity;
    EXPECT_EQ(plan["forward_steps"].get<std::int64_t>(), forward) << velocity;
    EXPECT_EQ(plan["substeps"].get<std::int64_t>(), substeps) << velocity;
    EXPECT_EQ(substeps, std::string(velocity) == "2000" ? 1 : 2) << velocity;  // 3500 m/s: the records' dt is too long
    const double predicted = plan["predicted_peak_bytes"], peak = run["peak_rss_bytes"];
    // Within 20% in Release; the sanitizers' own memory adds to the run's peak (0.84 there): 25%.
    EXPECT_NEAR(predicted / peak, 1.0, 0.25) << velocity << ": " << predicted << " vs " << peak;
    fs::remove(dir_ / "g.npy");
    fs::remove(dir_ / "g.config.toml");
  }
}

TEST_F(CliSurvey, ForwardWritesASegySurveyAndTheGradientSumsItsShots) {
  const auto fj = nlohmann::json::parse(survey_sgy());
  EXPECT_EQ(fj["shots"], 4);
  EXPECT_EQ(fj["format"], "segy");
  const double dt = fj["dt"].get<double>();
  EXPECT_EQ(dt, revwave::segy_dt(std::llround(dt * 1e6)));  // whole microseconds, the default rounded down
  const revwave::SegySurvey s = revwave::read_segy((dir_ / "s.sgy").string());
  ASSERT_EQ(s.shots.size(), 4u);
  EXPECT_EQ(s.dt, dt);
  EXPECT_EQ(s.nt, fj["nt"].get<std::int64_t>());
  EXPECT_EQ(s.shots[3].receivers.size(), 16u);
  EXPECT_EQ(s.shots[3].source, (std::array<double, 3>{112.5, 112.5, 20}));  // --src-grid: at cell centres (issue #27)
  EXPECT_GT(s.f0, 0);                                                       // the wavelet is recorded

  const Outcome g = invoke("gradient" + grid_ + "--velocity 2000 --observed s.sgy --out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  const auto j = nlohmann::json::parse(g.out);
  EXPECT_EQ(j["shots"], 4);
  EXPECT_EQ(j["processes"], 1);
  const auto& js = j["shot_objectives"];
  ASSERT_EQ(js.size(), 4u);
  EXPECT_EQ(j["objective"].get<double>(),
            (js[0].get<double>() + js[1].get<double>()) + (js[2].get<double>() + js[3].get<double>()));
  EXPECT_EQ(j["per_shot"][2]["dt"].get<double>(), dt);
  EXPECT_TRUE(fs::exists(dir_ / "g.npy"));
  EXPECT_TRUE(fs::exists(dir_ / "g.config.toml"));
  // A --f0 that contradicts the recorded wavelet is refused.
  const Outcome f0 = invoke("gradient" + grid_ + "--velocity 2000 --observed s.sgy --f0 5 --out h.npy");
  EXPECT_NE(f0.code, 0);
  EXPECT_NE(f0.err.find("contradicts"), std::string::npos) << f0.err;
  EXPECT_FALSE(fs::exists(dir_ / "h.npy"));
}

TEST_F(CliSurvey, SegyTimeAxisAndSurveyOutputsAreChecked) {
  expect_refused("forward" + grid_ + "--tn 0.05 --src-grid 2,1,20 --dt 0.0010005 --out s.sgy",
                 "whole number of microseconds");
  expect_refused("forward" + grid_ + "--tn 0.05 --src-grid 2,1,20 --out s.npy", "a survey of 2 shots");
  expect_refused("forward" + grid_ + "--tn 0.05 --src-grid 2,1,900 --out s.sgy", "--src-grid source 0");
  std::ofstream(dir_ / "junk.sgy") << "not SEG-Y at all";
  const Outcome r = invoke("gradient" + grid_ + "--observed junk.sgy --out g.npy");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("junk.sgy: is not SEG-Y"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
}

// The CUDA backend's budgets on the CPU backend would be ignored: refused on the survey paths as on
// the single-shot ones (forward and gradient share the rule through revwave/setup).
TEST_F(CliSurvey, CudaBudgetsOnTheCpuBackendAreRefused) {
  expect_refused("forward" + grid_ + "--tn 0.05 --src-grid 2,1,20 --backend cpu --device-memory 1G --out s.sgy",
                 "--device-memory does not apply");
  expect_refused("gradient" + grid_ + "--tn 0.05 --src-grid 2,1,20 --backend cpu --host-memory 1G --out g.npy",
                 "--host-memory does not apply");
  expect_refused("gradient" + grid_ + "--tn 0.05 --src-grid 2,1,20 --backend cpu --shots-at-once 2 --out g.npy",
                 "--shots-at-once does not apply");
  expect_refused("gradient" + grid_ + "--tn 0.05 --src-grid 2,1,20 --shots-at-once 9 --out g.npy", "--shots-at-once 9");
  expect_refused("gradient" + grid_ + "--tn 0.05 --src-grid 2,1,20 --shots-at-once 0 --out g.npy", "--shots-at-once 0");
  EXPECT_FALSE(fs::exists(dir_ / "s.sgy"));
}

TEST_F(CliSurvey, RecordDirectoryAndSegyGiveTheSameGradient) {
  const std::string layout = grid_ + "--tn 0.06 --dt 0.001 --src-grid 2,1,20 --rec-grid 4,4,10 ";
  ASSERT_EQ(invoke("forward" + layout + "--out recs").code, 0);
  ASSERT_EQ(invoke("forward" + layout + "--out s.segy").code, 0);
  EXPECT_TRUE(fs::exists(dir_ / "recs" / "shot_0001.json"));
  const Outcome a = invoke("gradient" + grid_ + "--velocity 2000 --observed recs --out a.npy --json");
  const Outcome b = invoke("gradient" + grid_ + "--velocity 2000 --observed s.segy --out b.npy --json");
  const Outcome c = invoke("gradient" + grid_ +
                           "--velocity 2000 --observed recs/shot_0000.npy recs/shot_0001.npy --out c.npy --json");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(nlohmann::json::parse(a.out)["objective"], nlohmann::json::parse(b.out)["objective"]);
  EXPECT_TRUE(slurp((dir_ / "a.npy").string()) == slurp((dir_ / "b.npy").string()));
  EXPECT_TRUE(slurp((dir_ / "a.npy").string()) == slurp((dir_ / "c.npy").string()));
}

// --compress on a survey: every shot's checkpoints are compressed, and the JSON carries the
// single-shot run's "compression" block, summed over the shots (and over the processes of mpirun).
TEST_F(CliSurvey, CompressionAppliesToEveryShotAndTheJsonSumsIt) {
  ASSERT_EQ(invoke("forward" + grid_ + "--tn 0.08 --src-grid 2,1,20 --rec-grid 4,4,10 --out s.sgy").code, 0);
  const std::string args = "gradient" + grid_ + "--velocity 2000 --observed s.sgy --snaps 3 --json ";
  const Outcome none = invoke(args + "--out none.npy");
  const Outcome zfp = invoke(args + "--compress zfp-rate:8 --out zfp.npy");
  ASSERT_EQ(none.code, 0) << none.err;
  ASSERT_EQ(zfp.code, 0) << zfp.err;
  const auto jn = nlohmann::json::parse(none.out), jz = nlohmann::json::parse(zfp.out);
  ASSERT_EQ(jz["shots"], 2);
  EXPECT_EQ(jn["compression"]["mode"], "none");
  EXPECT_EQ(jn["compression"]["fields_compressed"], 0);
  const auto& c = jz["compression"];
  EXPECT_EQ(c["mode"], "zfp-rate:8");
  std::int64_t stores = 0, restores = 0;
  for (const auto& shot : jz["per_shot"]) {
    EXPECT_GT(shot["stores"].get<std::int64_t>(), 0);
    stores += shot["stores"].get<std::int64_t>();
    restores += shot["restores"].get<std::int64_t>();
  }
  EXPECT_EQ(c["fields_compressed"].get<std::int64_t>(), 2 * stores);  // both shots' stores, not one's
  EXPECT_GT(c["fields_decompressed"].get<std::int64_t>(), 0);
  EXPECT_LE(c["fields_decompressed"].get<std::int64_t>(), 2 * restores);
  EXPECT_NEAR(c["ratio"].get<double>(), 4.0, 0.2);  // 8 of 32 bits
  EXPECT_GT(c["seconds_compress"].get<double>(), 0.0);
  // The same block as a single shot's gradient JSON.
  const Outcome single = invoke("gradient" + grid_ + "--tn 0.08 --snaps 3 --compress zfp-rate:8 --json --out one.npy");
  ASSERT_EQ(single.code, 0) << single.err;
  const auto j1 = nlohmann::json::parse(single.out);
  const auto& c1 = j1["compression"];
  ASSERT_EQ(c.size(), c1.size());
  for (auto it = c1.begin(); it != c1.end(); ++it) EXPECT_TRUE(c.contains(it.key())) << it.key();
  // Lossy: near none's gradient (the CPU tests' bound for zfp-rate:8), not equal to it.
  const double gn = jn["gradient_norm"], gz = jz["gradient_norm"];
  EXPECT_NE(gz, gn);
  EXPECT_NEAR(gz, gn, 0.15 * gn);
  // The report for people says so too.
  const Outcome text =
      invoke("gradient" + grid_ + "--velocity 2000 --observed s.sgy --snaps 3 --compress zfp-rate:8 --out t.npy");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("compression     zfp-rate:8: " + std::to_string(2 * stores) + " fields encoded"),
            std::string::npos)
      << text.out;
#ifdef REVWAVE_MPIEXEC
  const Outcome two = mpirun(2, args + "--compress zfp-rate:8 --out two.npy");
  ASSERT_EQ(two.code, 0) << two.err;
  const auto j2 = nlohmann::json::parse(two.out);
  EXPECT_EQ(j2["processes"], 2);
  EXPECT_EQ(j2["compression"]["fields_compressed"], c["fields_compressed"]);
  EXPECT_EQ(j2["compression"]["compressed_bytes"], c["compressed_bytes"]);
  EXPECT_TRUE(slurp((dir_ / "two.npy").string()) == slurp((dir_ / "zfp.npy").string()));
#endif
}

TEST_F(CliSurvey, SurveyRunsNeverOverwriteTheirInputsNorLeaveTemporaries) {
  const std::string layout = grid_ + "--tn 0.05 --dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 ";
  ASSERT_EQ(invoke("forward" + layout + "--out recs").code, 0);
  ASSERT_EQ(invoke("forward" + layout + "--out s.sgy").code, 0);
  const std::string record = slurp((dir_ / "recs" / "shot_0001.npy").string());
  const std::string segy = slurp((dir_ / "s.sgy").string());
  auto files = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::string> before = files();
  // A record inside an observed directory, the SEG-Y file itself, and a sidecar.
  for (const std::string out : {"recs/shot_0001.npy", "s.sgy", "recs/shot_0000.json"}) {
    const std::string observed = out == "s.sgy"                ? "s.sgy"
                                 : out == "recs/shot_0001.npy" ? "recs"
                                                               : "recs/shot_0000.npy recs/shot_0001.npy";
    const Outcome r = invoke("gradient" + grid_ + "--velocity 2000 --observed " + observed + " --out " + out);
    EXPECT_NE(r.code, 0) << out;
    EXPECT_NE(r.err.find("--out " + out), std::string::npos) << r.err;
    EXPECT_EQ(files(), before) << out;
  }
  EXPECT_EQ(slurp((dir_ / "recs" / "shot_0001.npy").string()), record);
  EXPECT_EQ(slurp((dir_ / "s.sgy").string()), segy);
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  }
}

TEST_F(CliSurvey, MpiGradientIsTheSerialOneBitForBitForOneTwoThreeProcesses) {
#ifndef REVWAVE_MPIEXEC
  GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev and openmpi-bin)";
#else
  // Four unlike shots on the whole model: every point sums four different values, so a sum in
  // finishing order, or any other association than the tree's, shows in the bits.
  const Outcome f = invoke("forward" + grid_ +
                           "--tn 0.08 --src 30,40,20 --src 100,60,30 --src 70,120,20 --src 140,20,40 "
                           "--rec-grid 4,4,10 --out s.sgy");
  ASSERT_EQ(f.code, 0) << f.err;
  // The gradient under the default boundary, the C-PML: the one MPI test of its shots summed
  // across processes (the others here name the sponge).
  const std::string args = "gradient" + shape_ + "--velocity 2000 --observed s.sgy --json --out ";
  const Outcome serial = invoke(args + "serial.npy");
  ASSERT_EQ(serial.code, 0) << serial.err;
  const std::string reference = slurp((dir_ / "serial.npy").string());
  const double objective = nlohmann::json::parse(serial.out)["objective"].get<double>();
  for (int k : {1, 2, 3}) {
    const std::string out = "k" + std::to_string(k) + ".npy";
    const Outcome r = mpirun(k, args + out);
    ASSERT_EQ(r.code, 0) << k << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);  // rank 0 alone prints: one object
    EXPECT_EQ(j["processes"], k);
    EXPECT_EQ(j["objective"].get<double>(), objective) << k;
    EXPECT_TRUE(slurp((dir_ / out).string()) == reference) << k << " processes";
  }
#endif
}

TEST_F(CliSurvey, AFailingShotOnAnyProcessEndsTheWholeRun) {
#ifndef REVWAVE_MPIEXEC
  GTEST_SKIP() << "this build has no MPI (install libopenmpi-dev and openmpi-bin)";
#else
  survey_sgy();
  const std::string args = "gradient" + grid_ + "--velocity 2000 --observed s.sgy --out g.npy";
  for (const char* shot : {"0", "3"}) {
    const Outcome r = mpirun(2, args, std::string("REVWAVE_INJECT_SHOT_FAILURE=") + shot);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(std::string("shot ") + shot + " (FieldRecord"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("failure injected"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // rank 0's line alone
    EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
    EXPECT_FALSE(fs::exists(dir_ / "g.config.toml"));
  }
  // Refused before any shot runs, on every process alike: rank 0 alone says so (a velocity whose
  // stable step would take the records' dt in a run of hours).
  const Outcome bad = mpirun(3, "gradient" + grid_ + "--velocity 9e7 --observed s.sgy --out g.npy");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("without --yes"), std::string::npos) << bad.err;
  std::size_t lines = 0;
  for (std::size_t p = bad.err.find("revwave: error"); p != std::string::npos;
       p = bad.err.find("revwave: error", p + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
#endif
}

}  // namespace
