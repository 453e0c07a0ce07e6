// revwave invert on the command line: an inversion of a small 3D synthetic (two anomalies of
// opposite sign, three shots, a surface spread) that lowers the objective and the model error band
// by band; a run killed after an iteration and resumed gives the uninterrupted run's files bit for
// bit; bad options are refused with one line and no output.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

constexpr std::int64_t nx = 16, ny = 16, nz = 12;

double background(std::int64_t k) { return 1800.0 + 10.0 * double(k); }

class CliInvert : public revwave::testing::CliFixture {
 protected:
  // start.npy: a velocity increasing with depth; true.npy: the same with a fast and a slow
  // Gaussian anomaly side by side at 60 m depth.
  void write_models() {
    std::vector<double> start, truth;
    for (std::int64_t i = 0; i < nx; ++i)
      for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t k = 0; k < nz; ++k) {
          const double b = background(k);
          auto bump = [&](double ci, double cj, double ck) {
            return std::exp(-(std::pow(i - ci, 2) + std::pow(j - cj, 2) + std::pow(k - ck, 2)) / (2 * 2.0 * 2.0));
          };
          start.push_back(b);
          truth.push_back(b + 200.0 * bump(5, 7.5, 6) - 200.0 * bump(10, 7.5, 6));
        }
    revwave::write_npy((dir_ / "start.npy").string(), {nx, ny, nz}, start.data());
    revwave::write_npy((dir_ / "true.npy").string(), {nx, ny, nz}, truth.data());
  }

  static std::string survey_args() {
    // One thread: OpenMP's barriers on a tiny grid cost more than they save on a busy machine. The
    // sponge: these tests are about the inversion's loop, resume and processes, and on this grid the
    // default C-PML's layer is 84% of the points, where its passes made the runs 3 to 3.6 times as
    // long (test_cli_cpml.cpp runs the C-PML through the command line).
    return "--model start.npy --true-model true.npy --spacing 10 --space-order 4 --nbl 6 --boundary sponge --tn 0.35 "
           "--f0 20 --src 40,40,10 --src 110,40,10 --src 75,110,10 --rec-grid 8,8,10 --threads 1 --strategy full ";
  }

  std::vector<double> load(const std::string& name) { return revwave::read_npy((dir_ / name).string()).data; }

  std::vector<nlohmann::json> history(const std::string& dir) {
    std::vector<nlohmann::json> lines;
    std::ifstream in(dir_ / dir / "history.jsonl");
    for (std::string l; std::getline(in, l);) lines.push_back(nlohmann::json::parse(l));
    return lines;
  }

  // L2 misfit of a model against the truth in the illuminated box (away from the edges and the
  // layer under the sources and receivers).
  double model_error(const std::vector<double>& m, const std::vector<double>& truth) {
    double e = 0;
    for (std::int64_t i = 3; i < nx - 3; ++i)
      for (std::int64_t j = 3; j < ny - 3; ++j)
        for (std::int64_t k = 3; k < nz - 2; ++k) {
          const auto idx = static_cast<std::size_t>((i * ny + j) * nz + k);
          e += std::pow(m[idx] - truth[idx], 2);
        }
    return std::sqrt(e);
  }
};

TEST_F(CliInvert, ObjectiveAndModelErrorFallBandByBand) {
  write_models();
  const Outcome r =
      invoke("invert " + survey_args() + "--vmin 1400 --vmax 2400 --bands 14,22 --iterations 5 --out-dir inv --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("band_ends").size(), 2u) << r.out;
  const std::vector<nlohmann::json> h = history("inv");
  const std::vector<double> truth = load("true.npy"), start = load("start.npy");
  double error = model_error(start, truth);
  std::cout << "model error in the illuminated box: start " << error;
  int last_iteration = 0;
  for (int band = 1; band <= 2; ++band) {
    double first = -1, last = -1;
    int end_iteration = -1;
    for (const auto& l : h) {
      if (l.at("band") != band) continue;
      if (l.at("event") == "iteration") {
        if (first < 0) first = l.at("objective_before").get<double>();
        last = l.at("objective").get<double>();
        EXPECT_EQ(l.at("iteration").get<int>(), ++last_iteration);
        for (const char* key : {"gradient_norm", "step", "evaluations", "seconds", "cutoff_hz"})
          EXPECT_TRUE(l.contains(key)) << key;
      } else {
        end_iteration = l.at("iteration").get<int>();
      }
    }
    ASSERT_GT(first, 0) << "band " << band;
    ASSERT_GT(end_iteration, 0) << "band " << band;
    EXPECT_LE(last, 0.5 * first) << "band " << band << ": the objective fell from " << first << " to " << last;
    char name[32];
    std::snprintf(name, sizeof name, "inv/model_%04d.npy", end_iteration);
    const double e = model_error(load(name), truth);
    std::cout << ", band " << band << " " << e;
    EXPECT_LT(e, error) << "band " << band;
    error = e;
  }
  std::cout << "\n";
  // The latest model is the last iteration's; pictures are there.
  char name[32];
  std::snprintf(name, sizeof name, "inv/model_%04d.npy", last_iteration);
  EXPECT_EQ(load("inv/model.npy"), load(name));
  for (const char* f :
       {"inv/model_xz.png", "inv/model_yz.png", "inv/model_xy.png", "inv/true_xz.png", "inv/state.bin"}) {
    EXPECT_TRUE(fs::exists(dir_ / f)) << f;
  }
  for (const auto& e : fs::directory_iterator(dir_ / "inv")) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  }
}

// The README tutorial's step 4 in small: data recorded at the step the true model allows (at most
// about 2100 m/s here), inverted with --vmax 3000, which that step cannot keep stable. The records keep
// their samples; the run takes 2 steps a sample and resamples (record_resampling.hpp), says so, and
// lowers the misfit.
TEST_F(CliInvert, RecordsCoarserThanVmaxsStableStepAreRunInSubsteps) {
  write_models();
  const Outcome f = invoke(
      "forward --model true.npy --spacing 10 --space-order 4 --nbl 6 --boundary sponge --tn 0.35 --f0 20 "
      "--src-grid 2,2,10 --rec-grid 8,8,10 --threads 1 --out survey.sgy --json");
  ASSERT_EQ(f.code, 0) << f.err;
  const Outcome r = invoke(
      "invert --model start.npy --spacing 10 --space-order 4 --nbl 6 --boundary sponge --observed survey.sgy "
      "--threads 1 --strategy full --vmin 1400 --vmax 3000 --iterations 2 --out-dir inv --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_NE(j.at("warnings").dump().find("are simulated in 2 steps"), std::string::npos) << j.at("warnings");
  const std::vector<nlohmann::json> h = history("inv");
  double first = -1, last = -1;
  for (const auto& l : h) {
    if (l.at("event") != "iteration") continue;
    if (first < 0) first = l.at("objective_before").get<double>();
    last = l.at("objective").get<double>();
  }
  // J falls. Not to the anomalies' share alone: these data carry the time dispersion of a run at
  // the records' dt, the inversion's runs that of half that step (on this 4th-order grid a few per
  // cent of the traces), a floor no model removes; the resampling's own exactness is
  // ResampledSurvey's (Taylor test, the run's own samples).
  ASSERT_GT(first, 0) << r.out;
  EXPECT_LT(last, 0.9 * first) << "the objective fell from " << first << " to " << last;
}

TEST_F(CliInvert, AKilledRunResumedEqualsTheUninterruptedOneBitForBit) {
  write_models();
  const std::string args = "invert " + survey_args() + "--vmin 1400 --vmax 2400 --bands 14,22 --iterations 2 ";
  ASSERT_EQ(invoke(args + "--out-dir whole").code, 0);
  // Killed (SIGKILL) right after iteration 1, then after iteration 3 of the resumed run.
  const Outcome killed = invoke_with("REVWAVE_INVERT_KILL_AFTER=1", args + "--out-dir cut");
  ASSERT_NE(killed.code, 0);
  ASSERT_TRUE(fs::exists(dir_ / "cut/model_0001.npy"));
  ASSERT_FALSE(fs::exists(dir_ / "cut/model_0002.npy"));
  const Outcome again = invoke_with("REVWAVE_INVERT_KILL_AFTER=3", args + "--resume cut");
  ASSERT_NE(again.code, 0);
  const Outcome rest = invoke(args + "--resume cut");
  ASSERT_EQ(rest.code, 0) << rest.err;
  EXPECT_NE(rest.out.find("resuming cut after iteration 3"), std::string::npos) << rest.out;
  const auto whole = history("whole"), cut = history("cut");
  ASSERT_EQ(whole.size(), cut.size());
  int models = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    nlohmann::json a = whole[i], b = cut[i];
    // Every key that measures time (seconds, seconds_time_loops, ...), as output_fingerprints.sh drops them.
    for (nlohmann::json* h : {&a, &b})
      for (auto it = h->begin(); it != h->end();) it = it.key().rfind("seconds", 0) == 0 ? h->erase(it) : std::next(it);
    EXPECT_EQ(a, b) << i;
    if (whole[i].at("event") == "iteration") ++models;
  }
  EXPECT_EQ(models, 4);
  for (int k = 1; k <= models; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "model_%04d.npy", k);
    EXPECT_EQ(slurp((dir_ / "whole" / name).string()), slurp((dir_ / "cut" / name).string())) << name;
  }
  EXPECT_EQ(slurp((dir_ / "whole/state.bin").string()), slurp((dir_ / "cut/state.bin").string()));
  // Resuming a finished inversion does nothing; a new run into its directory is refused.
  const Outcome done = invoke(args + "--resume cut");
  EXPECT_EQ(done.code, 0);
  EXPECT_NE(done.out.find("nothing left to do"), std::string::npos) << done.out;
  const Outcome refused = invoke(args + "--out-dir cut");
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("--resume cut continues it"), std::string::npos) << refused.err;
  // Other settings are not this inversion's.
  const Outcome other =
      invoke("invert " + survey_args() + "--vmin 1400 --vmax 2300 --bands 14,22 --iterations 2 --resume cut");
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("ran on other inputs or settings"), std::string::npos) << other.err;
}

// Under mpirun every process runs the optimiser on the root's J and g: the same models, the same
// state, bit for bit, as one process.
TEST_F(CliInvert, MpiRunTakesTheSerialStepsBitForBit) {
#ifndef REVWAVE_MPIEXEC
  GTEST_SKIP() << "built without MPI";
#endif
  write_models();
  const std::string args = "invert " + survey_args() + "--vmin 1400 --vmax 2400 --bands 14,22 --iterations 2 ";
  ASSERT_EQ(invoke(args + "--out-dir serial").code, 0);
  const Outcome r = mpirun(2, args + "--out-dir parallel");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("2 processes"), std::string::npos) << r.out;
  for (const char* f : {"model_0001.npy", "model_0002.npy", "model_0003.npy", "model_0004.npy", "state.bin"}) {
    ASSERT_TRUE(fs::exists(dir_ / "serial" / f)) << f;
    EXPECT_EQ(slurp((dir_ / "serial" / f).string()), slurp((dir_ / "parallel" / f).string())) << f;
  }
}

TEST_F(CliInvert, BadOptionsAreRefusedWithOneLine) {
  // Small: these never reach the first iteration.
  const std::string base =
      "invert --velocity 2000 --shape 12,12,10 --spacing 10 --tn 0.1 --src 50,50,10 --rec 30,30,10 ";
  expect_refused(base + "--vmax 3000", "--vmin and --vmax are required");
  expect_refused(base + "--vmin 2500 --vmax 3000", "outside [--vmin, --vmax]");
  expect_refused(base + "--vmin 1500 --vmax 1400", "--vmax 1400 m/s is invalid");
  expect_refused(base + "--vmin 1500 --vmax 3000 --dt 0.0016", "--vmax 3000 m/s is too fast");
  expect_refused(base + "--vmin 1500 --vmax 3000 --bands 10,5", "the cut-offs must increase");
  expect_refused(base + "--vmin 1500 --vmax 3000 --bands 5,x", "--bands");
  expect_refused(base + "--vmin 1500 --vmax 3000 --bands 5000", "below the Nyquist frequency");
  expect_refused(base + "--vmin 1500 --vmax 3000 --mask-depth 500", "below the model's bottom");
  expect_refused(base + "--vmin 1500 --vmax 3000 --lbfgs-memory 0", "--lbfgs-memory");
  expect_refused(base + "--vmin 1500 --vmax 3000 --smooth -5", "--smooth");
  expect_refused(base + "--vmin 1500 --vmax 3000 --resume nowhere", "no inversion state there");
  std::vector<double> mask(10, 1.0);
  revwave::write_npy((dir_ / "mask.npy").string(), {10}, mask.data());
  const Outcome r = invoke(base + "--vmin 1500 --vmax 3000 --mask mask.npy");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--mask mask.npy has shape (10)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "inversion"));
}

}  // namespace
