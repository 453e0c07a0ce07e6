// The free surface on the device (host/numerics/.../boundary/free_surface.hpp): the constant-density
// acoustic step's passes over the top R rows of every column, as cpu_free_surface.hpp runs them on
// the CPU, with the same point formulas (so the same bits). The probes' share is in the probe
// kernel (ProbeStep::free_surface).
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave {

// Kernel arguments, by value. s: the sweep's constants (m, damping, weights, extents, strides).
// Step: out (the sweep's values from `field`, before the sources) completed at the top rows.
// Save: saved <- grad at the top rows. Reverse: u[n+1] recomputed from (u, u_prev), lam_out
// completed from lam, grad = saved + the imaging term with both whole values.
template <class T>
struct FreeSurfacePass {
  SweepArgs<T> s;
  index_t radius = 0;  // R, the halo's width
  index_t rows = 0;    // min(R, padded nz)
  const T* field = nullptr;
  T* out = nullptr;
  const T* u_prev = nullptr;  // reverse
  const T* lam = nullptr;     // reverse
  T* grad = nullptr;          // save (read), reverse (written)
  T* saved = nullptr;         // save (written), reverse (read): padded nx x ny x rows values
  REVWAVE_HD index_t points() const { return s.nx * s.ny * rows; }
};

template <class T>
void launch_free_surface_step(const FreeSurfacePass<T>& a, int radius, cudaStream_t stream);
template <class T>
void launch_free_surface_save(const FreeSurfacePass<T>& a, cudaStream_t stream);
template <class T>
void launch_free_surface_reverse(const FreeSurfacePass<T>& a, int radius, cudaStream_t stream);

}  // namespace revwave
