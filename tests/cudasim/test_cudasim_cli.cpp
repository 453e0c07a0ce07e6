// The command line on the CUDA backend, as a GPU workstation user meets it, run by
// revwave-cudasim (the same app on the emulated runtime; it exits 70 if the run raced).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../cuda/cuda_test_support.hpp"
#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace revwave {
namespace {

using testing::Outcome;

class CudaCli : public testing::CliFixture {
 protected:
  CudaCli() : CliFixture(REVWAVE_CUDASIM_BINARY) {}
  void TearDown() override {
    unsetenv("REVWAVE_CUDASIM_DEVICE_MEMORY");
    CliFixture::TearDown();
  }
  nlohmann::json gradient(const std::string& args, const std::string& grid) {
    const Outcome r = invoke("gradient" + grid + args + " --json");
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
  }
  nlohmann::json gradient(const std::string& args) { return gradient(args, small); }
  // The sponge: most runs through this grid are about the device's stores, tiers and budgets; the
  // default C-PML (the fields' tails in the slots) runs in the spill and ZFP cases on `shape`, and
  // in the gradtest, survey, plane and density cases below (and CudaCpml's suite).
  const std::string shape = " --shape 23,19,17 --tn 0.12 ";
  const std::string small = shape + "--boundary sponge ";
};

TEST_F(CudaCli, InfoListsTheBackendAndTheDevice) {
  const Outcome r = invoke("info --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NE(j["backends_compiled"].dump().find("cuda"), std::string::npos) << r.out;
  ASSERT_EQ(j["cuda_devices"].size(), 1u) << r.out;
  EXPECT_NE(j["cuda_devices"][0]["name"].get<std::string>().find("cudasim"), std::string::npos);
}

TEST_F(CudaCli, AutoPicksTheDeviceAndAgreesWithTheCpu) {
  const auto gpu = gradient("--strategy revolve --snaps 6");
  const auto cpu = gradient("--strategy revolve --snaps 6 --backend cpu");
  ASSERT_FALSE(gpu.empty());
  ASSERT_FALSE(cpu.empty());
  EXPECT_EQ(gpu["backend"], "cuda");
  EXPECT_EQ(cpu["backend"], "cpu");
  EXPECT_EQ(gpu["placement"]["device_slots"], 6);
  EXPECT_EQ(gpu["placement"]["host_slots"], 0);
  EXPECT_EQ(gpu["cuda"], gpu["placement"]);  // the old key, kept for one release
  EXPECT_EQ(gpu["forward_steps"], cpu["forward_steps"]);
  const double jg = gpu["objective"], jc = cpu["objective"];
  EXPECT_NEAR(jg, jc, 1e-5 * jc);
  const double ng = gpu["gradient_norm"], nc = cpu["gradient_norm"];
  EXPECT_NEAR(ng, nc, 1e-4 * nc);
}

// The Taylor test on the device: what a GPU runner's CI takes of the gradient it ships. Its J(m) is
// the CPU's within float rounding, its rates pass, and a checkpointed strategy needs no more.
TEST_F(CudaCli, GradtestRunsOnTheDeviceAndPasses) {
  const std::string args = "gradtest --shape 16,15,14 --tn 0.1 --halvings 4 --json ";
  const Outcome gpu = invoke(args + "--strategy revolve --snaps 5 --device-memory 64MiB");
  const Outcome cpu = invoke(args + "--strategy revolve --snaps 5 --backend cpu");
  ASSERT_EQ(gpu.code, 0) << gpu.err << gpu.out;
  ASSERT_EQ(cpu.code, 0) << cpu.err << cpu.out;
  const auto g = nlohmann::json::parse(gpu.out), c = nlohmann::json::parse(cpu.out);
  EXPECT_EQ(g["backend"], "cuda");
  EXPECT_EQ(c["backend"], "cpu");
  EXPECT_TRUE(g["pass"].get<bool>()) << gpu.out;
  EXPECT_GE(g["rate_second"].get<double>(), 1.9) << gpu.out;
  const double jg = g["objective"], jc = c["objective"];
  EXPECT_NEAR(jg, jc, 1e-9 * jc);  // double precision, gradtest's default
  const double dg = g["directional_derivative"], dc = c["directional_derivative"];
  EXPECT_NEAR(dg, dc, 1e-8 * std::abs(dc));
  // A CUDA budget on the CPU is refused, as for gradient.
  const Outcome refused = invoke(args + "--backend cpu --device-memory 64MiB");
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("--device-memory"), std::string::npos) << refused.err;
}

TEST_F(CudaCli, SurveyGradientOnTheDeviceAgreesWithTheCpu) {
  const Outcome f =
      invoke("forward --shape 14,13,12 --tn 0.06 --src-grid 2,1,20 --rec-grid 3,3,10 --backend cpu --out s.sgy");
  ASSERT_EQ(f.code, 0) << f.err;
  const std::string args = "gradient --shape 14,13,12 --velocity 2000 --observed s.sgy --aperture 30 --snaps 5 --json ";
  const Outcome gpu = invoke(args + "--backend cuda --out g.npy");
  const Outcome cpu = invoke(args + "--backend cpu --out c.npy");
  ASSERT_EQ(gpu.code, 0) << gpu.err;
  ASSERT_EQ(cpu.code, 0) << cpu.err;
  const auto jg = nlohmann::json::parse(gpu.out), jc = nlohmann::json::parse(cpu.out);
  EXPECT_EQ(jg["backend"], "cuda");
  EXPECT_EQ(jg["shots"], 2);
  for (int s = 0; s < 2; ++s) {
    const double a = jg["shot_objectives"][s], b = jc["shot_objectives"][s];
    EXPECT_NEAR(a, b, 1e-5 * b) << s;
  }
  const double ng = jg["gradient_norm"], nc = jc["gradient_norm"];
  EXPECT_NEAR(ng, nc, 1e-4 * nc);
  // Both shots at once on the device: the same file, byte for byte, and the run says so.
  const Outcome two = invoke(args + "--backend cuda --shots-at-once 2 --out g2.npy");
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(nlohmann::json::parse(two.out)["shots_at_once"], 2);
  EXPECT_EQ(jg["shots_at_once"], 1);
  EXPECT_TRUE(slurp((dir_ / "g2.npy").string()) == slurp((dir_ / "g.npy").string()));
}

// One shot has nothing to run at once with: --shots-at-once is refused there, not ignored.
TEST_F(CudaCli, ARunOfOneShotRefusesShotsAtOnce) {
  expect_refused("gradient --shape 14,13,12 --tn 0.06 --backend cuda --shots-at-once 2 --out one.npy",
                 "--shots-at-once 2 does not apply: a single-shot gradient runs one shot");
  expect_refused("gradtest --shape 14,13,12 --tn 0.06 --backend cuda --shots-at-once 2",
                 "--shots-at-once 2 does not apply: gradtest runs one shot");
}

// The growth guard on the device (tests/cli/test_cli_growth_guard.cpp on the CPU): a signature of
// 3e38 on a 1 cm grid overflows float; the run stops at the guard's first sample with code 7, one
// line and no output.
TEST_F(CudaCli, ARunWhoseFieldIsNotFiniteExitsWithSevenAndWritesNothing) {
  std::vector<double> w(201, 0.0);
  std::fill(w.begin(), w.begin() + 5, 3e38);
  write_npy((dir_ / "big.npy").string(), {static_cast<std::int64_t>(w.size())}, w.data());
  const Outcome r = invoke(
      "gradient --backend cuda --shape 12,12,12 --spacing 0.01 --dt 1e-6 --tn 2e-4 --wavelet big.npy --out g.npy");
  std::filesystem::remove(dir_ / "big.npy");
  EXPECT_EQ(r.code, 7) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("the wavefield is not finite at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cpml boundary, space order 8; nothing was written"), std::string::npos) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

// Where the device budget is derived from what is free and binds, every shot of the same window
// plans with the same share: fixed at the first shot, for one lane or two. Re-derived per shot, a
// lane's later shots planned with less (the pool keeps the first shot's slots' fields), and took
// more forward steps.
TEST_F(CudaCli, EveryShotPlansWithTheSameShareOfADerivedBudget) {
  const std::string layout = "--shape 16,16,16 --tn 0.1 --src-grid 2,1,20 --rec-grid 4,4,10 ";
  ASSERT_EQ(invoke("forward " + layout + "--backend cpu --out s.sgy").code, 0);
  // 600 MiB less the propagator's margin of 512: the first shot's 20 slots fit, and re-derived, the
  // second shot's budget held 14 (181 forward steps against 175).
  setenv("REVWAVE_CUDASIM_DEVICE_MEMORY", std::to_string(std::size_t(600) << 20).c_str(), 1);
  for (const char* at_once : {"1", "2"}) {
    const Outcome g = invoke(
        "gradient --shape 16,16,16 --velocity 1900 --observed s.sgy --backend cuda --json "
        "--shots-at-once " +
        std::string(at_once) + " --out g" + at_once + ".npy");
    ASSERT_EQ(g.code, 0) << g.err;
    const auto j = nlohmann::json::parse(g.out);
    ASSERT_EQ(j["per_shot"].size(), 2u);
    for (const auto& s : j["per_shot"]) {
      EXPECT_EQ(s["forward_steps"], j["per_shot"][0]["forward_steps"]) << at_once << " at once, " << s["name"];
      EXPECT_EQ(s["wavefield_storage_bytes"], j["per_shot"][0]["wavefield_storage_bytes"]) << at_once << " at once";
    }
  }
  EXPECT_TRUE(slurp((dir_ / "g1.npy").string()) == slurp((dir_ / "g2.npy").string()));
}

// A 2D model (ny = 1) on the device, in double: the CPU's gradient file byte for byte (the
// emulation runs the kernels' point formulas in the CPU's order; not where it contracts them),
// from device slots and from slots spilled to pinned host memory (two levels) alike.
TEST_F(CudaCli, APlaneOnTheDeviceGivesTheCpusGradient) {
  const std::string args =
      "gradient --shape 40,1,30 --nbl 5 --tn 0.3 --precision double --src 150,0,40 --rec-grid 8,1,20 --json ";
  const Outcome cpu = invoke(args + "--backend cpu --out c.npy");
  ASSERT_EQ(cpu.code, 0) << cpu.err;
  const Outcome device = invoke(args + "--backend cuda --strategy revolve --snaps 6 --out d.npy");
  ASSERT_EQ(device.code, 0) << device.err;
  const auto field = nlohmann::json::parse(device.out)["slot_bytes"].get<std::size_t>() / 2;
  const Outcome spilled =
      invoke(args + "--backend cuda --strategy revolve --snaps 30 --host-spacing 5 --device-memory " +
             std::to_string(10 * field) + " --out s.npy");
  ASSERT_EQ(spilled.code, 0) << spilled.err;
  EXPECT_GT(nlohmann::json::parse(spilled.out)["placement"]["host_slots"].get<int>(), 0);
  const std::string c = slurp((dir_ / "c.npy").string());
  ASSERT_FALSE(c.empty());
  // The CPU's bytes where the kernels round as written; the device's own bits wherever they round.
  if (cuda_testing::rounds_as_written()) {
    EXPECT_TRUE(slurp((dir_ / "d.npy").string()) == c) << "device slots";
  }
  EXPECT_TRUE(slurp((dir_ / "s.npy").string()) == slurp((dir_ / "d.npy").string())) << "pinned slots";
}

// --density on the device (no longer refused), in double: dJ/dm and dJ/drho the CPU's files byte
// for byte (where the emulation does not contract the kernels), open and with --free-surface, from device slots; a survey with --aperture windows runs.
TEST_F(CudaCli, ADensityOnTheDeviceGivesTheCpusGradients) {
  std::vector<double> rho(12 * 12 * 12);
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = (i % 12) > 6 ? 1800.0 : 1000.0 + 10.0 * double(i % 7);
  write_npy((dir_ / "rho.npy").string(), {12, 12, 12}, rho.data());
  for (const std::string surface : {"", "--free-surface "}) {
    const std::string args =
        "gradient --shape 12,12,12 --tn 0.05 --precision double --src 60,50,25 --rec 40,50,0 "
        "--rec 80,50,15 --density rho.npy " +
        surface;
    const Outcome cpu = invoke(args + "--backend cpu --out c.npy --density-gradient c_rho.npy");
    ASSERT_EQ(cpu.code, 0) << cpu.err;
    const Outcome device =
        invoke(args + "--backend cuda --strategy revolve --snaps 4 --out d.npy --density-gradient d_rho.npy");
    ASSERT_EQ(device.code, 0) << device.err;
    const std::string c = slurp((dir_ / "c.npy").string()), c_rho = slurp((dir_ / "c_rho.npy").string());
    ASSERT_FALSE(c.empty());
    ASSERT_FALSE(c_rho.empty());
    if (!cuda_testing::rounds_as_written()) continue;  // contracted kernels: the CPU's bytes are not theirs
    EXPECT_TRUE(slurp((dir_ / "d.npy").string()) == c) << "dJ/dm " << surface;
    EXPECT_TRUE(slurp((dir_ / "d_rho.npy").string()) == c_rho) << "dJ/drho " << surface;
  }
  const Outcome survey = invoke(
      "gradient --shape 12,12,12 --tn 0.05 --free-surface --dt 0.001 --src-grid 2,1,20 --rec-grid 3,3,10 "
      "--density rho.npy --aperture 40 --backend cuda --out survey.npy --json");
  ASSERT_EQ(survey.code, 0) << survey.err;
  EXPECT_GT(nlohmann::json::parse(survey.out)["gradient_norm"].get<double>(), 0.0);
}

TEST_F(CudaCli, SpilledSlotsGiveTheSameBitsAndTheRunSaysWhere) {
  const auto device = gradient("--strategy revolve --snaps 6", shape);
  const auto field = device["slot_bytes"].get<std::size_t>() / 2;
  // Room for five slots (two staging, the segment base, two Revolve slots) of the 30 asked for:
  // two levels, with pinned host checkpoints at least 5 steps apart.
  const auto spilled =
      gradient("--strategy revolve --snaps 30 --host-spacing 5 --device-memory " + std::to_string(10 * field), shape);
  ASSERT_FALSE(spilled.empty());
  EXPECT_EQ(spilled["placement"]["device_slots"], 3);
  EXPECT_GT(spilled["placement"]["host_slots"].get<int>(), 0);
  EXPECT_NE(spilled["placement"]["tiers"].get<std::string>().find("two levels"), std::string::npos)
      << spilled["placement"];
  EXPECT_EQ(spilled["forward_steps"], spilled["predicted_forward_steps"]);
  const double a = device["objective"], b = spilled["objective"];
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  const double na = device["gradient_norm"], nb = spilled["gradient_norm"];
  EXPECT_EQ(std::memcmp(&na, &nb, sizeof na), 0);
  const auto full = gradient("--strategy full --device-memory 1", shape);
  EXPECT_EQ(full["placement"]["history_tier"], "pinned-host");
  const double nf = full["gradient_norm"];
  EXPECT_EQ(std::memcmp(&na, &nf, sizeof na), 0);
}

// `revwave plan --backend cuda` says where the run's slots or history go, by the arithmetic the run
// uses (schedule/tier_split.hpp), and the run then puts them there: all slots on the device, too few
// for two levels, two levels with pinned host checkpoints, and the history spilled to pinned memory.
TEST_F(CudaCli, PlanSaysWhereTheDeviceRunPutsItsSlots) {
  const auto device = gradient("--strategy revolve --snaps 6", shape);
  const std::size_t field = device["slot_bytes"].get<std::size_t>() / 2;
  for (const std::string& args :
       {std::string("--strategy revolve --snaps 6 --device-memory 1GiB"),
        "--strategy revolve --snaps 30 --device-memory " + std::to_string(7 * field),
        "--strategy revolve --snaps 30 --host-spacing 5 --device-memory " + std::to_string(10 * field),
        std::string("--strategy full --device-memory 1")}) {
    // The host budget given: derived, it follows this machine's free memory between the two runs.
    const std::string run_args = args + " --backend cuda --host-memory 1GiB";
    const Outcome p = invoke("plan" + shape + run_args + " --json");
    ASSERT_EQ(p.code, 0) << args << "\n" << p.err;
    const auto plan = nlohmann::json::parse(p.out);
    const auto run = gradient(run_args, shape);
    ASSERT_FALSE(run.empty()) << args;
    ASSERT_TRUE(plan.contains("cuda")) << args << "\n" << p.out;
    EXPECT_EQ(plan["forward_steps"], run["forward_steps"]) << args;
    if (args.find("full") != std::string::npos) {
      EXPECT_EQ(plan["placement"]["history_tier"], run["placement"]["history_tier"]) << args;
      continue;
    }
    EXPECT_EQ(plan["placement"]["device_slots"], run["placement"]["device_slots"]) << args;
    EXPECT_EQ(plan["placement"]["host_slots"], run["placement"]["host_slots"]) << args;
    EXPECT_EQ(plan["placement"]["tiers"], run["placement"]["tiers"]) << args;
  }
}

TEST_F(CudaCli, ADeviceBudgetTheDeviceCannotGiveSaysWhatFits) {
  const std::size_t field = gradient("--strategy revolve --snaps 2")["slot_bytes"].get<std::size_t>() / 2;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) std::filesystem::remove_all(e.path());
  // The working set (six fields) fits, 20 slots of two fields do not.
  setenv("REVWAVE_CUDASIM_DEVICE_MEMORY", std::to_string(16 * field).c_str(), 1);
  expect_refused("gradient" + small + "--strategy revolve --snaps 20 --device-memory 1GiB --out g.npy", "device has");
  const Outcome r = invoke("gradient" + small + "--strategy revolve --snaps 20 --device-memory 1GiB --out g.npy");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("try --snaps "), std::string::npos) << r.err;
}

TEST_F(CudaCli, AWorkingSetTheDeviceCannotHoldIsRefused) {
  setenv("REVWAVE_CUDASIM_DEVICE_MEMORY", "2000000", 1);
  expect_refused("forward" + small + "--out shot.npy", "device has");
}

TEST_F(CudaCli, OnlineRunsOnTheDevice) {
  const auto full = gradient("--strategy full");
  const auto online = gradient("--strategy online --snaps 5");
  ASSERT_FALSE(online.empty());
  EXPECT_EQ(online["backend"], "cuda");
  EXPECT_EQ(online["steps"], full["steps"]);
  EXPECT_GE(online["online_ratio"].get<double>(), 1.0);
  const double a = full["gradient_norm"], b = online["gradient_norm"];
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
}

// Multilevel over device memory (memory), pinned host memory (pinned) and files (disk), and
// --store disk, run on the device and give full's bits. (These were refused with --backend cuda
// before the device tiers were stores of their own.)
TEST_F(CudaCli, MultilevelOverDevicePinnedAndDiskTiersEqualsFull) {
  const auto full = gradient("--strategy full");
  const double jf = full["objective"], nf = full["gradient_norm"];
  const std::string tiers = "--strategy multilevel --tier memory:2:0.1:0.1 --tier pinned:2:0.5:0.5 --tier disk:3:2:2 ";
  for (const std::string& costs : {std::string("given"), std::string("measured")}) {
    const std::string args =
        costs == "given" ? tiers : "--strategy multilevel --tier memory:2 --tier pinned:2 --tier disk:3 ";
    const auto ml = gradient(args + "--checkpoint-dir .");
    ASSERT_FALSE(ml.empty()) << costs;
    EXPECT_EQ(ml["backend"], "cuda");
    EXPECT_EQ(ml["strategy"], "multilevel");
    EXPECT_EQ(ml["placement"]["device_slots"], 2) << costs;
    EXPECT_EQ(ml["placement"]["host_slots"], 2) << costs;
    ASSERT_EQ(ml["tiers"].size(), 3u) << ml.dump();
    EXPECT_EQ(ml["tiers"][1]["name"], "pinned");
    if (costs == "measured") {
      EXPECT_GT(ml["tiers"][2]["restore_cost"].get<double>(), 0.0) << ml["tiers"].dump();
    }
    EXPECT_GT(ml["predicted_time_steps"].get<double>(), 0.0);
    EXPECT_GT(ml["checkpoint_copy_bytes"].get<std::uint64_t>(), 0u);
    const double j = ml["objective"], n = ml["gradient_norm"];
    EXPECT_EQ(std::memcmp(&j, &jf, sizeof j), 0) << costs;
    EXPECT_EQ(std::memcmp(&n, &nf, sizeof n), 0) << costs;
  }
}

TEST_F(CudaCli, DiskStoreRunsOnTheDeviceAndEqualsFull) {
  const auto full = gradient("--strategy full");
  const double nf = full["gradient_norm"];
  for (const char* strategy : {"revolve", "online"}) {
    const auto disk = gradient(std::string("--strategy ") + strategy + " --store disk --snaps 4 --checkpoint-dir .");
    ASSERT_FALSE(disk.empty()) << strategy;
    EXPECT_EQ(disk["store"], "disk");
    EXPECT_EQ(disk["placement"]["device_slots"], 0);
    EXPECT_EQ(disk["placement"]["host_slots"], 0);
    EXPECT_NE(disk["placement"]["tiers"].get<std::string>().find("files in"), std::string::npos) << disk["placement"];
    // Every store writes a slot; every restore but those of the initial state reads one.
    const auto copied = disk["checkpoint_copy_bytes"].get<std::uint64_t>(),
               slot = disk["slot_bytes"].get<std::uint64_t>();
    EXPECT_GE(copied, disk["stores"].get<std::uint64_t>() * slot) << strategy;
    EXPECT_LE(copied, (disk["stores"].get<std::uint64_t>() + disk["restores"].get<std::uint64_t>()) * slot) << strategy;
    const double n = disk["gradient_norm"];
    EXPECT_EQ(std::memcmp(&n, &nf, sizeof n), 0) << strategy;
  }
}

// Pinned host memory is the CUDA backend's tier: the CPU backend says so in one line.
TEST_F(CudaCli, APinnedTierIsRefusedOnTheCpu) {
  expect_refused("gradient" + small + "--backend cpu --strategy multilevel --tier memory:2 --tier pinned:2 --out g.npy",
                 "'pinned' is pinned host memory, which only the CUDA backend has");
  expect_refused(
      "gradient" + small + "--strategy multilevel --tier tape:2 --out g.npy",
      "tier 'tape' is unknown on the CUDA backend: memory (device memory), pinned (pinned host memory) or disk");
}

// --compress zfp-... on the CUDA backend: device slots stay raw (a run whose slots all fit on the
// device encodes nothing and gives none's bits), the slots spilled to pinned host memory are
// ZFP-encoded on the host, and the JSON counts those encodes. (zfp modes were refused before.)
TEST_F(CudaCli, ZfpEncodesOnlyTheSlotsSpilledToPinnedHostMemory) {
  const auto none = gradient("--strategy revolve --snaps 6", shape);
  const auto device = gradient("--strategy revolve --snaps 6 --compress zfp-rate:16", shape);
  ASSERT_FALSE(device.empty());
  EXPECT_EQ(device["placement"]["host_slots"], 0);
  EXPECT_EQ(device["compression"]["mode"], "zfp-rate:16");
  EXPECT_EQ(device["compression"]["fields_compressed"], 0);
  EXPECT_EQ(device["slot_bytes"], none["slot_bytes"]);  // raw on the device
  const double na = none["gradient_norm"], nd = device["gradient_norm"];
  EXPECT_EQ(std::memcmp(&na, &nd, sizeof na), 0);

  const auto field = none["slot_bytes"].get<std::size_t>() / 2;
  const std::string spill =
      "--strategy revolve --snaps 30 --host-spacing 5 --device-memory " + std::to_string(10 * field);
  const auto raw = gradient(spill, shape);
  const auto zfp = gradient(spill + " --compress zfp-rate:16", shape);
  ASSERT_FALSE(zfp.empty());
  const std::int64_t host_slots = zfp["placement"]["host_slots"];
  EXPECT_GT(host_slots, 0);
  EXPECT_EQ(zfp["placement"]["host_slots"], raw["placement"]["host_slots"]);
  EXPECT_EQ(zfp["forward_steps"], raw["forward_steps"]);
  EXPECT_NE(zfp["placement"]["tiers"].get<std::string>().find("ZFP-encoded zfp-rate:16"), std::string::npos)
      << zfp["placement"];
  // The pinned checkpoints of the two levels are stored once each, and restored once each.
  EXPECT_EQ(zfp["compression"]["fields_compressed"].get<std::int64_t>(), 2 * host_slots);
  EXPECT_EQ(zfp["compression"]["fields_decompressed"].get<std::int64_t>(), 2 * host_slots);
  EXPECT_GT(zfp["compression"]["ratio"].get<double>(), 1.5);
  EXPECT_GT(zfp["compression"]["seconds_compress"].get<double>(), 0.0);
  // Near none's (the CPU tests' bound for zfp-rate:16 on the relative L2 error bounds the norm's change too).
  const double nz = zfp["gradient_norm"];
  EXPECT_NE(nz, na);
  EXPECT_NEAR(nz, na, 1.5e-3 * na);
}

// A device fault (here the emulated runtime's illegal address at a wait for the device) is one of
// revwave's errors: one line naming the CUDA error, the backend's exit code 5 (not 1, a failed
// check), and no output left behind.
TEST_F(CudaCli, ADeviceFaultExitsWithTheBackendCodeAndOneLine) {
  const Outcome r = invoke_with("REVWAVE_CUDASIM_FAULT_AT_SYNC=1", "gradient" + small + "--out g.npy");
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("cudaErrorIllegalAddress"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "g.npy"));
}

}  // namespace
}  // namespace revwave
