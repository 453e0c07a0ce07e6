// The CUDA backend as the rest of revwave sees it: plain C++, no CUDA header.
// Implemented in cuda/ when the backend is built; otherwise a stub throws NotCompiledError.
#pragma once
#include <cstddef>
#include <string>

#include "revwave/core/progress.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_driver.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// Budgets for checkpoint slots per tier; 0 means "derive" (device: what is free after the
// working set, less a margin; host: half the available host memory).
struct CudaBudgets {
  std::size_t device_memory = 0;
  std::size_t host_memory = 0;
  int device = 0;  // CUDA device ordinal
  // Checkpoints spilled to pinned host memory lie at least this many steps apart (two-level
  // schedule), so that each PCIe copy hides behind the computation in between.
  index_t min_host_spacing = 50;
};

// What the CUDA run chose and measured, beside the common gradient statistics.
struct CudaRunInfo {
  index_t device_slots = 0;
  index_t host_slots = 0;
  std::string history_tier;  // strategy full: "device" or "pinned-host"
  std::string tier_choice;   // one sentence: where the checkpoints or the history live, and why
  index_t predicted_forward_steps = 0;  // of the schedule that ran (revolve: it may be two-level)
  double seconds_spill = 0;  // time the compute stream waited on copies to/from pinned host
  StrategyReport report;     // multilevel: the tiers with the costs used, the predicted time
};

template <class T>
ShotData<T> cuda_forward(const Problem<T>& problem, const CudaBudgets& budgets, const Progress& progress = {});

template <class T>
GradientOutput cuda_gradient(const Problem<T>& problem, const T* observed, const StrategyOptions& options,
                             const StrategyPlan& plan, const CudaBudgets& budgets, CudaRunInfo* info = nullptr,
                             const Progress& progress = {});

// The dot-product test of the CUDA forward and adjoint operators (same contract as dot_product_test).
template <class T>
DotProductResult cuda_dot_product_test(const Grid& grid, const VelocityModel& model, const Acquisition& acq,
                                       const TimeAxis& time, unsigned seed, const CudaBudgets& budgets);

}  // namespace revwave
