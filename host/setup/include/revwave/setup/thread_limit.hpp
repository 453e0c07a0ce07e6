// How many OpenMP threads this process can start. --threads above it is refused where it enters:
// the runtime does not fail cleanly past it (libgomp lays a new team out on the calling thread's
// stack, about 130 bytes a thread, and crashes past the stack's end; past the system's task or
// memory-map limits it ends the process with "Thread creation failed").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace revwave {

struct ThreadLimit {
  std::int64_t threads = 0;  // the most a run may ask for
  std::string reason;        // what sets it, and how to raise it
};
ThreadLimit openmp_thread_limit();

// The team OMP_NUM_THREADS asks for (its first entry), read without starting the runtime; none
// where it is unset or does not start with a number.
std::optional<std::int64_t> environment_team();

// InputError "OPTION N is more threads than ... can start here: at most M (REASON)" above the limit
// (the system's limits are read first: the runtime is asked only where they allow N).
void check_thread_count(const std::string& option, std::int64_t threads);

}  // namespace revwave
