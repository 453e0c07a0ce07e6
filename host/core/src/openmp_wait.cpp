#include "revwave/core/openmp_wait.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace revwave {

namespace {

const char* const chosen_variable = "REVWAVE_OPENMP_WAIT";

}  // namespace

int other_running_tasks() {
  std::ifstream stat("/proc/stat");
  std::string line;
  while (std::getline(stat, line)) {
    if (line.rfind("procs_running ", 0) != 0) continue;
    const int running = std::atoi(line.c_str() + 14);
    return running >= 1 ? running - 1 : -1;
  }
  return -1;
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

void choose_openmp_waiting(char** argv, int threads) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  const int cpus = usable_cpus();
  if (threads <= 0) {
    const char* n = std::getenv("OMP_NUM_THREADS");
    threads = n != nullptr && std::atoi(n) > 0 ? std::atoi(n) : cpus;
  }
  // The fewest seen over 15 ms: a task that only starts beside this one (the shell's pipe, a
  // reader of the output) is not a load.
  int others = other_running_tasks();
  for (int k = 0; k < 3 && others > 0 && wait_passively(threads, cpus, others); ++k) {
    usleep(5000);
    const int now = other_running_tasks();
    if (now >= 0 && now < others) others = now;
  }
  if (others < 0 || !wait_passively(threads, cpus, others)) return;
  std::ostringstream seen;
  seen << others << " other task" << (others == 1 ? "" : "s") << " running on " << cpus << " core"
       << (cpus == 1 ? "" : "s") << " at the start";
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0 || setenv(chosen_variable, seen.str().c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not run again: spin as libgomp does (the environment says passive, but libgomp has read it).
  unsetenv("OMP_WAIT_POLICY");
  unsetenv(chosen_variable);
}

std::string openmp_wait_note() {
  const char* chosen = std::getenv(chosen_variable);
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spin = std::getenv("GOMP_SPINCOUNT");
  if (chosen != nullptr && policy != nullptr && std::string(policy) == "passive")
    return std::string("sleep (OMP_WAIT_POLICY=passive, chosen: ") + chosen + ")";
  if (policy != nullptr || spin != nullptr) {
    std::string set;
    if (policy != nullptr) set += std::string("OMP_WAIT_POLICY=") + policy;
    if (spin != nullptr) set += (set.empty() ? "" : ", ") + std::string("GOMP_SPINCOUNT=") + spin;
    return "as set: " + set;
  }
  return "spin, then sleep (libgomp's default: the cores were free at the start)";
}

}  // namespace revwave
