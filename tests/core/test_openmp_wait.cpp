// OpenMP's waiting chosen at the start (revwave/core/openmp_wait.hpp): the rule, and what the
// machine says. The choice itself, with the program run again, is the CLI suite's
// (Cli.ChoosesHowOpenMpWaitsUnlessTheUserDid).
#include <gtest/gtest.h>

#include "revwave/core/openmp_wait.hpp"

namespace {

TEST(OpenMpWait, SleepsWhereTheTeamWouldShareACore) {
  EXPECT_FALSE(revwave::wait_passively(2, 2, 0));  // free cores: spin
  EXPECT_TRUE(revwave::wait_passively(2, 2, 1));   // one taken
  EXPECT_FALSE(revwave::wait_passively(2, 4, 2));  // two taken, two free for the team
  EXPECT_TRUE(revwave::wait_passively(4, 4, 1));
  EXPECT_TRUE(revwave::wait_passively(2, 1, 0));   // more threads than cores
  EXPECT_FALSE(revwave::wait_passively(1, 1, 5));  // one thread waits at no barrier
}

TEST(OpenMpWait, TheMachineSaysItsCoresAndTasks) {
  EXPECT_GE(revwave::usable_cpus(), 1);
#if defined(__linux__)
  EXPECT_GE(revwave::other_running_tasks(), 0);  // this test itself runs: procs_running >= 1
#endif
}

}  // namespace
