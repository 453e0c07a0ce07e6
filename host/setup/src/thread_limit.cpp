#include "revwave/setup/thread_limit.hpp"

#include <omp.h>
#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"

namespace revwave {
namespace {

// libgomp's start-up data per thread is about 130 bytes (measured: an 8 MiB stack crashes at 65536
// threads); a KiB a thread leaves room for the frames already on the stack.
constexpr std::int64_t stack_bytes_per_thread = 1024;

std::int64_t read_first_number(const std::string& path) {
  std::ifstream in(path);
  std::int64_t v = -1;
  if (!(in >> v)) return -1;
  return v;
}

// Tasks (threads) alive on the machine now: the fourth field of /proc/loadavg, "running/total".
std::int64_t tasks_alive() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c, tasks;
  if (!(in >> a >> b >> c >> tasks)) return -1;
  const auto slash = tasks.find('/');
  if (slash == std::string::npos) return -1;
  try {
    return std::stoll(tasks.substr(slash + 1));
  } catch (...) {
    return -1;
  }
}

std::int64_t memory_maps_of_this_process() {
  std::ifstream in("/proc/self/maps");
  std::int64_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

void lower(ThreadLimit& limit, std::int64_t threads, const std::string& reason) {
  if (threads >= 0 && threads < limit.threads) limit = {std::max<std::int64_t>(threads, 1), reason};
}

// Every limit but the runtime's own, read without starting the runtime.
ThreadLimit system_thread_limit() {
  ThreadLimit limit{std::numeric_limits<std::int32_t>::max(), ""};
  pthread_attr_t attr;
  std::size_t stack = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstacksize(&attr, &stack);
    pthread_attr_destroy(&attr);
  }
  if (stack > 0) {
    lower(limit, static_cast<std::int64_t>(stack) / stack_bytes_per_thread,
          "the OpenMP runtime sets a team up on the calling thread's stack of " + format_bytes(double(stack)) +
              ", about 1 KiB a thread; 'ulimit -s' raises it");
  }
  const std::int64_t alive = tasks_alive();
  if (alive >= 0) {
    const std::int64_t pid_max = read_first_number("/proc/sys/kernel/pid_max");
    const std::int64_t threads_max = read_first_number("/proc/sys/kernel/threads-max");
    if (pid_max > 0)
      lower(limit, pid_max - alive,
            "the system runs " + std::to_string(alive) + " tasks of its kernel.pid_max " + std::to_string(pid_max));
    if (threads_max > 0)
      lower(limit, threads_max - alive,
            "the system runs " + std::to_string(alive) + " tasks of its kernel.threads-max " +
                std::to_string(threads_max));
    rlimit nproc{};
    if (getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur != RLIM_INFINITY) {
      lower(limit, static_cast<std::int64_t>(nproc.rlim_cur) - alive,
            "'ulimit -u' allows " + std::to_string(nproc.rlim_cur) + " tasks and " + std::to_string(alive) +
                " are running");
    }
  }
  // Every thread's stack is a memory map of its own, and its guard page another.
  const std::int64_t max_maps = read_first_number("/proc/sys/vm/max_map_count");
  if (max_maps > 0) {
    lower(limit, (max_maps - memory_maps_of_this_process()) / 2,
          "each thread's stack takes two of the process's memory maps, at most vm.max_map_count " +
              std::to_string(max_maps));
  }
  return limit;
}

}  // namespace

ThreadLimit openmp_thread_limit() {
  ThreadLimit limit = system_thread_limit();
  lower(limit, omp_get_thread_limit(), "the OpenMP runtime's thread limit (OMP_THREAD_LIMIT)");
  return limit;
}

std::optional<std::int64_t> environment_team() {
  const char* text = std::getenv("OMP_NUM_THREADS");
  if (text == nullptr) return std::nullopt;
  // Its first entry (a list names the nested levels' teams), digits only.
  std::int64_t n = 0;
  const char* c = text;
  while (*c == ' ') ++c;
  if (*c < '0' || *c > '9') return std::nullopt;
  for (; *c >= '0' && *c <= '9'; ++c) n = std::min<std::int64_t>(n * 10 + (*c - '0'), std::int64_t(1) << 40);
  return n;
}

void check_thread_count(const std::string& option, std::int64_t threads) {
  // The system's limits first: asking the runtime for its own starts it, and a runtime told to
  // make a team past them may fail in its start-up (LLVM's libomp sizes its tables by
  // OMP_NUM_THREADS, and an allocation of 128 bytes a thread ends the process).
  ThreadLimit limit = system_thread_limit();
  if (threads <= limit.threads) limit = openmp_thread_limit();
  if (threads <= limit.threads) return;
  throw InputError(option + " " + std::to_string(threads) +
                   " is more threads than the OpenMP runtime can start here: at most " + std::to_string(limit.threads) +
                   " (" + limit.reason +
                   "); refused rather than capped, so that the run uses the "
                   "threads it says");
}

}  // namespace revwave
