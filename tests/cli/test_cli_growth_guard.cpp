// The growth guard on the command line: a run whose wavefield is not finite exits with code 7, one
// line naming the physics, the boundary and the space order, and no output file.
//
// No built-in physics blows up below its CFL limit, which the input checks enforce, and the app
// has no switch to make one: the growth branch is tested at the library's level
// (tests/driver/test_growth_guard.cpp, tests/cuda/test_cuda_growth_guard.cpp). Here the field
// overflows float instead, from valid input: a signature of 3e38 (a float) on a 1 cm grid, where
// the injection's 1 / (h^3 a) is about 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_fixture.hpp"
#include "revwave/io/npy.hpp"

namespace {

namespace fs = std::filesystem;

using revwave::testing::Outcome;

class CliGrowthGuard : public revwave::testing::CliFixture {
 protected:
  // 200 steps of 1 us (SEG-Y's sample interval): 201 samples, the first five 3e38.
  void write_overflowing_wavelet() {
    std::vector<double> w(201, 0.0);
    std::fill(w.begin(), w.begin() + 5, 3e38);
    revwave::write_npy((dir_ / "big.npy").string(), {static_cast<std::int64_t>(w.size())}, w.data());
  }
  void expect_stopped(const std::string& args) {
    write_overflowing_wavelet();
    const Outcome r = invoke(args + " --shape 12,12,12 --spacing 0.01 --dt 1e-6 --tn 2e-4 --wavelet big.npy");
    fs::remove(dir_ / "big.npy");
    EXPECT_EQ(r.code, 7) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("revwave: error: the wavefield is not finite at "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("constant density, cpml boundary, space order 8; nothing was written"), std::string::npos)
        << r.err;
    EXPECT_TRUE(leftovers().empty()) << args << " left " << (leftovers().empty() ? "" : leftovers().front());
  }
};

TEST_F(CliGrowthGuard, AForwardRunThatOverflowsExitsWithSevenAndWritesNothing) {
  expect_stopped("forward --out shots.sgy");
}

TEST_F(CliGrowthGuard, AGradientAndAnInversionThatOverflowExitWithSevenAndWriteNothing) {
  expect_stopped("gradient --out g.npy");
  expect_stopped("invert --out-dir run --vmin 1000 --vmax 4000");
}

}  // namespace
