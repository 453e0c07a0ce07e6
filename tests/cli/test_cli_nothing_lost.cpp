// Nothing lost, nothing silent (#45): two outputs of one run that name one file, an output directory
// that cannot take the outputs, a boolean that is neither true nor false, a typo, a step count that a
// unit slip made huge: each is one line before the run and nothing written. A run killed while its
// stdout goes to a file keeps the lines it printed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/core/utf8_text.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;
using revwave::testing::Outcome;

class CliNothingLost : public revwave::testing::CliFixture {
 protected:
  static constexpr const char* small = " --shape 12,12,12 --tn 0.15 --threads 1 ";
  void write_cube(const std::string& name, double value) {
    const std::vector<double> v(12 * 12 * 12, value);
    revwave::write_npy((dir_ / name).string(), {12, 12, 12}, v.data());
  }
  std::vector<std::string> sorted_leftovers() const {
    std::vector<std::string> names = leftovers();
    std::sort(names.begin(), names.end());
    return names;
  }
  // Refused with exit `code`, one line naming every string of `mentions`, the directory as it was.
  void expect_refused_as(const std::string& args, int code, const std::vector<std::string>& mentions) {
    const std::vector<std::string> before = sorted_leftovers();
    const Outcome r = invoke(args);
    EXPECT_EQ(r.code, code) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    for (const std::string& m : mentions) EXPECT_NE(r.err.find(m), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(sorted_leftovers(), before) << args;
  }
};

TEST_F(CliNothingLost, TwoOutputsThatNameOneFileAreRefusedBeforeAnythingIsWritten) {
  write_cube("rho.npy", 2000.0);
  write_cube("m.npy", 2000.0);
  const std::string rho = "gradient" + std::string(small) + "--density rho.npy ";
  // dJ/drho and dJ/dm into one file: one of them would be lost.
  expect_refused_as(rho + "--density-gradient g.npy --out g.npy", 2,
                    {"--density-gradient g.npy and --out g.npy are the same file"});
  expect_refused_as(rho + "--density-gradient ./g.npy --out g.npy", 2, {"--density-gradient ./g.npy", "--out g.npy"});
  // The estimated wavelet is written next to --out as g.wavelet.npy.
  expect_refused_as(rho + "--estimate-wavelet --density-gradient g.wavelet.npy --out g.npy", 2,
                    {"the wavelet written next to --out g.wavelet.npy", "--density-gradient g.wavelet.npy"});
  // An output of a survey forward run that names an input (one shot: one record).
  expect_refused_as("forward --model m.npy --tn 0.1 --src-grid 1,1,20 --out m.npy", 2,
                    {"--out m.npy would overwrite --model m.npy"});
  // A run whose outputs differ goes ahead.
  const Outcome ok = invoke(rho + "--density-gradient rho_g.npy --out g.npy");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(dir_ / "rho_g.npy") && fs::exists(dir_ / "g.npy"));
}

// What a hostile round found (#45): an empty output name was taken for none (or made ".npy"), a
// team from the environment past what the runtime can start crashed without a word, and a step
// derived from an absurd spacing was refused in the words of dt, which the user never gave.
TEST_F(CliNothingLost, EmptyNamesHugeEnvironmentTeamsAndAbsurdSpacingsAreRefusedInTheirOwnWords) {
  write_cube("rho.npy", 2000.0);
  const std::string f = "forward" + std::string(small);
  expect_refused_as(f + "--out ''", 2, {"--out", "an empty name"});
  expect_refused_as("gradient" + std::string(small) + "--out g.npy --png ''", 2, {"--png", "an empty name"});
  // A directory as the pictures' prefix wrote /_shot.png: refused, naming the prefix.
  for (const char* dir : {"/", "pics/", ".", "pics/.."})
    expect_refused_as("gradient" + std::string(small) + "--out g.npy --png " + dir, 2,
                      {"--png", "'" + std::string(dir) + "' names a directory"});
  expect_refused_as("gradient" + std::string(small) + "--density rho.npy --density-gradient '' --out g.npy", 2,
                    {"--density-gradient", "an empty name"});
  expect_refused_as(f + "--spacing 1e-300 --out s.npy", 2, {"--spacing 1e-300 m", "fastest velocity"});
  const std::vector<std::string> before = sorted_leftovers();
  // (without --threads, which would stand instead)
  const Outcome team = invoke_with("OMP_NUM_THREADS=1000000000", "forward --shape 12,12,12 --tn 0.15 --out t.npy");
  EXPECT_EQ(team.code, 2) << team.err;
  EXPECT_NE(team.err.find("OMP_NUM_THREADS 1000000000 is more threads than"), std::string::npos) << team.err;
  EXPECT_EQ(sorted_leftovers(), before);
  // A name without an ending gets .npy, as the sentence for a wrong ending says.
  const Outcome dg = invoke("gradient" + std::string(small) + "--density rho.npy --density-gradient dg --out g.npy");
  ASSERT_EQ(dg.code, 0) << dg.err;
  EXPECT_TRUE(fs::exists(dir_ / "dg.npy"));
}

// A sidecar's dt a million times finer than the stable step (ns for s) was refused in the words of
// the velocity (m / dt^2 out of float's range): now in those of the record's sample interval.
TEST_F(CliNothingLost, ARecordsAbsurdSampleIntervalIsRefusedInItsOwnWords) {
  ASSERT_EQ(invoke("forward" + std::string(small) + "--out obs.npy").code, 0);
  std::ifstream in(dir_ / "obs.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("\"dt\":");
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t end = text.find_first_of(",}", at);
  text.replace(at, end - at, "\"dt\": 1e-30");
  std::ofstream(dir_ / "obs.json", std::ios::trunc) << text;
  expect_refused_as("gradient --shape 12,12,12 --threads 1 --observed obs.npy --out g.npy", 2,
                    {"obs.npy: dt 1e-30 s is", "times finer than the largest stable step", "units"});
}

TEST_F(CliNothingLost, AnOutputDirectoryThatCannotTakeTheOutputsIsRefusedBeforeTheRun) {
  expect_refused_as("gradient" + std::string(small) + "--out missing/g.npy", 3,
                    {"--out missing/g.npy: its directory missing does not exist"});
  expect_refused_as("forward" + std::string(small) + "--out missing/shot.npy", 3,
                    {"its directory missing does not exist"});
  expect_refused_as("forward" + std::string(small) + "--src-grid 2,1,20 --out missing/shots.sgy", 3,
                    {"its directory missing does not exist"});
  expect_refused_as("gradient" + std::string(small) + "--out g.npy --png missing/pic", 3,
                    {"--png missing/pic_gradient_xz.png: its directory missing does not exist"});
}

TEST_F(CliNothingLost, AReadOnlyOutputDirectoryIsRefusedBeforeTheRun) {
  // As root every directory takes files: root runs the binary as nobody (setpriv), the shell that
  // redirects its output staying root.
  std::string as_user;
  if (::geteuid() == 0) {
    if (!fs::exists("/usr/bin/setpriv"))
      GTEST_SKIP() << "root without setpriv: no user for whom a directory is read-only";
    as_user = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups";
  }
  fs::create_directory(dir_ / "ro");
  fs::permissions(dir_ / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                   fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const Outcome r = invoke_with(as_user, "gradient" + std::string(small) + "--out ro/g.npy");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("--out ro/g.npy: its directory ro takes no new file"), std::string::npos) << r.err;
  // invert's run directory (made with its parents): before the observed data are modelled.
  const Outcome inv = invoke_with(as_user, "invert --vmin 1500 --vmax 2600 --out-dir ro/inv/run");
  EXPECT_EQ(inv.code, 3) << inv.err;
  EXPECT_EQ(std::count(inv.err.begin(), inv.err.end(), '\n'), 1) << inv.err;
  EXPECT_NE(inv.err.find("--out-dir ro/inv/run: "), std::string::npos) << inv.err;
  EXPECT_NE(inv.err.find("/ro takes no new file"), std::string::npos) << inv.err;
  EXPECT_TRUE(fs::is_empty(dir_ / "ro"));
  fs::permissions(dir_ / "ro", fs::perms::owner_all);
}

TEST_F(CliNothingLost, ABooleanThatIsNeitherTrueNorFalseIsRefused) {
  const std::string fwd = "forward" + std::string(small);
  expect_refused_as(fwd + "--free-surface=0.5", 2, {"--free-surface '0.5' is invalid", "true or false"});
  expect_refused_as(fwd + "--free-surface=1.5", 2, {"'1.5'"});
  for (const char* value : {"0.5", "1.5", "2"}) {
    std::ofstream(dir_ / "c.toml") << "[forward]\nfree-surface = " << value << "\n";
    const Outcome r = invoke(fwd + "--config c.toml --out s.npy");
    fs::remove(dir_ / "c.toml");
    EXPECT_EQ(r.code, 2) << value << "\n" << r.err;
    EXPECT_NE(r.err.find("--free-surface '" + std::string(value) + "' is invalid"), std::string::npos) << r.err;
    EXPECT_TRUE(leftovers().empty());
  }
  // What is a boolean still reads as one.
  std::ofstream(dir_ / "c.toml") << "[forward]\nfree-surface = true\n";
  const Outcome on = invoke(fwd + "--config c.toml --out s.npy --json");
  ASSERT_EQ(on.code, 0) << on.err;
  EXPECT_NE(on.out.find("\"free_surface\": true"), std::string::npos) << on.out;
  EXPECT_EQ(invoke(fwd + "--free-surface=false --out s.npy").code, 0);
}

TEST_F(CliNothingLost, ATypoGetsTheNameItWasMeantToBe) {
  expect_refused_as("gradiant", 2, {"'gradiant'", "did you mean 'gradient'"});
  expect_refused_as("gradient --snpas 4", 2, {"--snpas", "did you mean --snaps"});
  expect_refused_as("forward --free-surfce", 2, {"did you mean --free-surface"});
  std::ofstream(dir_ / "c.toml") << "[gradient]\nsnpas = 4\n";
  const Outcome key = invoke("gradient --config c.toml");
  fs::remove(dir_ / "c.toml");
  EXPECT_EQ(key.code, 2) << key.err;
  EXPECT_NE(key.err.find("key 'gradient.snpas' names no option (did you mean 'gradient.snaps'?)"), std::string::npos)
      << key.err;
  // Nothing close: the names to choose from.
  expect_refused_as("xyzzy", 2, {"'xyzzy'", "forward, gradient"});
}

// A third held-out round (#45, 222 cases, 18 did not hold): what did not hold, each now one line
// naming its own value, or the right count.
TEST_F(CliNothingLost, AThirdHeldOutRoundIsRefusedInItsOwnWords) {
  // Tier costs whose totals overflow crashed the planner (a segfault); a tier of 1e12 slots that
  // the steps never use ran out of memory counting them.
  expect_refused_as("schedule --steps 100 --strategy multilevel --tier memory:2:1e308:1e308", 2,
                    {"tier 'memory' store cost 1e+308 must be finite, >= 0 and at most 1e+15 forward steps"});
  const Outcome wide =
      invoke("schedule --steps 100 --strategy multilevel --tier memory:2:0:0 --tier disk:1000000000000:0:0");
  EXPECT_EQ(wide.code, 0) << wide.err;
  // plan predicted 0 forward steps for multilevel; it predicts what the gradient takes (at least,
  // where the tiers' costs are measured when the run starts).
  const std::string ml = std::string(small) + "--strategy multilevel --tier memory:2 ";
  const Outcome p = invoke("plan" + ml + "--json");
  ASSERT_EQ(p.code, 0) << p.err;
  const Outcome g = invoke("gradient" + ml + "--out g.npy --json");
  ASSERT_EQ(g.code, 0) << g.err;
  const auto forward_steps = [](const std::string& json) {
    const std::size_t at = json.find("\"forward_steps\": ");
    return at == std::string::npos ? -1L : std::atol(json.c_str() + at + 17);
  };
  EXPECT_GT(forward_steps(p.out), 0) << p.out;
  EXPECT_EQ(forward_steps(p.out), forward_steps(g.out)) << p.out << "\n" << g.out;
  EXPECT_NE(p.out.find("\"forward_steps_bound\": \"at least: the tiers' costs are measured"), std::string::npos);
  for (const char* f : {"g.npy", "g.config.toml"}) fs::remove(dir_ / f);
  // A newline in an output's name split the configuration's "repeat with" line: the file did not replay.
  expect_refused_as("forward" + std::string(small) + "--out \"$(printf 'new\\nline.npy')\"", 2,
                    {"a control character (byte 0x0a) in an output's name"});
  // A run directory whose configuration was deleted ran as the options alone described.
  ASSERT_EQ(invoke("invert" + std::string(small) + "--iterations 1 --vmin 1400 --vmax 2600 --out-dir inv").code, 0);
  fs::remove(dir_ / "inv" / "invert.config.toml");
  const Outcome resumed = invoke("invert --resume inv --iterations 2");
  EXPECT_EQ(resumed.code, 3) << resumed.err;
  EXPECT_NE(resumed.err.find("invert.config.toml: the config file does not exist"), std::string::npos) << resumed.err;
  fs::remove_all(dir_ / "inv");
  // A choice's error quotes the value: an empty one, or one with a space, is seen as given.
  expect_refused_as("forward" + std::string(small) + "--boundary ''", 2, {"--boundary: '' is not one of sponge, cpml"});
  std::ofstream(dir_ / "c.toml") << "[forward]\nbackend = \"cpu \"\n";
  expect_refused_as("forward --config c.toml", 2, {"--backend: 'cpu ' is not one of auto, cpu, cuda"});
  fs::remove(dir_ / "c.toml");
}

// What the third round left, now held: an integer key given a TOML float ran as the integer the
// command line refuses; a velocity in the wrong unit was blamed on the step count.
TEST_F(CliNothingLost, AFloatForAnIntegerKeyAndAnAbsurdVelocityAreNamed) {
  for (const char* value : {"5.0", "1e1", "[10.5]"}) {
    std::ofstream(dir_ / "c.toml", std::ios::trunc) << "[forward]\nnbl = " << value << "\n";
    expect_refused_as("forward" + std::string(small) + "--config c.toml --out s.npy", 3,
                      {"config key 'forward.nbl': the float", "--nbl takes an integer"});
  }
  std::ofstream(dir_ / "c.toml", std::ios::trunc) << "[forward]\nnbl = 5\nf0 = 12\n";  // a float key takes 12
  EXPECT_EQ(invoke("forward" + std::string(small) + "--config c.toml --out s.npy").code, 0);
  for (const char* f : {"c.toml", "s.npy", "s.json", "s.config.toml"}) fs::remove(dir_ / f);
  std::vector<double> v(12 * 12 * 12, 2000.0);
  v[100] = 1e30;
  revwave::write_npy((dir_ / "m.npy").string(), {12, 12, 12}, v.data());
  expect_refused_as("forward --model m.npy --spacing 10 --tn 0.15 --threads 1 --out s.npy", 2,
                    {"the fastest velocity 1e+30 m/s", "is a velocity in the wrong unit?"});
  fs::remove(dir_ / "m.npy");
}

// A fourth held-out round (#45, 407 cases, 29 did not hold): what did not hold, each now one line
// naming its own value, and nothing written.
TEST_F(CliNothingLost, AFourthHeldOutRoundIsRefusedInItsOwnWords) {
  const std::string f = "forward" + std::string(small);
  write_cube("m.npy", 2000);
  std::vector<double> ricker(99, 0.0);  // nt of `small`
  ricker[10] = 1.0;
  revwave::write_npy((dir_ / "w.npy").string(), {99}, ricker.data());
  ASSERT_EQ(invoke(f + "--src-grid 2,1,20 --wavelet w.npy --out s.sgy").code, 0);
  ASSERT_EQ(invoke(f + "--out obs.npy").code, 0);
  const std::string g = "gradient --model m.npy --threads 1 ";
  // The survey's --wavelet was no input of the gradient's: --out overwrote it.
  expect_refused_as(g + "--observed s.sgy --wavelet w.npy --out w.npy", 2,
                    {"--out w.npy would overwrite --wavelet w.npy"});
  // Options the run would ignore were taken in silence.
  expect_refused_as(g + "--observed obs.npy --segy-endian little --out g.npy", 2,
                    {"--segy-endian applies to SEG-Y --observed files"});
  expect_refused_as(g + "--segy-units feet --out g.npy", 2, {"--segy-units applies", "no --observed is given"});
  expect_refused_as(g + "--observed obs.npy --origin 1000,0,0 --out g.npy", 2, {"--origin 1000,0,0 gives the file"});
  expect_refused_as(g + "--observed obs.npy --spread moving --out g.npy", 2, {"--spread moving lays out a modelled"});
  // -1 was the options' "not given": every shot ran on the whole model.
  expect_refused_as(g + "--observed s.sgy --wavelet w.npy --aperture -1 --out g.npy", 2,
                    {"--aperture -1 m is invalid"});
  // A delay 1.5/f0 that is no number was written as J = 0 (gradient) or refused at the sidecar (forward).
  expect_refused_as(f + "--f0 1e-320 --out s.npy", 2, {"--f0 1e-320 Hz is invalid", "delay 1.5 / f0"});
  expect_refused_as("gradient" + std::string(small) + "--f0 1e-320 --out g.npy", 2, {"--f0 1e-320 Hz"});
  // A last empty field of a tier was dropped; a switch given as true and false took the last.
  expect_refused_as("gradient" + std::string(small) + "--strategy multilevel --tier memory:2: --out g.npy", 2,
                    {"--tier 'memory:2:' is invalid"});
  expect_refused_as(f + "--free-surface --free-surface=false --out s.npy", 2,
                    {"--free-surface is given twice, as true and as false"});
  EXPECT_EQ(invoke(f + "--src 55,55,20 --free-surface --free-surface --out twice.npy").code, 0);  // one value
  // A bad value of the true model did not say which model it was in.
  std::vector<double> v(12 * 12 * 12, 2000.0);
  v[3 * 144 + 3 * 12 + 3] = std::numeric_limits<double>::infinity();
  revwave::write_npy((dir_ / "bad.npy").string(), {12, 12, 12}, v.data());
  expect_refused_as(
      "invert --model m.npy --true-model bad.npy --tn 0.15 --threads 1 --vmin 1500 --vmax 2500 "
      "--out-dir inv",
      2, {"--true-model bad.npy: velocity inf m/s at (3, 3, 3)"});
  // A refusal after the "--f0 is not used" warning printed two lines: a refused run says only why.
  expect_refused_as(f + "--src-grid 1,1,20 --wavelet w.npy --f0 12 --out missing/s.sgy", 3,
                    {"--out missing/s.sgy: its directory missing does not exist"});
  // A huge --origin moved SEG-Y positions to a coarser step in silence.
  const Outcome far = invoke(f + "--src-grid 2,1,20 --rec-grid 4,4,10 --origin 5e9,0,0 --out far.sgy");
  EXPECT_EQ(far.code, 0) << far.err;
  EXPECT_NE(far.err.find("points move by up to 5 m"), std::string::npos) << far.err;
}

// A fifth held-out round (#45, 284 cases, 8 did not hold): each now one line, nothing written.
TEST_F(CliNothingLost, AFifthHeldOutRoundIsRefusedInItsOwnWords) {
  const std::string f = "forward" + std::string(small);
  // "--free-surface=" was read as true (CLI11 turns an empty value into the bare switch); "" in a file too.
  expect_refused_as(f + "--free-surface= --out s.npy", 2, {"--free-surface '' is invalid: it must be true or false"});
  std::ofstream(dir_ / "c.toml") << "[forward]\nfree-surface = \"\"\n";
  expect_refused_as(f + "--config c.toml --out s.npy", 3, {"config key 'forward.free-surface': an empty string"});
  fs::remove(dir_ / "c.toml");
  // "new.sgy/" wrote a SEG-Y file (over an existing one too): a directory or a file?
  expect_refused_as(f + "--src-grid 2,1,20 --out new.sgy/", 2,
                    {"--out new.sgy/: a name ending in / is a new directory"});
  // A sidecar that is a directory gave the C++ library's words and exit 1; a FIFO blocked forever.
  ASSERT_EQ(invoke(f + "--out obs.npy").code, 0);
  fs::remove(dir_ / "obs.json");
  fs::create_directory(dir_ / "obs.json");
  write_cube("m.npy", 2000);
  expect_refused_as("gradient --model m.npy --threads 1 --observed obs.npy --out g.npy", 3,
                    {"the sidecar obs.json: is a directory, not a file"});
  ASSERT_EQ(::mkfifo((dir_ / "ff").c_str(), 0600), 0);
  expect_refused_as("forward --model ff --tn 0.15 --threads 1 --out s.npy", 3, {"ff: is a FIFO (a pipe), not a file"});
  // --spread moving beside one --src was left out of the gradient (the one-shot path had no spread).
  const std::string g = "gradient" + std::string(small) + "--src 30,30,20 ";
  ASSERT_EQ(invoke(g + "--spread moving --out a.npy").code, 0);
  ASSERT_EQ(invoke(g + "--out b.npy").code, 0);
  const auto bytes = [this](const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_NE(bytes("a.npy"), bytes("b.npy"));  // the receivers moved with the source
}

// A written configuration named its inputs as given: replayed from another directory it read the
// files of the same name there (a different model, J and gradient), exit 0.
TEST_F(CliNothingLost, AConfigurationReplaysFromAnyDirectory) {
  fs::create_directories(dir_ / "sub");
  write_cube("sub/m.npy", 2000);
  write_cube("sub/t.npy", 2100);
  const std::string run = "gradient --model m.npy --true-model t.npy --tn 0.15 --threads 1 --shape 12,12,12 ";
  ASSERT_EQ(invoke_with("cd sub &&", run + "--out g.npy").code, 0);
  write_cube("m.npy", 1800);  // other files of the same names where the replay runs
  write_cube("t.npy", 2300);
  const Outcome again = invoke("gradient --config sub/g.config.toml --out h.npy");
  ASSERT_EQ(again.code, 0) << again.err;
  const auto bytes = [this](const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(bytes("h.npy"), bytes("sub/g.npy"));
  // Moved away, the inputs are refused by name rather than replaced by others.
  fs::rename(dir_ / "sub", dir_ / "moved");
  const Outcome moved = invoke("gradient --config moved/g.config.toml --out k.npy");
  EXPECT_NE(moved.code, 0);
  EXPECT_NE(moved.err.find("sub/m.npy"), std::string::npos) << moved.err;
}

// A run whose outputs cannot all be replaced changes none of them: an immutable configuration beside
// a gradient that existed (its .npy was overwritten, then the run failed), an immutable sidecar
// beside a record that did not (a new record was left with another run's sidecar).
TEST_F(CliNothingLost, AnOutputThatCannotBeReplacedLeavesEveryOutputAsItWas) {
  ASSERT_EQ(invoke("gradient" + std::string(small) + "--out g.npy").code, 0);
  if (std::system(("chattr +i " + (dir_ / "g.config.toml").string() + " 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "chattr +i is not available here (not root, or the file system has no such flag)";
  const auto bytes = [this](const char* name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string before = bytes("g.npy");
  const Outcome g = invoke("gradient" + std::string(small) + "--velocity 1900 --out g.npy");
  std::system(("chattr -i " + (dir_ / "g.config.toml").string()).c_str());
  EXPECT_EQ(g.code, 3) << g.err;
  EXPECT_NE(g.err.find("g.config.toml: cannot replace the file"), std::string::npos) << g.err;
  EXPECT_EQ(bytes("g.npy"), before);
  EXPECT_EQ(sorted_leftovers(), (std::vector<std::string>{"g.config.toml", "g.npy"}));
  for (const char* f : {"g.npy", "g.config.toml"}) fs::remove(dir_ / f);

  std::ofstream(dir_ / "s.json") << "{}";
  ASSERT_EQ(std::system(("chattr +i " + (dir_ / "s.json").string()).c_str()), 0);
  const Outcome f = invoke("forward" + std::string(small) + "--out s.npy");
  std::system(("chattr -i " + (dir_ / "s.json").string()).c_str());
  EXPECT_EQ(f.code, 3) << f.err;
  EXPECT_NE(f.err.find("s.json: cannot replace the file"), std::string::npos) << f.err;
  EXPECT_EQ(sorted_leftovers(), (std::vector<std::string>{"s.json"}));
  fs::remove(dir_ / "s.json");
}

// An output whose name is an existing directory is refused before anything runs (it was refused only
// when the finished run came to write it), the configuration's and the sidecar's too.
TEST_F(CliNothingLost, AnOutputThatNamesADirectoryIsRefusedBeforeTheRun) {
  fs::create_directory(dir_ / "g.npy");
  expect_refused_as("gradient" + std::string(small) + "--out g.npy", 3,
                    {"--out g.npy: a directory of that name exists", "checked before the run"});
  fs::remove(dir_ / "g.npy");
  fs::create_directory(dir_ / "s.json");
  expect_refused_as("forward" + std::string(small) + "--out s.npy", 3,
                    {"the sidecar of --out s.json: a directory of that name exists"});
  fs::remove(dir_ / "s.json");
  // A survey's directory of records is a directory by design: an existing one is refused as such.
  fs::create_directory(dir_ / "recs");
  expect_refused_as("forward" + std::string(small) + "--src-grid 2,1,20 --out recs", 2,
                    {"--out recs exists: a survey of records goes into a new directory"});
  fs::remove(dir_ / "recs");
}

// A path longer than the system takes gets the system's reason, not "does not exist" (no directory
// need exist: stat(2) refuses the name before it looks).
TEST_F(CliNothingLost, AnOutputPathTooLongGetsTheSystemsReason) {
  std::string deep;
  for (int i = 0; i < 25; ++i) deep += std::string(200, 'd') + "/";  // 5025 bytes, past PATH_MAX (4096)
  expect_refused_as("gradient" + std::string(small) + "--out " + deep + "g.npy", 3,
                    {"its directory", "cannot be reached (File name too long)"});
}

// --snaps far past the step count is held to the slots the steps use, and the report says so.
TEST_F(CliNothingLost, SnapsPastTheStepCountReportTheSlotsUsed) {
  const Outcome r = invoke("gradient" + std::string(small) + "--snaps 1000000000 --out g.npy");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("revolve: 1000000000 slots of ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_NE(line.find(" used: 98 steps need no more)"), std::string::npos) << line;
  const Outcome few = invoke("gradient" + std::string(small) + "--snaps 4 --out h.npy");
  EXPECT_EQ(few.out.find(" used: "), std::string::npos) << few.out;
}

// An array for an option that takes one value names the key and the rule (CLI11 alone said "--shape:
// At Most 1 required but received 3"); an array for a repeatable option is its values.
TEST_F(CliNothingLost, AnArrayForAOneValueKeyIsRefusedNamingTheKey) {
  std::ofstream(dir_ / "c.toml") << "[gradient]\nshape = [12, 12, 12]\n";
  expect_refused_as("gradient --config c.toml", 3,
                    {"config key 'gradient.shape': an array of 3 values, but --shape takes one value"});
  std::ofstream(dir_ / "c.toml", std::ios::trunc) << "[forward]\nnbl = [10, 20]\n";
  expect_refused_as("forward --config c.toml", 3, {"config key 'forward.nbl': an array of 2 values"});
  std::ofstream(dir_ / "c.toml", std::ios::trunc) << "[forward]\nshape = [\"12,12,12\"]\ntn = 0.15\nthreads = 1\n";
  EXPECT_EQ(invoke("forward --config c.toml --out s.npy").code, 0);  // one value in an array is that value
  for (const char* f : {"c.toml", "s.npy", "s.json", "s.config.toml"}) fs::remove(dir_ / f);
  // Two records in an array for the repeatable --observed: both read, nothing refused.
  ASSERT_EQ(invoke("forward" + std::string(small) + "--out rec.npy").code, 0);
  ASSERT_EQ(invoke("forward" + std::string(small) + "--src 40,40,30 --out rec2.npy").code, 0);
  std::ofstream(dir_ / "c.toml") << "[gradient]\nobserved = [\"rec.npy\", \"rec2.npy\"]\nshape = \"12,12,12\"\n"
                                 << "threads = 1\nvelocity = 2000\n";
  const Outcome two = invoke("gradient --config c.toml --out g.npy --json");
  EXPECT_EQ(two.code, 0) << two.err;
  EXPECT_NE(two.out.find("rec2.npy"), std::string::npos) << two.out;
}

// A second held-out round (#45, 268 cases): what did not hold, each now one line naming its own value
// and nothing written.
TEST_F(CliNothingLost, ASecondHeldOutRoundIsRefusedInItsOwnWords) {
  const std::string f = "forward" + std::string(small);
  // --spacing 1e308 made the model's velocities NaN, 1e20 was refused in the words of the velocity.
  expect_refused_as(f + "--spacing 1e308 --out s.npy", 2, {"spacing 1e+308 m", "extent"});
  expect_refused_as(f + "--spacing 1e20 --out s.npy", 2, {"spacing 1e+20 m is out of range for float"});
  // --resume DIR without an inversion there was refused as "--vmin and --vmax are required".
  expect_refused_as("invert --resume nodir", 2, {"--resume nodir: no inversion state there"});
  // A silent signature wrote an all-zero survey; --f0 beside --wavelet and --origin beside a .npy
  // record were ignored and written into the configuration as if used.
  revwave::write_npy((dir_ / "w.npy").string(), {99}, std::vector<double>(99, 0.0).data());  // nt of `small`
  expect_refused_as(f + "--src-grid 2,1,20 --wavelet w.npy --out s.sgy", 2,
                    {"w.npy", "every one of its 99 samples is zero"});
  std::vector<double> ricker(99, 0.0);
  ricker[10] = 1.0;
  revwave::write_npy((dir_ / "w.npy").string(), {99}, ricker.data());
  // --f0 beside --wavelet: a warning (configurations before 0.3 hold --f0's default beside it); a run
  // without --f0 leaves its default out of the configuration it writes.
  const Outcome both = invoke(f + "--src-grid 2,1,20 --wavelet w.npy --f0 30 --out s.sgy");
  ASSERT_EQ(both.code, 0) << both.err;
  EXPECT_NE(both.err.find("revwave: warning: --f0 30 is not used: --wavelet w.npy is the source signature"),
            std::string::npos)
      << both.err;
  for (const char* out : {"s.sgy", "s.config.toml"}) fs::remove(dir_ / out);
  ASSERT_EQ(invoke(f + "--src-grid 2,1,20 --wavelet w.npy --out s.sgy").code, 0);
  std::ifstream written(dir_ / "s.config.toml");
  const std::string config((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  EXPECT_EQ(config.find("f0"), std::string::npos) << config;
  const Outcome replay = invoke("forward --config s.config.toml --out t.sgy");
  EXPECT_EQ(replay.code, 0) << replay.err;
  EXPECT_EQ(replay.err.find("--f0"), std::string::npos) << replay.err;
  for (const char* out : {"s.sgy", "s.config.toml", "t.sgy", "t.config.toml"}) fs::remove(dir_ / out);
  expect_refused_as(f + "--origin 1000,0,0 --out o.npy", 2, {"--origin 1000,0,0 applies to SEG-Y output"});
  // --config naming a directory: a raw C++ exception with exit 1.
  fs::create_directory(dir_ / "c.toml");
  expect_refused_as("gradient --config c.toml", 3, {"c.toml: is a directory, not a config file"});
  fs::remove(dir_ / "c.toml");
  fs::remove(dir_ / "w.npy");
}

// The same round: a record given twice counted twice in J and g; dead data under the correlation
// misfit gave J = 0 and g = 0 as a success; a sidecar with a key given twice ran at the last one.
TEST_F(CliNothingLost, ARecordTwiceDeadDataAndARepeatedKeyAreRefused) {
  ASSERT_EQ(invoke("forward" + std::string(small) + "--out rec.npy").code, 0);
  const std::string g = "gradient --shape 12,12,12 --threads 1 --velocity 2000 ";
  expect_refused_as(g + "--observed rec.npy ./rec.npy --out g.npy", 2,
                    {"--observed rec.npy and ./rec.npy read one file", "give it once"});
  const revwave::NpyArray rec = revwave::read_npy((dir_ / "rec.npy").string());
  ASSERT_TRUE(rec.is_float32);
  const std::vector<float> zeros(rec.data.size(), 0.0f);
  revwave::write_npy((dir_ / "dead.npy").string(), rec.shape, zeros.data());
  fs::copy_file(dir_ / "rec.json", dir_ / "dead.json");
  fs::copy_file(dir_ / "dead.npy", dir_ / "dead2.npy");
  fs::copy_file(dir_ / "rec.json", dir_ / "dead2.json");
  expect_refused_as(g + "--observed dead.npy --misfit correlation --out g.npy", 2,
                    {"dead.npy: every observed sample is zero, and --misfit correlation"});
  expect_refused_as(g + "--observed dead.npy dead2.npy --misfit correlation --out g.npy", 2,
                    {"every observed sample is zero, and --misfit correlation"});
  // One dead record among live ones adds nothing, as a dead trace does: it runs.
  EXPECT_EQ(invoke(g + "--observed dead.npy rec.npy --misfit correlation --out g.npy").code, 0);
  fs::remove(dir_ / "g.npy");
  fs::remove(dir_ / "g.config.toml");
  std::ifstream in(dir_ / "rec.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.insert(text.find('{') + 1, "\"dt\": 0.0009, ");
  std::ofstream(dir_ / "rec.json", std::ios::trunc) << text;
  expect_refused_as(g + "--observed rec.npy --out g.npy", 3, {"rec.json: key 'dt' is given twice"});
}

TEST_F(CliNothingLost, AStepCountThatAUnitSlipMadeHugeIsRefusedUnlessYes) {
  // ms typed as s, km typed as m: hundreds of thousands of steps.
  expect_refused_as("forward --shape 12,12,12 --tn 500", 2,
                    {"--tn 500 s", "more than the 100000", "milliseconds typed as seconds", "--yes"});
  expect_refused_as("forward --shape 12,12,12 --tn 0.5 --spacing 0.01", 2, {"--spacing 0.01 m", "kilometres", "--yes"});
  // Just over the limit on a tiny grid: refused, then run with --yes.
  const std::string over =
      "forward --shape 6,6,6 --nbl 2 --boundary sponge --threads 1 --rec 20,20,20 --dt 0.0001 "
      "--tn 10.0105 --out s.npy ";
  expect_refused_as(over, 2, {"100105 time steps", "--dt 1e-04 s"});
  const Outcome yes = invoke(over + "--yes");
  EXPECT_EQ(yes.code, 0) << yes.err;
}

TEST_F(CliNothingLost, AKilledRunKeepsTheLinesItPrintedToAFile) {
  const std::vector<double> v(10 * 10 * 8, 2000.0);
  revwave::write_npy((dir_ / "start.npy").string(), {10, 10, 8}, v.data());
  std::vector<double> t = v;
  t[t.size() / 2] = 2300.0;
  revwave::write_npy((dir_ / "true.npy").string(), {10, 10, 8}, t.data());
  // SIGKILL right after iteration 2 (cmd_invert.cpp): iteration 1's line was printed before.
  const Outcome r = invoke_with("REVWAVE_INVERT_KILL_AFTER=2",
                                "invert --model start.npy --true-model true.npy --spacing 10 --space-order 4 --nbl 4 "
                                "--boundary sponge --tn 0.2 --f0 20 --src 45,45,10 --rec-grid 4,4,10 --threads 1 "
                                "--strategy full --vmin 1500 --vmax 2600 --iterations 5 --out-dir inv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("  iteration 1: J = "), std::string::npos) << "stdout: " << r.out << "\nstderr: " << r.err;
}

// A sixth held-out round (#45, 615 cases, 12 did not hold): each now one line, nothing written.
TEST_F(CliNothingLost, ASixthHeldOutRoundIsRefusedInItsOwnWords) {
  write_cube("m.npy", 2000);
  write_cube("t.npy", 2100);
  // --src beside --src-grid: the survey laid out --src-grid's shots and dropped --src's, exit 0.
  const std::string f =
      "forward --model t.npy --tn 0.1 --threads 1 --rec-grid 2,2,10 --src-grid 2,1,20 --src 55,55,20 ";
  expect_refused_as(f + "--out sv", 2, {"--src-grid 2,1,20 and --src both place the survey's sources: give one"});
  expect_refused_as(f + "--out sv.sgy", 2, {"--src-grid 2,1,20 and --src"});
  expect_refused_as(
      "gradient --model m.npy --true-model t.npy --tn 0.1 --threads 1 --rec-grid 2,2,10 "
      "--src-grid 2,1,20 --src 55,55,20 --out g.npy",
      2, {"--src-grid 2,1,20 and --src"});
  // --bands '' ran one band of the data as they are.
  ASSERT_EQ(invoke("forward --model t.npy --tn 0.15 --threads 1 --out obs.npy").code, 0);
  expect_refused_as(
      "invert --model m.npy --threads 1 --observed obs.npy --vmin 1500 --vmax 2400 --iterations 1 "
      "--bands '' --out-dir d",
      2, {"--bands '' is invalid: F1,F2,... cut-offs in Hz"});
  // --resume '' began a new inversion.
  expect_refused_as(
      "invert --model m.npy --threads 1 --observed obs.npy --vmin 1500 --vmax 2400 --iterations 1 "
      "--resume '' --out-dir d",
      2, {"--resume '' is invalid: give the directory of the inversion to continue"});
  // A number or a boolean for a file in a config file named a file "5" or "true".
  const std::string g = "gradient --model m.npy --threads 1 --observed obs.npy ";
  for (const char* line : {"out = true", "out = 5", "png = 1"}) {
    std::ofstream(dir_ / "c.toml") << "[gradient]\n" << line << "\n";
    const std::string key = std::string(line).substr(0, std::string(line).find(' '));
    expect_refused_as(g + "--config c.toml" + (key == "png" ? " --out g.npy" : ""), 3,
                      {"config key 'gradient." + key + "': a ", " where --" + key + " takes a path"});
    fs::remove(dir_ / "c.toml");
  }
  // ... and the file a run writes names a file called 7 as a string, which replays.
  ASSERT_EQ(invoke(g + "--out 7").code, 0);
  EXPECT_NE(slurp((dir_ / "7.config.toml").string()).find("out = \"7\""), std::string::npos)
      << slurp((dir_ / "7.config.toml").string());
  ASSERT_EQ(invoke("gradient --config 7.config.toml --out 8").code, 0);
  // A sidecar of bytes that are not UTF-8: the parser's words quoted the byte raw.
  fs::copy_file(dir_ / "obs.npy", dir_ / "o2.npy");
  fs::copy_file(dir_ / "obs.npy", dir_ / "o2.json");
  const Outcome raw = invoke(g.substr(0, g.find("--observed")) + "--observed o2.npy --out h.npy");
  EXPECT_EQ(raw.code, 3) << raw.err;
  EXPECT_NE(raw.err.find("o2.json: not valid JSON"), std::string::npos) << raw.err;
  EXPECT_NE(raw.err.find("\\x93"), std::string::npos) << raw.err;  // the byte, written so it can be read
  const std::string line = raw.err.substr(0, raw.err.find('\n'));
  EXPECT_EQ(revwave::utf8_text(line), line);
}

// A ninth held-out round (#45, 401 cases, 399 held): a record whose t0 put the Ricker wavelet's peak
// a second before the record began ran with no source at all, a zero gradient and no word.
TEST_F(CliNothingLost, ASourceThatPassedBeforeTheRecordBeganIsSaid) {
  write_cube("m.npy", 2000);
  ASSERT_EQ(invoke("forward --model m.npy --tn 0.15 --threads 1 --out obs.npy").code, 0);
  const std::string sidecar = slurp((dir_ / "obs.json").string());
  nlohmann::json j = nlohmann::json::parse(sidecar);
  const std::string g = "gradient --model m.npy --threads 1 --observed obs.npy --out ";
  const Outcome as_given = invoke(g + "a.npy");
  ASSERT_EQ(as_given.code, 0) << as_given.err;
  EXPECT_EQ(as_given.err.find("before the record begins"), std::string::npos) << as_given.err;
  for (const auto& [t0, left] : {std::pair<double, const char*>{-1.0, "-1 s, before the record begins at 0 s: nothing"},
                                 {-0.1, "-0.1 s, before the record begins at 0 s: what is left of it is at most"}}) {
    j["t0"] = t0;
    std::ofstream(dir_ / "obs.json") << j.dump();
    const Outcome r = invoke(g + (t0 == -1.0 ? "b.npy" : "c.npy"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find(std::string("revwave: warning: the Ricker wavelet of f0 12 Hz peaks at ") + left),
              std::string::npos)
        << r.err;
  }
}

// A tenth held-out round (#45): an output option took the next option's name as its file
// (`--out --json` wrote --json.npy and lost the switch), exit 0.
TEST_F(CliNothingLost, AnOutputNamedByTheNextOptionIsRefused) {
  write_cube("m.npy", 2000);
  write_cube("t.npy", 2100);
  const std::string g = "gradient --model m.npy --true-model t.npy --tn 0.15 --threads 1 ";
  expect_refused_as(g + "--out --json", 2, {"'--json' is an option, not a file name"});
  expect_refused_as(g + "--out g.npy --png --json", 2, {"'--json' is an option, not a file name"});
  expect_refused_as("forward --model m.npy --tn 0.15 --threads 1 --src-grid 2,1,20 --out --yes", 2,
                    {"'--yes' is an option, not a file name"});
  // A file so named is still written where it is named as a path.
  const Outcome named = invoke(g + "--out ./--odd.npy");
  ASSERT_EQ(named.code, 0) << named.err;
  EXPECT_TRUE(fs::exists(dir_ / "--odd.npy"));
}

}  // namespace
