// The run clock (revwave/core/run_clock.hpp): phases that add up to the wall time, parts a callee
// timed, and an origin at the process's start (against the steady clock read while this test
// program was loaded, before main).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "revwave/core/run_clock.hpp"

namespace {

using revwave::RunClock;

// Read by the loader's static initialisation: after the process started, before main.
const auto loaded = std::chrono::steady_clock::now();

double sum_of(const RunClock& c) {
  double s = 0;
  for (const auto& [name, seconds] : c.phases()) s += seconds;
  return s;
}

TEST(RunClock, PhasesAddUpToTheWallTimeInTheOrderTheyRan) {
  RunClock c;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  c.mark("first");
  c.mark("second");
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  c.mark("first");  // adds to the first's
  ASSERT_EQ(c.phases().size(), 2u);
  EXPECT_EQ(c.phases()[0].first, "first");
  EXPECT_EQ(c.phases()[1].first, "second");
  EXPECT_GE(c.seconds("first"), 0.030);
  EXPECT_LT(c.seconds("second"), 0.5);  // two marks in a row (a loaded machine may preempt between)
  EXPECT_NEAR(sum_of(c), c.wall(), 1e-12 * c.wall() + 1e-15);
  EXPECT_EQ(c.seconds("never"), 0.0);
}

TEST(RunClock, APartsTimeIsCutToTheTimeSinceTheLastMark) {
  RunClock c;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  c.mark_parts({{"loop", 0.005}, {"setup", 100.0}}, "rest");
  EXPECT_DOUBLE_EQ(c.seconds("loop"), 0.005);
  EXPECT_GT(c.seconds("setup"), 0.010);  // the rest of the 20 ms and more, not 100 s
  EXPECT_EQ(c.seconds("rest"), 0.0);
  EXPECT_NEAR(sum_of(c), c.wall(), 1e-12);
  c.mark_part("loop", -1.0, "rest");  // a negative part counts as none
  EXPECT_DOUBLE_EQ(c.seconds("loop"), 0.005);
}

TEST(RunClock, AProcessClockStartsBeforeThisProgramWasLoaded) {
  // Later than a tick after the loading, so that a clock from now could not pass.
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  const RunClock c = RunClock::since_process_start();
  const auto now = std::chrono::steady_clock::now();
  RunClock probe = c;
  probe.mark("start_up");
  const double since_loaded = std::chrono::duration<double>(now - loaded).count();
  // The kernel counts the start in ticks (10 ms at most here); the start precedes the loading.
  EXPECT_GE(probe.wall() + 0.011, since_loaded);
  // And it is this process's start, not the machine's nor its parent's: within a second of the load.
  EXPECT_LT(probe.wall(), since_loaded + 1.0 + 0.011);
}

TEST(RunClock, ItsSentenceNamesEveryPhaseWithSpaces) {
  RunClock c;
  c.mark("start_up");
  c.mark("time_loop");
  const std::string s = c.sentence();
  EXPECT_NE(s.find(" s start up, "), std::string::npos) << s;
  EXPECT_NE(s.find(" s time loop"), std::string::npos) << s;
  EXPECT_EQ(s.find('_'), std::string::npos) << s;
}

}  // namespace
