// OpenMP's waiting chosen at the start (revwave/core/openmp_wait.hpp): the rule, and what the
// machine says. The choice itself, with the program run again, is the CLI suite's
// (Cli.ChoosesHowOpenMpWaitsUnlessTheUserDid).
#include <gtest/gtest.h>

#include "revwave/core/openmp_wait.hpp"

namespace {

TEST(OpenMpWait, SleepsWhereTheTeamWouldShareACore) {
  using revwave::wait_passively;
  EXPECT_FALSE(wait_passively(2, 2, 2, 0));  // free cores: spin
  EXPECT_TRUE(wait_passively(2, 2, 2, 1));   // one taken
  EXPECT_FALSE(wait_passively(2, 4, 4, 2));  // two taken, two free for the team
  EXPECT_TRUE(wait_passively(4, 4, 4, 1));
  EXPECT_TRUE(wait_passively(2, 1, 2, 0));   // more threads than the cores this process may use
  EXPECT_FALSE(wait_passively(1, 1, 1, 5));  // one thread waits at no barrier
  // Bound to 4 of 64 cores: the load elsewhere on the machine leaves them free.
  EXPECT_FALSE(wait_passively(4, 4, 64, 20));
  EXPECT_TRUE(wait_passively(4, 4, 64, 61));
}

TEST(OpenMpWait, TheMachineSaysItsCoresAndTasks) {
  EXPECT_GE(revwave::usable_cpus(), 1);
  EXPECT_GE(revwave::online_cpus(), revwave::usable_cpus());
#if defined(__linux__)
  EXPECT_GE(revwave::other_running_tasks(), 0);  // this test itself runs: procs_running >= 1
#endif
}

}  // namespace
