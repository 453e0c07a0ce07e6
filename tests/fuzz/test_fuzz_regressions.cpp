// Replays the fuzzers' seed corpora and every input a fuzzer once crashed on (tests/fuzz/) through
// the same harnesses, in every test build: a fixed crash stays fixed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harnesses.hpp"
#include "revwave/inversion/inversion_state.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

using Harness = void (*)(const std::uint8_t*, std::size_t);

// Every file under tests/fuzz/{corpus,regressions}/<name>/.
std::vector<fs::path> inputs(const std::string& name) {
  std::vector<fs::path> files;
  for (const char* kind : {"corpus", "regressions"}) {
    const fs::path dir = fs::path(REVWAVE_FUZZ_DIR) / kind / name;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
  }
  return files;
}

void replay(const std::string& name, Harness harness, std::size_t at_least) {
  const std::vector<fs::path> files = inputs(name);
  EXPECT_GE(files.size(), at_least) << "inputs of " << name;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NO_THROW(harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())) << f;
  }
}

TEST(FuzzRegressions, Npy) { replay("npy", fuzz::npy, 4); }
TEST(FuzzRegressions, Sidecar) { replay("sidecar", fuzz::sidecar, 1); }
TEST(FuzzRegressions, Config) { replay("config", fuzz::config, 5); }
TEST(FuzzRegressions, Schedule) { replay("schedule", fuzz::schedule, 5); }
TEST(FuzzRegressions, Segy) { replay("segy", fuzz::segy, 6); }
TEST(FuzzRegressions, State) { replay("state", fuzz::state, 4); }

// The state seeds of format 2 are files revwave 0.2.0 wrote: they still decode, as they were (the
// independent check of the old formats' header keys, which no writer of today's shares).
TEST(StateCorpus, TheFormatTwoFilesOfRevwave020StillDecode) {
  const fs::path dir = fs::path(REVWAVE_FUZZ_DIR) / "corpus" / "state";
  const auto read = [&](const char* name) {
    std::ifstream in(dir / name, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return decode_inversion_state(bytes, name);
  };
  const InversionState mid = read("mid_band.bin");
  EXPECT_EQ(mid.format, 2);
  EXPECT_EQ(mid.fingerprint, "eebebb43c5aafbd1");
  EXPECT_TRUE(mid.band_started);
  EXPECT_EQ(mid.iteration, 1);
  EXPECT_EQ(mid.model.size(), 180u);
  EXPECT_EQ(mid.diagonal.size(), 180u);
  EXPECT_EQ(mid.optimizer.memory.size(), 1);
  const InversionState ended = read("ended_no_preconditioner.bin");
  EXPECT_EQ(ended.format, 2);
  EXPECT_EQ(ended.band, 1);
  EXPECT_EQ(ended.ended, std::vector<BandEnd>{BandEnd::iterations});
  EXPECT_FALSE(ended.band_started);
  EXPECT_TRUE(ended.diagonal.empty());
  EXPECT_EQ(ended.optimizer.memory.size(), 2);
  EXPECT_EQ(ended.optimizer.memory.capacity(), 2);
}

}  // namespace
}  // namespace revwave
