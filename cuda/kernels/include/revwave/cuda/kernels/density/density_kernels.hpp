// The variable-density physics on the device: its sweeps (K forward, K^T for the dot-product test,
// the reverse step's fused sweep), the free surface's top rows, u[n+1] at the probes, and dJ/drho's
// imaging pass at the end of a reverse step. Same contracts as the CPU's density/cpu_sweep.hpp, by
// the same point formulas (numerics/density/point_formulas.hpp, surface_formulas.hpp), so the same bits.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

// The density's coefficients as every kernel reads them: s, t and the half points' B per axis on
// the allocated grid (DensityFields), and the staggered derivative's weights d_q / h by value
// (q = 1 .. RD, [0] unused), as the Laplacian's travel in SweepArgs.
template <class T>
struct DensityCoefficients {
  const T* s = nullptr;  // rho^(-1/2), scaled
  const T* t = nullptr;  // rho^(1/2)
  const T* b[3] = {};    // z, y, x
  T d[stagger_radius<max_radius> + 1] = {};
  REVWAVE_HD DensityPoint<T> at(index_t idx) const { return {s + idx, t + idx, b[0] + idx, b[1] + idx, b[2] + idx}; }
};

// The constant-density sweep's arguments (fields, m, damping, weights, extents) and the density's.
// Forward: base.u, base.u_prev -> base.out with K, or K^T when `adjoint`. Reverse (base.grad set):
// as SweepArgs, by K and K^T.
template <class T>
struct DensitySweepArgs {
  SweepArgs<T> base;
  DensityCoefficients<T> rho;
  bool adjoint = false;
};

// Every padded point, the halo and the row gaps untouched; base.out may alias u_prev (forward) or
// lam_prev (reverse). With a free surface the top pass below replaces what it writes in the top rows.
template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& args, int radius, cudaStream_t stream);

// --free-surface: the top min(R, nz) rows of every column, as density/cpu_sweep.cpp computes them
// (before the bulk, from whole inputs; written after it): compute reads the sweep's inputs and puts
// the rows' new values in `scratch` (forward/adjoint: out; reverse: lam and grad, each `points()`
// values), write copies them into the fields once the bulk sweep is done.
template <class T>
struct DensityTopPass {
  DensitySweepArgs<T> sweep;
  index_t radius = 0;
  index_t rows = 0;  // min(R, padded nz)
  T* scratch = nullptr;
  REVWAVE_HD index_t points() const { return sweep.base.nx * sweep.base.ny * rows; }
  // Values per point in the scratch: 1 forward or adjoint, 2 reverse.
  REVWAVE_HD index_t values() const { return sweep.base.grad == nullptr ? 1 : 2; }
};
template <class T>
void launch_density_top_compute(const DensityTopPass<T>& args, int radius, cudaStream_t stream);
template <class T>
void launch_density_top_write(const DensityTopPass<T>& args, cudaStream_t stream);

// The probes of a step (ProbeStep's contract, by K; base.free_surface: the top rows' formulas).
template <class T>
struct DensityProbeStep {
  ProbeStep<T> base;
  DensityCoefficients<T> rho;
};
template <class T>
void launch_density_probes(const DensityProbeStep<T>& args, int radius, cudaStream_t stream);

// dJ/drho's share of one reverse step, once lam[n+1] is complete (every boundary's and the adjoint
// source's share in): image += density_image(u[n], lam[n+1]) at every padded point
// (density_image_step's contract), the mirrored formulas in the free surface's top rows.
template <class T>
struct DensityImageStep {
  SweepArgs<T> sweep;  // u = u[n], lam = lam[n+1]; the weights, extents and strides
  DensityCoefficients<T> rho;
  bool free_surface = false;
  T* image = nullptr;  // allocated grid
};
template <class T>
void launch_density_image(const DensityImageStep<T>& args, int radius, cudaStream_t stream);

}  // namespace revwave
