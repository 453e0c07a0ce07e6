// Range checks where numbers enter, overflow-checked sizes, byte sizes and the memory limit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "error_message.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"

namespace revwave {
namespace {

using testing::message_of;

TEST(Checks, RangesRefuseNonFiniteValuesAndSayTheRule) {
  EXPECT_TRUE(positive().admits(1e-300));
  EXPECT_FALSE(positive().admits(0.0));
  EXPECT_FALSE(positive().admits(std::nan("")));
  EXPECT_FALSE(non_negative().admits(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(non_negative().admits(0.0));
  EXPECT_FALSE(from_below(0, 1).admits(1.0));
  EXPECT_TRUE(within(0, 1).admits(1.0));
  EXPECT_EQ(rule_violation("--spacing", -3.0, positive(), "m"), "--spacing -3 m is invalid: it must be finite and > 0");
  EXPECT_EQ(rule_violation("--stop-energy", 1.0, Range{0, 1, true, true}),
            "--stop-energy 1 is invalid: it must be in (0, 1)");
  EXPECT_EQ(rule_violation("--nbl", std::int64_t(-1), at_least(0)), "--nbl -1 is invalid: it must be an integer >= 0");
  EXPECT_EQ(rule_violation("--space-order", std::int64_t(18), int_within(2, 16)),
            "--space-order 18 is invalid: it must be an integer in [2, 16]");
  EXPECT_TRUE(rule_violation("--tn", 0.5, positive(), "s").empty());
  EXPECT_THROW(check_number("x", std::nan(""), finite()), InputError);
  EXPECT_THROW(check_number<IoError>("f.json: field 'dt'", 0.0, positive()), IoError);
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1e30), "1e+30");
}

TEST(Checks, NumbersFromTextAreParsedWholeWithoutSaturating) {
  EXPECT_EQ(parse_number("--tn", "0.25", positive(), "s"), 0.25);
  EXPECT_EQ(parse_number("--tn", "+2e-3", positive(), "s"), 2e-3);
  for (const char* bad : {"", "1x", " 5", "5 ", "+-5", "0x10", "1e400", "nan", "inf", "--1"}) {
    EXPECT_THROW(parse_number("--tn", bad, positive(), "s"), InputError) << bad;
  }
  EXPECT_EQ(parse_integer("--nbl", "12", at_least(0)), 12);
  // CLI11 on its own turns this into 2^63 - 1: here it is refused.
  EXPECT_NE(message_of([] {
              parse_integer("--steps", "99999999999999999999", at_least(1));
            }).find("--steps '99999999999999999999' is invalid: it must be an integer >= 1"),
            std::string::npos);
  for (const char* bad : {"1.5", "1e3", "", "-", "12a", "0x10"}) {
    EXPECT_THROW(parse_integer("--nbl", bad, at_least(0)), InputError) << bad;
  }
  EXPECT_THROW(parse_integer("--nbl", "-1", at_least(0)), InputError);
  EXPECT_EQ(check_whole("NX", 16.0, at_least(1)), 16);
  EXPECT_THROW(check_whole("NX", 16.5, at_least(1)), InputError);
  EXPECT_THROW(check_whole("NX", 1e19, at_least(1)), InputError);
  EXPECT_THROW(check_whole("NX", std::nan(""), at_least(1)), InputError);
}

TEST(Checks, ProductsThatOverflowAreRefusedNamingTheFactors) {
  EXPECT_EQ(checked_product({1000, 1000, 1000}, "grid"), 1000000000);
  const std::string m = message_of([] { checked_product({3037000500, 3037000500}, "--rec-grid receivers"); });
  EXPECT_NE(m.find("--rec-grid receivers: 3037000500 x 3037000500 exceeds the limit of 2^63 - 1"), std::string::npos)
      << m;
  EXPECT_THROW(checked_bytes({std::size_t(1) << 40, std::size_t(1) << 30}, "slots"), InputError);
  EXPECT_THROW(checked_sum(std::numeric_limits<std::size_t>::max(), 1, "run"), InputError);
  EXPECT_EQ(checked_bytes({3, 8}, "x"), 24u);
}

TEST(Checks, ResultsThatAreNotFiniteAreRefused) {
  const double ok[] = {1, -2, 0};
  const float bad[] = {1, std::numeric_limits<float>::infinity()};
  EXPECT_NO_THROW(check_finite_result(ok, 3, "the gradient"));
  const std::string m = message_of([&] { check_finite_result(bad, 2, "the shot record"); });
  EXPECT_NE(m.find("the shot record is not finite (inf at index 1)"), std::string::npos) << m;
  EXPECT_THROW(check_finite_result(bad, 2, "x"), NonFiniteError);
}

TEST(ByteSizes, ZeroFractionsAndOverflowAreRefusedNotDefaulted) {
  EXPECT_EQ(parse_bytes("8GiB"), std::size_t(8) << 30);
  EXPECT_EQ(parse_bytes("1.5K"), 1536u);
  EXPECT_EQ(parse_bytes("1000000"), 1000000u);
  // 0.5 truncated to 0 used to mean "no budget given": now it is refused.
  EXPECT_NE(message_of([] { parse_bytes("0.5"); }).find("less than one byte"), std::string::npos);
  EXPECT_NE(message_of([] { parse_bytes("1e30G"); }).find("exceeds the largest size"), std::string::npos);
  // 1.5 read as 1 byte used to be refused as "1 B is below one slot": a fraction of a byte is refused.
  EXPECT_NE(message_of([] { parse_bytes("1.5"); }).find("a size in bytes is a whole number"), std::string::npos);
  EXPECT_NE(message_of([] { parse_bytes("2.25B"); }).find("a size in bytes is a whole number"), std::string::npos);
  EXPECT_EQ(parse_bytes("2.0"), 2u);
  EXPECT_NE(message_of([] { parse_bytes("16384P"); }).find("exceeds the largest size"), std::string::npos);
  for (const char* bad : {"0", "-1G", "lots", "", "nan", "inf", "5X", "0x10MiB", "0x1p22", ".", "e5", "1e", "5MiBs"})
    EXPECT_THROW(parse_bytes(bad), InputError) << bad;
}

// The units say what they say: K, M, G and KiB, MiB, GiB binary; kB, MB, GB decimal (SI).
TEST(ByteSizes, DecimalUnitsAreDecimalAndBinaryUnitsBinary) {
  EXPECT_EQ(parse_bytes("20MB"), 20000000u);
  EXPECT_EQ(parse_bytes("80GB"), 80000000000u);
  EXPECT_EQ(parse_bytes("1kB"), 1000u);
  EXPECT_EQ(parse_bytes("4.4MB"), 4400000u);
  EXPECT_EQ(parse_bytes("20M"), std::size_t(20) << 20);
  EXPECT_EQ(parse_bytes("20MiB"), std::size_t(20) << 20);
  EXPECT_EQ(parse_bytes("2 gib"), std::size_t(2) << 30);
  EXPECT_EQ(parse_bytes("1e3"), 1000u);
  EXPECT_EQ(parse_bytes("2.5e3K"), 2560000u);
}

class MemoryLimit : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("REVWAVE_MEMORY_LIMIT"); }
};

TEST_F(MemoryLimit, TheEnvironmentLowersWhatIsAvailableAndChecksSayWhatTheyNeed) {
  setenv("REVWAVE_MEMORY_LIMIT", "1MiB", 1);
  EXPECT_LE(available_memory_bytes(), std::size_t(1) << 20);
  EXPECT_NO_THROW(require_memory(1000, "a small thing"));
  const std::string m = message_of([] { require_memory(std::size_t(3) << 20, "the history", "use revolve"); });
  EXPECT_NE(m.find("the history needs 3.00 MiB, but only 1.00 MiB is available (REVWAVE_MEMORY_LIMIT); use revolve"),
            std::string::npos)
      << m;
  EXPECT_THROW(require_memory(std::size_t(3) << 20, "x"), OutOfMemoryError);
  setenv("REVWAVE_MEMORY_LIMIT", "plenty", 1);
  EXPECT_NE(message_of([] { available_memory_bytes(); }).find("REVWAVE_MEMORY_LIMIT"), std::string::npos);
}

}  // namespace
}  // namespace revwave
