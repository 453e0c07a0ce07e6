// The CUDA backend as the rest of revwave sees it: plain C++, no CUDA header. Implemented in
// cuda/backend when the backend is built (a CudaPropagator running the shared drivers);
// otherwise a stub throws NotCompiledError. Only the backend registry (backend_registry.hpp)
// calls these.
#pragma once
#include <cstddef>
#include <memory>

#include "revwave/core/backend_capabilities.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/workload.hpp"

namespace revwave {

// Budgets for checkpoint slots per tier; 0 means "derive" (device: what is free after the
// working set, less a margin; host: half the available host memory).
struct DeviceBudgets {
  std::size_t device_memory = 0;
  std::size_t host_memory = 0;
  int device = 0;  // CUDA device ordinal
  // Checkpoints spilled to pinned host memory lie at least this many steps apart (two-level
  // schedule), so that each PCIe copy hides behind the computation in between.
  index_t min_host_spacing = 50;
  // Survey gradients and inversions: shots run at once on the device (the engine's lanes, each
  // with its own streams and fields and 1/shots_at_once of the device budget).
  int shots_at_once = 1;
};

// The name before 0.3, kept for one release.
using CudaBudgets [[deprecated("CudaBudgets is DeviceBudgets")]] = DeviceBudgets;

// What the CUDA backend can do (CudaPropagator::capabilities), known without it so that `revwave
// plan` and the tier parser answer for a CUDA run on a machine or build without one: device memory
// with budgets, lanes and a placement report, a pinned host tier, ZFP on the spilled slots only.
inline constexpr BackendCapabilities cuda_capabilities{"CUDA", true, true, false, true};

// The most shots a device runs at once (--shots-at-once): each is a working set and a share of the budget.
inline constexpr int max_shots_at_once = 8;

// What the CUDA run chose and measured, beside the common gradient statistics.
using CudaRunInfo = TierReport;

// Runs `call` (one of backend_calls.hpp's, which cuda/backend instantiates) on a CudaPropagator of
// `problem` on the device `budgets` names.
template <class T, class Call>
typename Call::Result run_on_cuda(const Problem<T>& problem, const DeviceBudgets& budgets, const Call& call);

// Host-memory fields of the grid's size a CUDA run holds (CudaPropagator::working_fields): the
// gradient's interior copies, or the traces' staging; the rest lives on the device. Known without
// the backend, so that `revwave plan` sizes a CUDA run on a machine or build without one.
inline int cuda_working_fields(Workload w) { return w == Workload::gradient ? 2 : 1; }

// The CUDA backend's shot engine (revwave/driver/shot_engine.hpp) on the device `options.budgets` names.
template <class T>
class ShotEngine;
struct EngineOptions;
template <class T>
std::unique_ptr<ShotEngine<T>> make_cuda_shot_engine(const EngineOptions& options);

}  // namespace revwave
