// Online checkpointing: protocol-driven streams validated, forward steps against the offline optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "revwave/core/errors.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {
namespace {

constexpr std::int64_t slot_counts[] = {2, 5, 10, 20, 50};

std::int64_t offline_r(std::int64_t N, std::int64_t S) {
  return N < 2 ? 0 : revolve_repetitions(N, std::min(S, N) + 1);
}

// Every N <= 1000, every third up to 2000: full validation and the exact count.
TEST(Online, DenseSmallRunsAreValidAndMatchTheSweep) {
  for (const std::int64_t S : slot_counts) {
    const auto sweep = online_forward_steps_sweep(2000, S);
    for (std::int64_t N = 1; N <= 2000; N += N < 1000 ? 1 : 3) {
      ASSERT_NO_THROW(validate_online(N, S)) << "N=" << N << " S=" << S;
      ASSERT_EQ(count_online(N, S).forward_steps, sweep[N - 1]) << "N=" << N << " S=" << S;
    }
  }
}

TEST(Online, LateFinishCancelsTheAdvanceAndStaysValid) {
  for (const std::int64_t S : {1, 2, 5, 10})
    for (std::int64_t N = 1; N <= 400; ++N) ASSERT_NO_THROW(validate_online(N, S, true)) << "N=" << N;
}

TEST(Online, SampledLargeRunsAreValidAndMatchTheSweep) {
  for (const std::int64_t S : slot_counts) {
    const auto sweep = online_forward_steps_sweep(100000, S);
    for (std::int64_t N = 2003; N <= 100000; N += 7919 + S) {
      ASSERT_NO_THROW(validate_online(N, S)) << "N=" << N << " S=" << S;
      ASSERT_EQ(count_online(N, S).forward_steps, sweep[N - 1]) << "N=" << N << " S=" << S;
    }
    ASSERT_NO_THROW(validate_online(100000, S));
    ASSERT_EQ(count_online(100000, S).forward_steps, sweep.back());
  }
}

TEST(Online, RatioToOfflineOptimumByRepetitionNumber) {
  for (const std::int64_t S : slot_counts) {
    const auto sweep = online_forward_steps_sweep(100000, S);
    for (std::int64_t N = 1; N <= 100000; ++N) {
      const std::int64_t offline = optimal_forward_steps(N, S);
      const double ratio = static_cast<double>(sweep[N - 1]) / static_cast<double>(offline);
      ASSERT_GE(sweep[N - 1], offline) << "N=" << N << " S=" << S;
      const std::int64_t r = offline_r(N, S);
      if (r <= 2) {
        ASSERT_EQ(sweep[N - 1], offline) << "N=" << N << " S=" << S << " r=" << r;
      }
      if (r <= 3) {
        ASSERT_LE(ratio, 1.05) << "N=" << N << " S=" << S;
      }
      if (S >= 10) {
        ASSERT_LE(ratio, 1.33) << "N=" << N << " S=" << S;
      }
    }
  }
}

TEST(Online, ProtocolErrors) {
  EXPECT_THROW(OnlineSchedule(0), InputError);
  EXPECT_THROW(count_online(0, 3), InputError);
  OnlineSchedule s(3);
  EXPECT_THROW(s.finish(5), std::logic_error);  // position is 0
  EXPECT_EQ(s.next().kind, ActionKind::advance);
  s.finish(2);  // ran step 1... at position 1, the run ends after it
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.steps(), 2);
  EXPECT_THROW(s.finish(2), std::logic_error);
  const Action a = s.next();
  EXPECT_EQ(a.kind, ActionKind::first_reverse);
  EXPECT_EQ(a.step, 1);
}

}  // namespace
}  // namespace revwave
