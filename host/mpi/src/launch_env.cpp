// Was this process started by mpirun? Read from the launcher's environment, before any MPI call.
#include <cstdlib>

#include "revwave/mpi/mpi_runner.hpp"

namespace revwave {
namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? std::atoi(v) : fallback;
}
}  // namespace

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

int launched_size() { return env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1)); }
int launched_rank() { return env_int("OMPI_COMM_WORLD_RANK", env_int("PMIX_RANK", env_int("PMI_RANK", 0))); }

}  // namespace revwave
