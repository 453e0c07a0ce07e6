// The variable density's point formulas in the free surface's rows (depth k < R of a column),
// written once for the CPU sweeps (density/cpu_sweep.cpp) and the CUDA top-rows pass
// (cuda/kernels/.../density/): the z pairs read the column mirrored across z = 0 (MirroredCross:
// u and lam odd, s and t even), the Laplacian part reads the field as the sweeps do, and
// free_surface_value adds its mirror share (docs/physics/density.md, "With a free surface").
//
// col: the column's linear index at depth 0 (for s and t); u, l: the field at that column's depth 0.
#pragma once
#include "revwave/numerics/boundary/free_surface.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

// K u at depth k as the sweep computes it (the Laplacian's mirror share comes with free_surface_value).
template <class T, int R>
REVWAVE_HD T density_top_operator(const T* w, const T* s, const T* t, index_t col, const T* u, index_t k, index_t sy,
                                  index_t sx) {
  const index_t at = col + k;
  const MirroredCross<T, R> cs(s + at, s + col, k, T(1), sy, sx), cu(u + k, u, k, T(-1), sy, sx);
  return laplacian<T, R>(w, u + k, sy, sx) + t[at] * density_pairs<T, R>(w, cs.centre(), cu.centre(), cs.ly, cs.lx);
}

// The whole (K_eff u)_k, what dJ/drho images.
template <class T, int R>
REVWAVE_HD T density_top_full_operator(const T* w, const T* s, const T* t, index_t col, const T* u, index_t k,
                                       index_t sy, index_t sx) {
  return density_top_operator<T, R>(w, s, t, col, u, k, sy, sx) + free_surface_mirror<T, R>(w, u, k);
}

// K^T lam with y(lam); its Laplacian part reads the field as the sweep does.
template <class T, int R, bool WithY>
REVWAVE_HD DensityAdjoint<T> density_top_adjoint(const T* w, const T* s, const T* t, index_t col, const T* l, index_t k,
                                                 index_t sy, index_t sx) {
  const index_t at = col + k;
  const MirroredCross<T, R> cs(s + at, s + col, k, T(1), sy, sx), ct(t + at, t + col, k, T(1), sy, sx),
      cl(l + k, l, k, T(-1), sy, sx);
  const DensityAdjoint<T> pairs =
      density_adjoint_pairs<T, R, WithY>(w, cs.centre(), ct.centre(), cl.centre(), cs.ly, cs.lx);
  return {laplacian<T, R>(w, l + k, sy, sx) - pairs.value, pairs.y};
}

// The new value at depth k from the column's current and previous values and its operator.
template <class T, int R>
REVWAVE_HD T density_top_update(const StepCoefficients<T>& c, const T* w, const T* column, const T* previous, index_t k,
                                T op, T mk, T eta) {
  const T v = leapfrog_update(c, column[k], previous[k], op, mk, eta);
  return free_surface_value<T, R>(w, column, k, v, leapfrog_a(c, mk, eta));
}

}  // namespace revwave
