// The leapfrog sweep on the device: forward, or adjoint with the imaging condition fused in.
// Same contract as cpu_leapfrog_sweep: every padded point, halo untouched, `out` may alias `u_prev`.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/numerics/point_formulas.hpp"

namespace revwave {

inline constexpr int max_radius = 8;

// Kernel arguments, passed by value.
template <class T>
struct SweepArgs {
  const T* u = nullptr;       // u[n] or lam[k+1]
  const T* u_prev = nullptr;  // u[n-1] or lam[k+2]
  T* out = nullptr;           // may alias u_prev
  // Imaging when grad is set: grad += imaging_term(out, fwd_next, fwd, fwd_prev).
  const T* fwd_next = nullptr;
  const T* fwd = nullptr;
  const T* fwd_prev = nullptr;
  T* grad = nullptr;
  const T* m = nullptr;                  // allocated grid
  const T* kx = nullptr;                 // damping rates per padded index
  const T* ky = nullptr;
  const T* kz = nullptr;
  StepCoefficients<T> c{};
  T w[max_radius + 1] = {};              // Laplacian weights, w[0] the centre
  index_t nx = 0, ny = 0, nz = 0;        // padded extents
  index_t sx = 0, sy = 0;                // strides of the allocated grid
};

// Two kernels with the same contract and the same results: columns (sweep_columns.hpp) leaves
// neighbour re-reads to the caches, tiled (sweep_tiled.hpp) stages them in shared memory and
// registers. Columns stays the default until a GPU has measured both (profiling/gpu_bench.cu).
enum class SweepKernel { columns, tiled };

// Launches on `stream`; radius 1..8 (std::logic_error otherwise).
template <class T>
void launch_sweep(const SweepArgs<T>& args, int radius, cudaStream_t stream, SweepKernel kernel = SweepKernel::columns);

}  // namespace revwave
