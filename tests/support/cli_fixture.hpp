// Runs a revwave binary as a user would, in a fresh directory per test: exit code, stdout,
// stderr, and the files it left behind.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.hpp"

namespace revwave::testing {

namespace fs = std::filesystem;

struct Outcome {
  int code = 0;
  std::string out, err;
};

class CliFixture : public ::testing::Test {
 protected:
  explicit CliFixture(std::string binary) : binary_(std::move(binary)) {}
#ifdef REVWAVE_BINARY
  CliFixture() : CliFixture(REVWAVE_BINARY) {}  // the cli suite's: the build's own revwave
#endif
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("revwave-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome invoke(const std::string& args) { return invoke_with("", args); }
  // With environment assignments ("NAME=VALUE ...") for this run only.
  Outcome invoke_with(const std::string& env, const std::string& args) {
    const std::string out = (dir_ / "stdout.txt").string(), err = (dir_ / "stderr.txt").string();
    const std::string cmd =
        "cd '" + dir_.string() + "' && " + env + " '" + binary_ + "' " + args + " >'" + out + "' 2>'" + err + "'";
    const int status = std::system(cmd.c_str());
    Outcome r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    // Under ASan/UBSan (the CI's second build) a report fails the test whatever the exit code.
    EXPECT_EQ(r.err.find("Sanitizer"), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("runtime error:"), std::string::npos) << args << "\n" << r.err;
    return r;
  }
  static std::string slurp(const std::string& path) { return testing::slurp(path); }
  // Files the run left in its working directory.
  std::vector<std::string> leftovers() const { return entries_of(dir_); }
  void expect_refused(const std::string& args, const std::string& must_mention) {
    const Outcome r = invoke(args);
    EXPECT_NE(r.code, 0) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << args << "\nstderr: " << r.err;
    EXPECT_TRUE(leftovers().empty()) << args << " left " << (leftovers().empty() ? "" : leftovers().front());
  }
  // A refused run that reads `input`, a file the test wrote for it and removes after the run, so
  // that anything left in the directory is the run's.
  void expect_refused_reading(const std::string& input, const std::string& args, const std::string& must_mention) {
    const Outcome r = invoke(args);
    fs::remove(dir_ / input);
    EXPECT_NE(r.code, 0) << args;
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << r.err;
    EXPECT_TRUE(leftovers().empty()) << args;
  }
  // The binary under mpirun (where the suite knows a launcher, REVWAVE_MPIEXEC; else no run and an
  // empty outcome), `env` ("NAME=VALUE") passed to every process. As root on a 2-core machine:
  // OpenMPI's root guard lifted and its slots oversubscribed. invoke quotes the binary: the quotes
  // here close and reopen around the launcher's words. In the sanitizer build OpenMPI's own
  // allocations, made by plug-ins it unloads at exit, read as leaks that no suppression can name:
  // leak checking is off in these processes (the address and UB checks stay on).
  Outcome mpirun(int processes, const std::string& args, const std::string& env = "") {
#ifdef REVWAVE_MPIEXEC
    const std::string saved = binary_;
    const std::string pass = env.empty() ? "" : " -x " + env.substr(0, env.find('='));
    binary_ =
        "env' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 " +
        env + " '" + REVWAVE_MPIEXEC + "' -q --oversubscribe -n " + std::to_string(processes) + " -x ASAN_OPTIONS" +
        pass + " '" + saved;
    const Outcome r = invoke(args);
    binary_ = saved;
    return r;
#else
    (void)processes, (void)args, (void)env;
    return {};
#endif
  }
  fs::path dir_;
  std::string binary_;
};

}  // namespace revwave::testing
