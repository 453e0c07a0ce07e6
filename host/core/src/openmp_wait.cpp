#include "revwave/core/openmp_wait.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace revwave {

namespace {

const char* const chosen_variable = "REVWAVE_OPENMP_WAIT";

// Why choose_openmp_waiting left libgomp's default (in this process image; empty: never asked, as in
// the Python package).
std::string& left_default() {
  static std::string why;
  return why;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : 0;
}

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
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
  return online_cpus();
}

int online_cpus() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

void choose_openmp_waiting(char** argv, int threads) {
  std::string& why = left_default();
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  // Not through a loader, a tool that preloads itself (valgrind, profilers) or a CUDA injection
  // (nsys, compute-sanitizer): running /proc/self/exe again would run without them, or run them.
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0 || std::getenv("LD_PRELOAD") != nullptr || std::getenv("CUDA_INJECTION64_PATH") != nullptr ||
      argv == nullptr || argv[0] == nullptr ||
      base_name(std::string(exe, static_cast<std::size_t>(n))) != base_name(argv[0])) {
    why = "not chosen: run through a loader or a tool";
    return;
  }
  const int usable = usable_cpus(), online = online_cpus();
  // Under mpirun (OpenMPI) the node's ranks share its cores, each its share unless told.
  const int local_ranks = std::max(1, env_int("OMPI_COMM_WORLD_LOCAL_SIZE"));
  if (threads <= 0) threads = env_int("OMP_NUM_THREADS");
  if (threads <= 0) threads = local_ranks > 1 && usable == online ? std::max(1, usable / local_ranks) : usable;
  if (threads <= 1) {
    why = "one thread waits at no barrier";
    return;
  }
  const auto load = [&] {
    const int others = other_running_tasks();
    return others < 0 ? -1 : std::max(0, others - (local_ranks - 1));
  };
  // The fewest seen over 15 ms: a task that only starts beside this one (the shell's pipe, a
  // reader of the output) is not a load.
  int others = load();
  for (int k = 0; k < 3 && others > 0 && wait_passively(threads, usable, online, others); ++k) {
    usleep(5000);
    const int now = load();
    if (now >= 0 && now < others) others = now;
  }
  if (others < 0) {
    why = "not chosen: /proc/stat unreadable";
    return;
  }
  if (!wait_passively(threads, usable, online, others)) {
    why = "the cores were free at the start";
    return;
  }
  std::ostringstream seen;
  seen << getpid() << ": " << threads << " threads, " << others << " other task" << (others == 1 ? "" : "s")
       << " running on " << online << " core" << (online == 1 ? "" : "s");
  if (usable < online) seen << " (" << usable << " usable here)";
  seen << " at the start";
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0 || setenv(chosen_variable, seen.str().c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not run again: spin as libgomp does (the environment says passive, but libgomp has read it).
  unsetenv("OMP_WAIT_POLICY");
  unsetenv(chosen_variable);
  why = "not chosen: the program could not run itself again";
}

std::string openmp_wait_note() {
  const char* chosen = std::getenv(chosen_variable);
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* spin = std::getenv("GOMP_SPINCOUNT");
  // Ours only where this process set it (its id, which running itself again keeps).
  const std::string mine = std::to_string(getpid()) + ": ";
  if (chosen != nullptr && policy != nullptr && std::string(policy) == "passive" &&
      std::string(chosen).rfind(mine, 0) == 0)
    return "sleep (OMP_WAIT_POLICY=passive, chosen: " + std::string(chosen).substr(mine.size()) + ")";
  if (policy != nullptr || spin != nullptr) {
    std::string set;
    if (policy != nullptr) {
      std::string p = policy;
      std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return std::tolower(c); });
      set += "OMP_WAIT_POLICY=" + std::string(policy);
      if (p != "active" && p != "passive") set += " (none of active, passive: libgomp's default instead)";
    }
    if (spin != nullptr) set += (set.empty() ? "" : ", ") + std::string("GOMP_SPINCOUNT=") + spin;
    return "as set: " + set;
  }
  const std::string& why = left_default();
  return "spin, then sleep (libgomp's default" + (why.empty() ? std::string() : ": " + why) + ")";
}

}  // namespace revwave
