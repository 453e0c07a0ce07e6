// Shots over MPI processes (OpenMPI): the session (init, ranks, errors agreed by all), and the
// runner that hands shots out dynamically and sums on the fixed tree. Plain C++: no MPI header
// here; without MPI in the build a stub says so.
#pragma once
#include <exception>
#include <memory>
#include <string>

#include "revwave/survey/shot_runner.hpp"

namespace revwave {

bool mpi_compiled();
// True when this process was started by mpirun/mpiexec (OpenMPI, PMI or PMIx in the environment),
// whether or not MPI is compiled in; `launched_size` is the world size it says (1 otherwise).
bool launched_by_mpirun();
int launched_size();
int launched_rank();

// MPI_Init when launched by mpirun (else a single process without MPI) unless MPI runs already,
// MPI_Finalize at the end if it was this session's MPI_Init.
// NotCompiledError when launched by mpirun with more than one process and MPI is not compiled in.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Among the processes of this node: decides the GPU (local_rank % devices) and default threads.
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }

  // Collective: every process passes what it caught (or nullptr). If any failed, every process
  // throws the error of the lowest failing rank (same kind and message); else returns.
  void agree(const std::exception_ptr& failure);

  // The runner for this session: serial without MPI or with one process.
  std::unique_ptr<ShotRunner> runner();

 private:
  bool active_ = false;
  bool owns_ = false;  // this session called MPI_Init (and so calls MPI_Finalize)
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace revwave
