// OpenMP threads per process under mpirun: processes that share a node share its cores.
#pragma once
#include <optional>

#include "revwave/mpi/mpi_runner.hpp"

namespace revwave {

// --threads when given (every process), else OMP_NUM_THREADS when set; else, under mpirun, the cores
// the launcher bound the process to, or its share of the node's cores when unbound.
void apply_threads_per_process(const std::optional<int>& threads, const MpiSession& mpi);

}  // namespace revwave
