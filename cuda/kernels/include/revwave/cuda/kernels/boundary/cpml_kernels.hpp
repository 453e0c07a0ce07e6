// The C-PML's device passes (the CPU's boundary/cpml_physics.cpp, pass for pass): psi over the
// slabs, the forward share C / a at the region's points, the adjoint's nu and mu over the slabs and
// its share C' / a, the share at the probes (psi recomputed), and the reverse step's completion of
// u[n+1], lam[n+1] and dJ/dm near the slabs. The tables (slab and region points, the profile) are
// built on the host once per problem (cpml_device_physics.cpp).
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/core/config.hpp"
#include "revwave/numerics/acoustic/point_formulas.hpp"
#include "revwave/numerics/boundary/cpml_point.hpp"

namespace revwave {

// The per-point tables (numerics/boundary/cpml_point.hpp) in device memory, and the passes' lists.
template <class T>
struct CpmlTables : CpmlPointTables<T> {
  // Every slab point, axis by axis in tail order: its axis, slab offset, grid index and coordinate on the axis.
  index_t slab_count = 0;
  const index_t* slab_axis = nullptr;
  const index_t* slab_offset = nullptr;
  const index_t* slab_index = nullptr;
  const index_t* slab_x = nullptr;
  // The region (points within R of a slab, z = 0 left out under a free surface): grid index,
  // padded coordinates (3 per point) and the update's divisor a.
  index_t region_count = 0;
  const index_t* region_index = nullptr;
  const index_t* region_at = nullptr;
  const T* divisor = nullptr;
};

// forward: psi[n] of every slab point into out's tail (from u[n] and u's tail).
template <class T>
void launch_cpml_psi(const CpmlTables<T>& t, const T* u, T* psi_out, int radius, cudaStream_t stream);
// forward: at every region point zeta[n] into out's tail and out = v + C / a (psi[n] read from out's tail).
template <class T>
void launch_cpml_forward(const CpmlTables<T>& t, const T* u, T* out, int radius, cudaStream_t stream);
// adjoint: nu then mu (adj: the tail-shaped buffer of nu and mu) from lam[k+1].
template <class T>
void launch_cpml_adjoint_passes(const CpmlTables<T>& t, const T* lam, T* adj, int radius, cudaStream_t stream);
// adjoint: out = v' + C' / a at every region point.
template <class T>
void launch_cpml_adjoint(const CpmlTables<T>& t, const T* adj, T* out, int radius, cudaStream_t stream);
// probes: share[p] = C / a at the probes in the region (probe_region[p] >= 0), psi recomputed.
template <class T>
void launch_cpml_probe_share(const CpmlTables<T>& t, index_t probes, const index_t* probe_region, const T* u, T* share,
                             int radius, cudaStream_t stream);

// The reverse step's completion at the region's points (CpmlCpuPhysics::reverse_sweep).
template <class T>
struct CpmlReverse {
  const T* u = nullptr;
  const T* u_prev = nullptr;
  const T* adj = nullptr;     // nu and mu
  const T* u_next = nullptr;  // u[n+1] whole: a stored history's, or made by the forward step's kernels
  const T* grad0 = nullptr;   // per region point: dJ/dm before the sweep
  T* lam_out = nullptr;
  T* grad = nullptr;
  StepCoefficients<T> c;
};
// The layer's share of dJ/drho (CpmlCpuPhysics::after_adjoint_source) added to image at the region's
// points: lam = lam[n+1] complete, adj's nu still nu[n+1], psi = the reverse step's psi[n]. Only
// with a density (t.ds set).
template <class T>
void launch_cpml_density_image(const CpmlTables<T>& t, const T* u, const T* lam, const T* adj, const T* psi, T* image,
                               int radius, cudaStream_t stream);
template <class T>
void launch_cpml_save_gradient(const CpmlTables<T>& t, const T* grad, T* grad0, cudaStream_t stream);
template <class T>
void launch_cpml_reverse(const CpmlTables<T>& t, const CpmlReverse<T>& r, int radius, cudaStream_t stream);

}  // namespace revwave
