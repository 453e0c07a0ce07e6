#include "revwave/mpi/process_threads.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace revwave {

void apply_threads_per_process(const std::optional<int>& threads, const MpiSession& mpi) {
  if (threads) omp_set_num_threads(*threads);
  if (threads || !mpi.active() || std::getenv("OMP_NUM_THREADS") != nullptr) return;
  // Bound to a few cores (mpirun binds), the process uses what it is given; unbound, its share.
  const int mine = omp_get_num_procs();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const int share = mine < online ? mine : std::max(1, mine / std::max(1, mpi.local_size()));
  omp_set_num_threads(share);
}

}  // namespace revwave
