// Linked when the build has no MPI: one process, shot after shot; mpirun with more is refused.
#include "revwave/core/errors.hpp"
#include "revwave/mpi/mpi_runner.hpp"

namespace revwave {

bool mpi_compiled() { return false; }

MpiSession::MpiSession() {
  if (launched_size() > 1) {
    throw NotCompiledError(
        "this build of revwave has no MPI (install libopenmpi-dev and reconfigure): run it without mpirun");
  }
}

MpiSession::~MpiSession() = default;

void MpiSession::agree(const std::exception_ptr& failure) {
  if (failure) std::rethrow_exception(failure);
}

std::unique_ptr<ShotRunner> MpiSession::runner() { return std::make_unique<SerialShotRunner>(); }

}  // namespace revwave
