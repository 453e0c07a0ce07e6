#include "mpi_runs.hpp"

#include <memory>

#include "revwave/mpi/process_threads.hpp"
#include "revwave/setup/problem_setup.hpp"

namespace revwave::python {

MpiSession& mpi_session() {
  static MpiSession session;  // destroyed at exit: MPI_Finalize after the interpreter is done with it
  return session;
}

ShotRunner& shot_runner() {
  static const std::unique_ptr<ShotRunner> runner = mpi_session().runner();
  return *runner;
}

void apply_process_threads(const std::optional<int>& threads) {
  MpiSession& mpi = mpi_session();
  if (mpi.active())
    apply_threads_per_process(threads, mpi);
  else
    apply_threads(threads);
}

}  // namespace revwave::python
