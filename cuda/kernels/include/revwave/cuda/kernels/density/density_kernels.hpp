// The variable-density physics on the device: its sweeps (K forward, K^T for the dot-product test,
// the reverse step's fused sweep with dJ/drho's accumulators when imaging), the free surface's top
// rows, and its sparse work (u[n+1] and K u at the probes, y at the source probes, G re-imaged at
// the sources, the adjoint source's share of G and Q at the receivers). Same contracts as the
// CPU's density/cpu_sweep.hpp and density_physics.cpp, by the same point formulas
// (numerics/density/point_formulas.hpp, surface_formulas.hpp), so the same bits.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"

namespace revwave {

// The constant-density sweep's arguments (fields, m, damping, weights, extents) and the density's.
// Forward: base.u, base.u_prev -> base.out with K, or K^T when `adjoint`. Reverse (base.grad set):
// as SweepArgs, and with image_g set dJ/drho's accumulators too:
//   image_g += lam[n+1] K u[n] - s u[n+1] y(lam[n+2]),  image_q += lam[n+1] u[n].
template <class T>
struct DensitySweepArgs {
  SweepArgs<T> base;
  const T* s = nullptr;  // rho^(-1/2), allocated grid
  const T* t = nullptr;  // rho^(1/2)
  bool adjoint = false;
  T* image_g = nullptr;
  T* image_q = nullptr;
};

// Every padded point, the halo and the row gaps untouched; base.out may alias u_prev (forward) or
// lam_prev (reverse). With a free surface the top pass below replaces what it writes in the top rows.
template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& args, int radius, cudaStream_t stream);

// --free-surface: the top min(R, nz) rows of every column, as density/cpu_sweep.cpp computes them
// (before the bulk, from whole inputs; written after it): compute reads the sweep's inputs and puts
// the rows' new values in `scratch` (forward/adjoint: out; reverse: lam, grad and, imaging, G and
// Q, each `points()` values), write copies them into the fields once the bulk sweep is done.
template <class T>
struct DensityTopPass {
  DensitySweepArgs<T> sweep;
  index_t radius = 0;
  index_t rows = 0;  // min(R, padded nz)
  T* scratch = nullptr;
  REVWAVE_HD index_t points() const { return sweep.base.nx * sweep.base.ny * rows; }
  // Values per point in the scratch: 1 forward or adjoint, 2 reverse, 4 reverse imaging dJ/drho.
  REVWAVE_HD index_t values() const { return sweep.base.grad == nullptr ? 1 : sweep.image_g != nullptr ? 4 : 2; }
};
template <class T>
void launch_density_top_compute(const DensityTopPass<T>& args, int radius, cudaStream_t stream);
template <class T>
void launch_density_top_write(const DensityTopPass<T>& args, cudaStream_t stream);

// The probes of a step (ProbeStep's contract, by K; base.free_surface: the top rows' formulas);
// when lam is set (a reverse step that images dJ/drho) also k_u = K u[n] at every probe (the whole
// K_eff u in the surface's rows), and at the probes with a source term y(lam[n+2]) and G before
// the sweep (saved_g).
template <class T>
struct DensityProbeStep {
  ProbeStep<T> base;
  const T* s = nullptr;
  const T* t = nullptr;
  const T* lam = nullptr;  // lam[n+2]; null: no dJ/drho
  const T* image_g = nullptr;
  T* k_u = nullptr;      // per probe
  T* y = nullptr;        // per probe (those with a source term)
  T* saved_g = nullptr;  // per probe (those with a source term)
};
template <class T>
void launch_density_probes(const DensityProbeStep<T>& args, int radius, cudaStream_t stream);

// After the sweep, at the probes with a source term: G = saved_g + density_image_g(lam[n+1], K u,
// s, u[n+1] whole, y) (DensityCpuPhysics::reverse_sweep's re-imaging).
template <class T>
struct DensityReimage {
  const T* lam = nullptr;  // lam[n+1] as the sweep wrote it
  const T* s = nullptr;
  const T* next = nullptr;
  const T* k_u = nullptr;
  const T* y = nullptr;
  const T* saved_g = nullptr;
  T* image_g = nullptr;
};
template <class T>
void launch_density_reimage(const ProbesView& probes, const DensityReimage<T>& args, cudaStream_t stream);

// After the adjoint source's injection: at each receiver target, its corners in order, G += delta
// K u (from the target's probe) and Q += delta u[n], delta = w r scale (as the injection's).
template <class T>
struct DensityAdjointSourceImages {
  const T* source = nullptr;  // r[n+1]
  const T* scale = nullptr;
  const index_t* target_probe = nullptr;
  const T* k_u = nullptr;
  const T* u = nullptr;
  T* image_g = nullptr;
  T* image_q = nullptr;
};
template <class T>
void launch_density_adjoint_source(const PointsView<T>& rec, const DensityAdjointSourceImages<T>& args,
                                   cudaStream_t stream);

// For a boundary that completes lam[n+1] and u[n+1] after the sweep at its points (the C-PML's
// region, `points`, no source terms): keep copies G and Q there before the sweep (kept_g, kept_q);
// reimage takes them again after the completion (DensityCpuPhysics::keep_images_at, reimage_at):
//   G = kept_g + density_image_g(lam[n+1], K u[n], s, u[n+1], y(lam[n+2])),  Q = kept_q + lam[n+1] u[n],
// K u and y by the probes' formulas (the surface's rows with free_surface).
template <class T>
struct DensityRegionImages {
  SweepArgs<T> sweep;  // u = u[n], lam = lam[n+2]; the weights and strides
  const T* s = nullptr;
  const T* t = nullptr;
  bool free_surface = false;
  ProbesView points;
  const T* lam_out = nullptr;  // lam[n+1], completed
  const T* u_next = nullptr;   // per point: u[n+1], completed
  T* kept_g = nullptr;         // per point
  T* kept_q = nullptr;         // per point
  T* image_g = nullptr;
  T* image_q = nullptr;
};
template <class T>
void launch_density_keep_images(const DensityRegionImages<T>& args, cudaStream_t stream);
template <class T>
void launch_density_region_reimage(const DensityRegionImages<T>& args, int radius, cudaStream_t stream);

}  // namespace revwave
