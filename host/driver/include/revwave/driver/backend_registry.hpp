// The one place a resolved Backend becomes a propagator: the CPU's is built here, the CUDA one
// behind cuda_backend.hpp. Setup, survey, the CLI and the Python package run their work through
// run_on_backend and size their working sets with working_fields; none of them branches on the
// backend.
#pragma once
#include <stdexcept>

#include "revwave/core/choices.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/backend_calls.hpp"
#include "revwave/driver/cpu_checkpoints.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/workload.hpp"

namespace revwave {

// Host-memory fields of the grid's size a run of `w` holds on `backend` beside checkpoints and
// traces (as its propagator states them), for the memory checks made before anything is allocated.
// Both are defined here, not in the library: they reach the CUDA backend, which links after it.
inline int working_fields(Backend backend, Workload w) {
  switch (backend) {
    case Backend::cpu: return CpuPropagator<float>::working_fields(w);
    case Backend::cuda: return cuda_working_fields(w);
    case Backend::automatic: break;
  }
  throw std::logic_error("working_fields: the backend must be resolved (cpu or cuda)");
}

// What `backend` can do, as its propagator type states it (cpu or cuda: resolve `automatic` first).
// Everything past the edges asks this value instead of comparing backends.
inline const BackendCapabilities& backend_capabilities(Backend backend) {
  switch (backend) {
    case Backend::cpu: return CpuPropagator<float>::capabilities;
    case Backend::cuda: return cuda_capabilities;
    case Backend::automatic: break;
  }
  throw std::logic_error("backend_capabilities: the backend must be resolved (cpu or cuda)");
}

// InputError when `backend` does not run the problem's physics (its capabilities say which).
inline void check_backend_runs(Backend backend, const PhysicsSpec& physics) {
  const BackendCapabilities& can = backend_capabilities(backend);
  if (physics.vti && !can.vti) {
    throw InputError(std::string("epsilon and delta (the VTI physics) do not run on the ") + can.name +
                     " backend in this release: give --backend cpu");
  }
  if (physics.visco && !can.visco) {
    throw InputError(std::string("Q (the visco-acoustic physics) does not run on the ") + can.name +
                     " backend in this release: give --backend cpu");
  }
}

// call(prop) on a propagator of `problem` on `backend` (cpu or cuda: resolve `automatic` first).
template <class T, class Call>
typename Call::Result run_on_backend(Backend backend, const Problem<T>& problem, const DeviceBudgets& budgets,
                                     const Call& call) {
  check_backend_runs(backend, physics_of(problem));
  switch (backend) {
    case Backend::cpu: {
      CpuPropagator<T> prop(problem);
      return call(prop);
    }
    case Backend::cuda: return run_on_cuda(problem, budgets, call);
    case Backend::automatic: break;
  }
  throw std::logic_error("run_on_backend: the backend must be resolved (cpu or cuda) before anything runs");
}

// The shot engine of `backend` (cpu or cuda). Inline, as run_on_backend is: the CUDA backend links
// after the library.
template <class T>
std::unique_ptr<ShotEngine<T>> make_shot_engine(Backend backend, const EngineOptions& options) {
  switch (backend) {
    case Backend::cpu: return make_cpu_shot_engine<T>(options);
    case Backend::cuda: return make_cuda_shot_engine<T>(options);
    case Backend::automatic: break;
  }
  throw std::logic_error("make_shot_engine: the backend must be resolved (cpu or cuda)");
}

}  // namespace revwave
