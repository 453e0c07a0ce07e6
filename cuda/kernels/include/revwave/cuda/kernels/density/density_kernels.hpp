// The variable-density physics on the device: its sweeps (K forward, K^T for the dot-product test,
// the reverse step's fused sweep with dJ/drho's accumulators when imaging), and its sparse work
// (u[n+1] and K u at the probes, y at the source probes, G re-imaged at the sources, the adjoint
// source's share of G and Q at the receivers). Same contracts as the CPU's density/cpu_sweep.hpp
// and density_physics.cpp, by the same point formulas (numerics/density/point_formulas.hpp).
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

// The constant-density sweep's arguments (fields, m, damping, weights, extents) and the density's.
// Forward: base.u, base.u_prev -> base.out with K, or K^T when `adjoint`. Reverse (base.grad set):
// as SweepArgs, and with image_g set dJ/drho's accumulators too.
template <class T>
struct DensitySweepArgs {
  SweepArgs<T> base;
  const T* s = nullptr;  // rho^(-1/2), allocated grid
  const T* t = nullptr;  // rho^(1/2)
  bool adjoint = false;
  T* image_g = nullptr;
  T* image_q = nullptr;
};

template <class T>
void launch_density_sweep(const DensitySweepArgs<T>& args, int radius, cudaStream_t stream);

// The probes of a reverse step (or of a trace): next = u[n+1] as ProbeStep's; when lam is set (a
// reverse step that images dJ/drho) also k_u = K u[n] at every probe, and at the probes with a
// source term y(lam[n+2]) and G (saved_g) before the sweep.
template <class T>
struct DensityProbeStep {
  ProbeStep<T> base;
  const T* s = nullptr;
  const T* t = nullptr;
  const T* lam = nullptr;      // lam[n+2]; null: no dJ/drho
  const T* image_g = nullptr;
  T* k_u = nullptr;            // per probe
  T* y = nullptr;              // per probe (those with a source term)
  T* saved_g = nullptr;        // per probe (those with a source term)
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

}  // namespace revwave
