// Shots over processes for runs started from Python (internal to the extension): under
// `mpiexec -n K python script.py` a survey gradient or an inversion spreads its shots over the K
// processes through the library's MPI runner (the CLI's: the same hand-out and the same fixed
// summation tree, so the CLI's bits for any K); started without mpiexec, shot after shot as before.
#pragma once
#include <optional>

#include "revwave/mpi/mpi_runner.hpp"

namespace revwave::python {

// The process's MPI session, begun at the first survey run (MPI_Init when launched by mpiexec and
// MPI is not running yet, e.g. through mpi4py) and ended when the process exits.
MpiSession& mpi_session();
// The runner of a survey run: the session's (serial without mpiexec or with one process).
ShotRunner& shot_runner();
// `threads=` for every process, else, under mpiexec, each process's share of its node (the CLI's rule).
void apply_process_threads(const std::optional<int>& threads);

}  // namespace revwave::python
