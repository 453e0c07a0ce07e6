// The command line as a user meets it: bad input gives one line, a non-zero exit and no output file.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_fixture.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/model.hpp"

namespace {

namespace fs = std::filesystem;

using revwave::testing::Outcome;

class Cli : public revwave::testing::CliFixture {};

const std::string small = " --shape 12,12,12 --tn 0.05 ";

TEST_F(Cli, ForwardWritesRecordSidecarAndConfigAndJsonRoundTrips) {
  const Outcome r = invoke("forward" + small + "--out shot.npy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key :
       {"nt", "dt", "shape", "space_order", "backend", "precision", "seconds", "gpts_per_s", "peak_rss_bytes"}) {
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

// Every run's report accounts for its wall time: phases from the process's start (start-up first)
// to its outputs that add up to the wall time it reports, which is no longer than the process ran as
// this test saw it from outside (but the kernel's 10 ms tick on the start).
TEST_F(Cli, ReportsPhasesThatAddUpToTheRunsWallTime) {
  struct Case {
    std::string args, wall_key;
    std::vector<std::string> phases;
  };
  const std::vector<Case> cases = {
      {"forward" + small + "--json --out f.npy",
       "total_seconds",
       {"start_up", "backend", "model", "problem", "fields", "time_loop", "outputs"}},
      {"gradient" + small + "--json --out g.npy --png pics",
       "wall_seconds",
       {"start_up", "backend", "model", "observed_data", "problem", "forward", "reverse", "fields", "outputs",
        "pictures"}},
  };
  for (const Case& c : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    const Outcome r = invoke(c.args);
    const double outside = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.code, 0) << c.args << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("phases")) << c.args;
    double sum = 0;
    for (const auto& [name, seconds] : j["phases"].items()) {
      EXPECT_GE(seconds.get<double>(), 0.0) << name;
      sum += seconds.get<double>();
    }
    for (const std::string& name : c.phases) EXPECT_TRUE(j["phases"].contains(name)) << c.args << ": " << name;
    EXPECT_EQ(j["phases"].size(), c.phases.size()) << c.args << ": " << j["phases"].dump();
    const double wall = j[c.wall_key].get<double>();
    EXPECT_NEAR(sum, wall, 1e-9 * wall) << c.args;
    EXPECT_EQ(j["wall_seconds"].get<double>(), wall) << c.args;
    EXPECT_LE(wall, outside + 0.011) << c.args;
    EXPECT_GT(wall, 0.0) << c.args;
  }
  // The text reports say the same in a line.
  const Outcome f = invoke("forward" + small + "--out t.npy");
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_NE(f.out.find("  wall time     "), std::string::npos) << f.out;
  EXPECT_NE(f.out.find(" s start up, "), std::string::npos) << f.out;
  EXPECT_NE(f.out.find(" s time loop"), std::string::npos) << f.out;
}

// OpenMP's waiting at barriers is chosen at the start unless the user set it: a team that would
// share a core sleeps (the program runs itself again with OMP_WAIT_POLICY=passive; here on one core
// with two threads, whatever else runs), one thread spins as libgomp does, and the user's setting
// stands. The bits are the same whichever waits.
TEST_F(Cli, ChoosesHowOpenMpWaitsUnlessTheUserDid) {
  if (std::system("taskset -c 0 true >/dev/null 2>&1") != 0) GTEST_SKIP() << "no taskset";
  const std::string args = "forward" + small + "--json";
  const auto note = [&](const std::string& env, const std::string& more) {
    const Outcome r = invoke_with("env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT " + env, args + more);
    EXPECT_EQ(r.code, 0) << env << more << ": " << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["openmp_wait"].get<std::string>() : std::string();
  };
  const std::string sleeping = note("taskset -c 0", " --threads 2 --out a.npy");
  EXPECT_EQ(sleeping.rfind("sleep (OMP_WAIT_POLICY=passive, chosen: 2 threads, ", 0), 0u) << sleeping;
  EXPECT_NE(sleeping.find(" at the start)"), std::string::npos) << sleeping;
  const std::string alone = note("taskset -c 0", " --threads 1 --out b.npy");
  EXPECT_EQ(alone, "spin, then sleep (libgomp's default: one thread waits at no barrier)");
  const std::string set = note("OMP_WAIT_POLICY=active taskset -c 0", " --threads 2 --out c.npy");
  EXPECT_EQ(set, "as set: OMP_WAIT_POLICY=active");
  const std::string garbage = note("OMP_WAIT_POLICY=garbage", " --threads 2 --out d.npy");
  EXPECT_EQ(garbage, "as set: OMP_WAIT_POLICY=garbage (none of active, passive: libgomp's default instead)");
  const std::string a = slurp((dir_ / "a.npy").string());
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == slurp((dir_ / "b.npy").string()));
  EXPECT_TRUE(a == slurp((dir_ / "c.npy").string()));
}

// Where --backend auto could not take a GPU, the summary says why (what --verbose prints), so a
// script can tell a CPU node from a broken driver; where it took one, there is no reason to give.
TEST_F(Cli, JsonSaysWhyNoGpuWasTaken) {
  for (const char* command : {"forward", "gradient", "adjtest"}) {
    const Outcome r = invoke(std::string(command) + small + "--json --verbose");
    ASSERT_EQ(r.code, 0) << command << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    if (j["backend"] == "cuda") {
      EXPECT_FALSE(j.contains("backend_reason")) << command;
      continue;
    }
    EXPECT_EQ(j["backend_note"], "auto") << command;
    ASSERT_TRUE(j.contains("backend_reason")) << command;
    EXPECT_NE(j["backend_reason"].get<std::string>().find("no GPU is usable: "), std::string::npos) << command;
  }
}

// A plan runs nothing: on a machine or build without a usable GPU it plans a CUDA run for the card
// --device-memory describes (and asks for it in one line when it is missing).
TEST_F(Cli, PlanPlansForAGpuThisMachineLacks) {
  if (revwave::cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present: its own budget applies";
  const std::string args = "plan --shape 32,32,32 --tn 0.3 --backend cuda --host-memory 1GiB";
  expect_refused(args, "--device-memory BYTES");
  const Outcome tight = invoke(args + " --snaps 30 --device-memory 20MB --json");
  ASSERT_EQ(tight.code, 0) << tight.err;
  const auto j = nlohmann::json::parse(tight.out);
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_EQ(j["backend_note"], "planned for a GPU this machine lacks");
  const std::size_t slot = j["slot_bytes"];
  const std::int64_t on_device = j["placement"]["device_slots"];
  // As many slots as 20 MB holds (no two levels: with no room for staging they cannot pay), and
  // the more recomputation that costs than Revolve on the 30 slots asked for.
  EXPECT_EQ(on_device, static_cast<std::int64_t>(20000000 / slot));
  EXPECT_EQ(j["placement"]["host_slots"], 0);
  const Outcome roomy = invoke(args + " --snaps 30 --device-memory 80GB --json");
  ASSERT_EQ(roomy.code, 0) << roomy.err;
  const auto k = nlohmann::json::parse(roomy.out);
  EXPECT_EQ(k["placement"]["device_slots"], 30);
  EXPECT_GT(j["forward_steps"].get<std::int64_t>(), k["forward_steps"].get<std::int64_t>());
  EXPECT_TRUE(std::filesystem::is_empty(dir_));  // nothing written
}

// Where the options describe the model (the built-in one here), plan is arithmetic: it makes no
// model, and plans what the same model read from a file plans (the same step, slots, step counts,
// working set), adding the two models the gradient would hold to the peak.
TEST_F(Cli, PlanDescribesTheBuiltInModelWithoutMakingIt) {
  expect_refused("plan --shape 24,20,16 --density-gradient rho.npy", "--density-gradient needs --density");
  const std::vector<std::int64_t> shape{24, 20, 16};
  const revwave::VelocityModel m = revwave::default_true_model({24, 20, 16}, 10.0);
  revwave::write_npy((dir_ / "model.npy").string(), shape, m.velocity.data());
  const std::string rest = " --spacing 10 --tn 0.2 --snaps 4 --backend cpu --json";
  const Outcome described = invoke("plan --shape 24,20,16" + rest);
  const Outcome read = invoke("plan --model model.npy --true-model model.npy" + rest);
  ASSERT_EQ(described.code, 0) << described.err;
  ASSERT_EQ(read.code, 0) << read.err;
  const auto a = nlohmann::json::parse(described.out), b = nlohmann::json::parse(read.out);
  for (const char* key : {"steps", "dt", "slots", "slot_bytes", "forward_steps", "step_points"})
    EXPECT_EQ(a[key], b[key]) << key;
  EXPECT_EQ(a["predicted_peak_parts"]["working_set"], b["predicted_peak_parts"]["working_set"]);
  EXPECT_EQ(a["predicted_peak_parts"]["models"].get<std::int64_t>(), 2 * 24 * 20 * 16 * 8);
  EXPECT_EQ(b["predicted_peak_parts"]["models"].get<std::int64_t>(), 0);  // held by the plan itself
  // The C-PML's layer weighs in the time; the sponge's step is the interior's.
  EXPECT_GT(a["step_points"].get<double>(), 24.0 * 20 * 16);
  const auto s = nlohmann::json::parse(invoke("plan --shape 24,20,16 --boundary sponge" + rest).out);
  EXPECT_EQ(s["step_points"].get<double>(), 24.0 * 20 * 16);
  EXPECT_GT(a["predicted_seconds"].get<double>(), s["predicted_seconds"].get<double>());
  // --density-gradient is the gradient's: counted where there is a density (refused where not, above).
  std::vector<double> rho(static_cast<std::size_t>(24 * 20 * 16), 1000.0);
  revwave::write_npy((dir_ / "rho.npy").string(), shape, rho.data());
  const std::string dense = "plan --shape 24,20,16 --density rho.npy" + rest;
  const auto without = nlohmann::json::parse(invoke(dense).out);
  const Outcome with = invoke(dense + " --density-gradient drho.npy");
  ASSERT_EQ(with.code, 0) << with.err;
  EXPECT_GT(nlohmann::json::parse(with.out)["predicted_peak_parts"]["working_set"].get<double>(),
            without["predicted_peak_parts"]["working_set"].get<double>());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "drho.npy"));
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
  expect_refused_reading("model.npy", "forward --model model.npy --tn 0.05", "velocity 0 m/s");
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
  expect_refused_reading("junk.npy", "forward --model junk.npy", "junk.npy");
}

TEST_F(Cli, GradientBadStrategyAndBudgetAreRefused) {
  expect_refused("gradient" + small + "--strategy bogus", "bogus");
  expect_refused("gradient" + small + "--strategy revolve --checkpoint-memory 1K", "below one checkpoint slot");
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
  for (const char* key : {"objective", "gradient_norm", "strategy", "steps", "forward_steps", "reverse_steps",
                          "seconds", "peak_rss_bytes", "wavefield_storage_bytes", "snaps", "stores", "restores",
                          "checkpoint_bytes", "checkpoint_copy_bytes"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["forward_steps"], j["predicted_forward_steps"]);
  EXPECT_GT(j["stores"].get<std::int64_t>(), 0);
  EXPECT_EQ(j["checkpoint_copy_bytes"].get<std::uint64_t>(), 0u);  // memory slots are handles, not copies
  // On disk every store writes a slot and every restore but those of step 0 reads one.
  const Outcome disk = invoke(
      "gradient --shape 12,12,12 --velocity 2000 --observed obs.npy --out g3.npy --json "
      "--store disk --checkpoint-dir .");
  ASSERT_EQ(disk.code, 0) << disk.err;
  const auto jd = nlohmann::json::parse(disk.out);
  EXPECT_EQ(jd["objective"], j["objective"]);
  EXPECT_GE(jd["checkpoint_copy_bytes"].get<std::uint64_t>(),
            jd["stores"].get<std::uint64_t>() * jd["slot_bytes"].get<std::uint64_t>());
  // A model too fast for the record's dt runs in substeps of it and says so, the record keeping its
  // samples (record_resampling.hpp); one so fast that the substeps make a run of hours is refused.
  const Outcome fast = invoke("gradient --shape 12,12,12 --velocity 9000 --observed obs.npy --out g2.npy --json");
  ASSERT_EQ(fast.code, 0) << fast.err;
  const auto jf = nlohmann::json::parse(fast.out);
  const auto k = jf["substeps"].get<std::int64_t>();
  EXPECT_GT(k, 1);
  EXPECT_EQ(jf["nt"], j["nt"]);
  EXPECT_EQ(jf["steps"].get<std::int64_t>(), (jf["nt"].get<std::int64_t>() - 1 + 16) * k);  // 16: past the record's end
  EXPECT_NE(jf["warnings"].dump().find("are simulated in " + std::to_string(k) + " steps"), std::string::npos)
      << jf["warnings"].dump();
  const Outcome absurd = invoke("gradient --shape 12,12,12 --velocity 9e7 --observed obs.npy --out g4.npy");
  EXPECT_EQ(absurd.code, 2) << absurd.err;
  EXPECT_NE(absurd.err.find("without --yes"), std::string::npos) << absurd.err;
  EXPECT_FALSE(fs::exists(dir_ / "g4.npy"));
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
  // 230^3 points for 1615 steps: about 100 GiB of history, refused against a limit of 8 GiB that
  // the test sets, whatever the machine has (REVWAVE_MEMORY_LIMIT only ever lowers it).
  const Outcome r =
      invoke_with("REVWAVE_MEMORY_LIMIT=8GiB",
                  "gradient --shape 230,230,230 --tn 1.3 --strategy full --velocity 1500 --dt 0.0008 --out g.npy");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("--strategy full (the wavefield history, 1626 fields of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("only 8.00 GiB is available (REVWAVE_MEMORY_LIMIT)"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

// ---- no silent wrong answers (issue 11) ------------------------------------------------------

double number_in(const std::string& json_text, const char* key) {
  const auto j = nlohmann::json::parse(json_text);
  return j[key].is_number() ? j[key].get<double>() : std::nan("");  // NaN is written as null
}

TEST_F(Cli, NoAbsorbingLayerAndPointsOnTheFarFaceGiveAFiniteGradient) {
  for (const char* precision : {"float", "double"}) {
    const Outcome r = invoke("gradient" + small + "--nbl 0 --precision " + precision + " --json --out g.npy");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(std::isfinite(number_in(r.out, "gradient_norm"))) << precision << ": " << r.out;
    const Outcome face = invoke("gradient" + small + "--nbl 0 --precision " + precision +
                                " --src 110,110,110 --rec 110,55,0 --rec 0,110,110 --json --out f.npy");
    ASSERT_EQ(face.code, 0) << face.err;
    EXPECT_TRUE(std::isfinite(number_in(face.out, "gradient_norm"))) << precision << ": " << face.out;
    EXPECT_GT(number_in(face.out, "objective"), 0.0);
  }
}

TEST_F(Cli, ObservedDataThatAreNotFiniteAreRefused) {
  ASSERT_EQ(invoke("forward" + small + "--out obs.npy").code, 0);
  revwave::NpyArray a = revwave::read_npy((dir_ / "obs.npy").string());
  std::vector<float> v(a.data.begin(), a.data.end());
  v[5 * a.shape[1] + 3] = std::numeric_limits<float>::quiet_NaN();
  revwave::write_npy((dir_ / "obs.npy").string(), a.shape, v.data());
  const Outcome r = invoke("gradient --shape 12,12,12 --observed obs.npy --out g.npy");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("sample 5 of receiver 3 is nan: every sample of a shot record must be finite"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
}

TEST_F(Cli, AResultThatIsNotFiniteIsNeverWrittenAsASuccess) {
  // Valid float data at the edge of float's range: the adjoint source 1e38 / a overflows in float.
  ASSERT_EQ(invoke("forward" + small + "--out obs.npy").code, 0);
  revwave::NpyArray a = revwave::read_npy((dir_ / "obs.npy").string());
  std::vector<float> v(a.data.size(), 3e38f);
  revwave::write_npy((dir_ / "obs.npy").string(), a.shape, v.data());
  const Outcome r = invoke("gradient --shape 12,12,12 --observed obs.npy --out g.npy");
  EXPECT_EQ(r.code, 6) << r.err;
  EXPECT_NE(r.err.find("is not finite"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "g.npy"));
  EXPECT_FALSE(fs::exists(dir_ / "g.config.toml"));
}

TEST_F(Cli, VelocitiesAndStepsThePrecisionCannotHoldAreRefused) {
  expect_refused("forward" + small + "--velocity 1e-20", "velocity 1e-20 m/s is out of range for float");
  expect_refused("forward --shape 12,12,12 --tn 1e30", "time steps: the limit is 2^53");
  expect_refused("forward" + small + "--dt 1e-300", "time steps: the limit is 2^53");
  expect_refused("forward --shape 12,12,12 --tn 1e400", "--tn '1e400' is invalid");
  expect_refused("schedule --steps 99999999999999999999", "--steps '99999999999999999999' is invalid");
}

TEST_F(Cli, ShapesAndReceiverGridsThatCannotFitAreRefusedUpFront) {
  expect_refused("forward --shape 3000000000,3000000000,3000000000", "exceeds the limit of 2^63 - 1");
  expect_refused("forward --shape 12,12,12 --rec-grid 3037000500,3037000500,10", "exceeds the limit of 2^63 - 1");
  const Outcome big = invoke_with("REVWAVE_MEMORY_LIMIT=1GiB", "forward --shape 3000,3000,3000");
  EXPECT_EQ(big.code, 4) << big.err;
  EXPECT_NE(big.err.find("the velocity model of 27000000000 points (--shape 3000,3000,3000) needs 201.17 GiB"),
            std::string::npos)
      << big.err;
  const Outcome receivers =
      invoke_with("REVWAVE_MEMORY_LIMIT=1GiB", "forward --shape 12,12,12 --rec-grid 100000,100000,10");
  EXPECT_EQ(receivers.code, 4) << receivers.err;
  EXPECT_NE(receivers.err.find("(10000000000 receivers) needs"), std::string::npos) << receivers.err;
  // --yes: 194,724 steps, past the limit on steps (test_cli_nothing_lost.cpp); the memory is refused.
  const Outcome traces =
      invoke_with("REVWAVE_MEMORY_LIMIT=64MiB", "forward --shape 12,12,12 --tn 300 --rec-grid 64,64,10 --yes");
  EXPECT_EQ(traces.code, 4) << traces.err;
  EXPECT_NE(traces.err.find("the forward run (3 wavefields of"), std::string::npos) << traces.err;
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(Cli, ZeroIsAValueNotAnAbsentOption) {
  expect_refused("gradient" + small + "--snaps 0", "--snaps 0 is invalid: it must be an integer >= 1");
  expect_refused("gradient" + small + "--checkpoint-memory 0.5",
                 "memory size '0.5' is invalid: it is less than one byte");
  expect_refused("gradient" + small + "--checkpoint-memory 100000000000T", "exceeds the largest size");
  expect_refused("gradient" + small + "--velocity 0", "--velocity 0 m/s is invalid: it must be finite and > 0");
  expect_refused("forward" + small + "--dt 0", "--dt 0 s is invalid");
  expect_refused("forward" + small + "--threads 0", "--threads 0 is invalid");
  expect_refused("adjtest" + small + "--tolerance 0", "--tolerance 0 is invalid");
  expect_refused("schedule --strategy online --sweep 0", "--sweep 0 is invalid");
}

TEST_F(Cli, OptionsTheRunWouldIgnoreAreRefused) {
  expect_refused("gradient" + small + "--strategy full --snaps 4", "--snaps 4 does not apply: --strategy full");
  expect_refused("gradient" + small + "--strategy full --store memory", "--store memory does not apply");
  expect_refused("gradient" + small + "--strategy full --checkpoint-memory 1G", "--checkpoint-memory does not apply");
  expect_refused("gradient" + small + "--tier memory:3", "--tier memory:3 does not apply: --strategy revolve");
  expect_refused("gradient" + small + "--stop-energy 0.1", "--stop-energy 0.1 does not apply");
  expect_refused("gradient" + small + "--checkpoint-dir .", "--checkpoint-dir does not apply");
  expect_refused("gradient" + small + "--backend cpu --device-memory 1G", "--device-memory does not apply");
  expect_refused("schedule --slot-bytes 8", "--slot-bytes needs --strategy multilevel");
  // A config file: its section for another subcommand, a key that names no option.
  std::ofstream(dir_ / "other.toml") << "[gradient]\nnbl = 4\n";
  std::ofstream(dir_ / "typo.toml") << "[forward]\nnbll = 4\n";
  for (const auto& [file, mention] :
       {std::pair<std::string, std::string>{"other.toml", "the config file sets gradient.nbl"},
        {"typo.toml", "the config file's key 'forward.nbll' names no option"}}) {
    const Outcome r = invoke("forward" + small + "--config " + file + " --out s.npy");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "s.npy"));
  }
}

TEST_F(Cli, AConfigFileThatIsNotTomlIsRefusedWithItsLine) {
  std::ofstream(dir_ / "bad.toml") << "[forward]\nnbl = = 3\n";
  const Outcome r = invoke("forward" + small + "--config bad.toml");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("bad.toml: not valid TOML (line 2"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "shot.npy"));
  std::ofstream(dir_ / "prose.toml") << "this is not a config file\n";
  const Outcome prose = invoke("forward" + small + "--config prose.toml");
  EXPECT_EQ(prose.code, 3) << prose.err;
  EXPECT_NE(prose.err.find("prose.toml: not valid TOML (line 1"), std::string::npos) << prose.err;
  // What a run writes reads back, for every strategy (no option it would refuse is written).
  for (const char* strategy : {"full", "revolve", "online"}) {
    ASSERT_EQ(invoke("gradient" + small + "--strategy " + strategy + " --out g.npy").code, 0) << strategy;
    const Outcome again = invoke("gradient --config g.config.toml --out g2.npy");
    EXPECT_EQ(again.code, 0) << strategy << ": " << again.err << "\n" << slurp((dir_ / "g.config.toml").string());
    EXPECT_TRUE(slurp((dir_ / "g.npy").string()) == slurp((dir_ / "g2.npy").string())) << strategy;
  }
}

TEST_F(Cli, AnOutputThatNamesAnInputIsRefused) {
  ASSERT_EQ(invoke("forward" + small + "--out obs.npy").code, 0);
  const std::vector<std::int64_t> shape{12, 12, 12};
  const std::vector<double> v(12 * 12 * 12, 2000.0);
  revwave::write_npy((dir_ / "m.npy").string(), shape, v.data());
  const std::vector<double> rec{10, 10, 10, 50, 50, 20};
  revwave::write_npy((dir_ / "r.npy").string(), {2, 3}, rec.data());
  const auto before =
      slurp((dir_ / "obs.npy").string()) + slurp((dir_ / "obs.json").string()) + slurp((dir_ / "m.npy").string());
  const auto refused = [&](const std::string& args, const std::string& mention) {
    const Outcome r = invoke(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << "\n" << r.err;
  };
  refused("gradient --shape 12,12,12 --observed obs.npy --out obs.npy",
          "--out obs.npy would overwrite --observed obs.npy");
  refused("gradient --shape 12,12,12 --observed obs.npy --out obs.json", "would overwrite the sidecar of --observed");
  refused("gradient --shape 12,12,12 --observed obs.npy --out ./sub/../obs.npy", "would overwrite --observed");
  refused("forward --model m.npy --tn 0.05 --out m.npy", "would overwrite --model m.npy");
  refused("gradient" + small + "--true-model m.npy --out m.npy", "would overwrite --true-model m.npy");
  refused("forward" + small + "--rec-file r.npy --out r.npy", "would overwrite --rec-file r.npy");
  std::filesystem::create_directory(dir_ / "sub");
  ASSERT_EQ(invoke("forward" + small + "--out run.npy").code, 0);
  refused("forward --config run.config.toml --out run.npy", "would overwrite --config run.config.toml");
  EXPECT_EQ(before, slurp((dir_ / "obs.npy").string()) + slurp((dir_ / "obs.json").string()) +
                        slurp((dir_ / "m.npy").string()));
}

TEST_F(Cli, AFailedRunKeepsTheOutputsThatExistedBeforeIt) {
  ASSERT_EQ(invoke("gradient" + small + "--out g.npy").code, 0);
  const std::string gradient = slurp((dir_ / "g.npy").string()), config = slurp((dir_ / "g.config.toml").string());
  // The pictures cannot be written (no such directory): refused before the run (exit code 3).
  const Outcome r = invoke("gradient" + small + "--velocity 2100 --out g.npy --png missing/pic");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(slurp((dir_ / "g.npy").string()), gradient);
  EXPECT_EQ(slurp((dir_ / "g.config.toml").string()), config);
  std::vector<std::string> names = leftovers();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"g.config.toml", "g.npy"}));
}

TEST_F(Cli, ScheduleCountsComeFromClosedFormsForAny64BitStepCount) {
  const auto t0 = std::chrono::steady_clock::now();
  expect_refused("schedule --steps 9223372036854775807 --snaps 1",
                 "forward step count of 9223372036854775807 steps with 1 slots exceeds 2^63 - 1");
  const Outcome r = invoke("schedule --steps 4611686018427387904 --snaps 9223372036854775807 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["forward_steps"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(j["stores"].get<std::int64_t>(), (std::int64_t(1) << 62) - 2);
  const Outcome one = invoke("schedule --steps 1099511627776 --snaps 1 --json");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["stores"].get<std::int64_t>(), 1482908);
  // Counting the streams instead took minutes; the closed forms take milliseconds (the bound is
  // loose for loaded machines and sanitizers).
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
  expect_refused("schedule --strategy online --steps 9223372036854775807", "up to 1000000 steps");
  expect_refused("schedule --steps 100000000 --snaps 3 --actions", "--actions would list over");
}

TEST_F(Cli, BadInputExitsWithTheDocumentedCodes) {
  EXPECT_EQ(invoke("forward --no-such-option").code, 2);
  EXPECT_EQ(invoke("forward --nbl -1").code, 2);
  EXPECT_EQ(invoke("forward --config missing.toml").code, 3);
  EXPECT_EQ(invoke_with("REVWAVE_MEMORY_LIMIT=1MiB", "forward --shape 200,200,200").code, 4);
}

TEST_F(Cli, CompressIsRefusedWhenMalformedAndReportedWhenUsed) {
  expect_refused("gradient" + small + "--compress zfp-rate:abc", "zfp-rate");
  expect_refused("gradient" + small + "--compress zfp-rate:-3", "-3");
  expect_refused("gradient" + small + "--compress lz4", "lz4");
  expect_refused("gradient" + small + "--compress zfp-accuracy:0", "zfp-accuracy");
  expect_refused("gradient" + small + "--strategy full --compress fp16", "--compress fp16");
  const Outcome r = invoke("gradient" + small + "--snaps 2 --compress zfp-rate:8 --json --out g.npy");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["compression"]["mode"], "zfp-rate:8");
  EXPECT_NEAR(j["compression"]["ratio"].get<double>(), 4.0, 0.2);  // 8 of 32 bits
  EXPECT_EQ(j["compression"]["fields_compressed"].get<std::int64_t>(), 2 * j["stores"].get<std::int64_t>());
  EXPECT_GT(j["compression"]["seconds_compress"].get<double>(), 0.0);
  const Outcome none = invoke("gradient" + small + "--snaps 2 --json --out n.npy");
  ASSERT_EQ(none.code, 0) << none.err;
  const auto jn = nlohmann::json::parse(none.out);
  EXPECT_EQ(jn["compression"]["mode"], "none");
  EXPECT_EQ(jn["compression"]["fields_compressed"].get<std::int64_t>(), 0);
  EXPECT_LT(j["slot_bytes"].get<std::int64_t>(), jn["slot_bytes"].get<std::int64_t>() / 4);
}

}  // namespace
