// Outputs that appear together or not at all, files that existed before a failed run kept, and no
// temporary left behind by a signal that arrives while a file is being written.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "temp_dir.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

using testing::slurp;

class Outputs : public testing::TempDirTest {
 protected:
  Outputs() : TempDirTest("revwave_tx") {}
  static void write(const std::string& p, const std::string& text) {
    write_file_atomically(p, [&](std::ostream& out) { out << text; });
  }
};

TEST_F(Outputs, ATransactionShowsNothingUntilItCommitsThenEverything) {
  OutputTransaction tx;
  write(path("a.npy"), "A");
  write(path("a.config.toml"), "C");
  EXPECT_FALSE(fs::exists(path("a.npy")));
  EXPECT_FALSE(fs::exists(path("a.config.toml")));
  tx.commit();
  EXPECT_EQ(slurp(path("a.npy")), "A");
  EXPECT_EQ(slurp(path("a.config.toml")), "C");
  EXPECT_EQ(entries(), (std::vector<std::string>{"a.config.toml", "a.npy"}));
}

TEST_F(Outputs, AFailedRunKeepsTheFilesThatExistedAndLeavesNoTemporary) {
  write(path("g.npy"), "from an earlier run");
  try {
    OutputTransaction tx;
    write(path("g.npy"), "new gradient");
    write(path("g.config.toml"), "new config");
    throw std::runtime_error("the picture could not be written");
  } catch (const std::runtime_error&) {}
  EXPECT_EQ(slurp(path("g.npy")), "from an earlier run");
  EXPECT_EQ(entries(), std::vector<std::string>{"g.npy"});
}

TEST_F(Outputs, ANestedTransactionJoinsTheOuterOne) {
  {
    OutputTransaction outer;
    {
      OutputTransaction inner;
      write(path("x"), "1");
      inner.commit();  // not yet: the outer one decides
    }
    EXPECT_FALSE(fs::exists(path("x")));
  }
  EXPECT_TRUE(entries().empty());
}

// Runs `body` in a child process with the CLI's signal handling, and returns how it ended.
int child_status(const std::function<void()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    remove_temporaries_on_signal();
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST_F(Outputs, ASignalDuringAWriteRemovesTheTemporaryAndKeepsTheOldFile) {
  write(path("shot.npy"), "old record");
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const int status = child_status([&] {
      write_file_atomically(path("shot.npy"), [&](std::ostream& out) {
        out << "half of a new record";
        out.flush();
        ::raise(sig);
        out << " that never ends";
      });
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(entries(), std::vector<std::string>{"shot.npy"}) << "signal " << sig;
    EXPECT_EQ(slurp(path("shot.npy")), "old record");
  }
}

TEST_F(Outputs, ASignalBeforeATransactionCommitsRemovesEveryStagedFile) {
  const int status = child_status([&] {
    OutputTransaction tx;
    write(path("g.npy"), "gradient");
    write(path("g.config.toml"), "config");
    ::raise(SIGTERM);
    tx.commit();
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(entries().empty());
}

TEST_F(Outputs, SameFileSeesThroughLinksAndSpellings) {
  write(path("model.npy"), "m");
  fs::create_hard_link(path("model.npy"), path("hard.npy"));
  fs::create_symlink(path("model.npy"), path("soft.npy"));
  fs::create_directory(path("sub"));
  EXPECT_TRUE(same_file(path("model.npy"), path("hard.npy")));
  EXPECT_TRUE(same_file(path("model.npy"), path("soft.npy")));
  EXPECT_TRUE(same_file(path("model.npy"), path("sub/../model.npy")));
  EXPECT_TRUE(same_file(path("new.npy"), path("sub/../new.npy")));  // neither exists yet
  EXPECT_FALSE(same_file(path("model.npy"), path("new.npy")));
  EXPECT_FALSE(same_file(path("a.npy"), path("b.npy")));
  // Relative spellings of a file not written yet (none of its parts exists in the working directory).
  EXPECT_TRUE(same_file("revwave-not-written.npy", "./revwave-not-written.npy"));
  EXPECT_TRUE(same_file("revwave-not-written/g.npy", "revwave-not-written/./g.npy"));
  EXPECT_FALSE(same_file("revwave-not-written.npy", "./revwave-not-written-either.npy"));
}

}  // namespace
}  // namespace revwave
