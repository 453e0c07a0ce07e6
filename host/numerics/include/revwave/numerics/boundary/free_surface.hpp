// The free surface's point formulas, written once for the CPU loops and the CUDA kernels.
//
// The plane z = 0 (padded k = 0: the grid has no layer above it, Grid::free_surface) is
// pressure-free, u = 0, and the field is odd across it: u(-k) = -u(k). The unknowns are the
// points below the plane. There the z part of a stencil of radius R reads the mirror image of the
// field above z = 0, where the sweeps read zeros (the row gap). So a physics computes the top R
// rows of every column with its interior formula (the sweep's value v) and then, before any
// source term, completes them:
//   k = 0:         the new value is 0 (sources and receivers weigh 0 there: sparse_points.cpp);
//   1 <= k < R:    v + M(k) / a, the mirror's share of the spatial operator
//                  M(k) = -sum_{q = k+1}^{R} w[q] u(q - k), divided as the update divides it.
// Every step that applies the operator does so: forward, adjoint, the values at the probes, and
// the fused reverse step, which images those rows with both completed values. The CPU does it in
// its sweeps' rows (acoustic/cpu_sweep.cpp: the first R points of each row, scalar, after the
// vector loop); the CUDA backend in passes after its sweeps (cuda/kernels/.../boundary/); both
// image those rows again from the gradient saved before the sweep. Both give the same bits, and
// every strategy recomputes them.
//
// The operator restricted to the points below the plane has the entries w[|k - k'|] - w[k + k'],
// symmetric in k and k': the adjoint runs the same recurrence, mirror and zero plane alike. The
// dot-product test checks it (tests/driver/test_free_surface.cpp).
#pragma once
#include "revwave/core/config.hpp"

namespace revwave {

// M(k) for the column whose z = 0 value is column[0]; w: the Laplacian's weights (w[q] = c[q] / h^2
// for q >= 1); zero for k >= R.
template <class T, int R>
REVWAVE_HD T free_surface_mirror(const T* w, const T* column, index_t k) {
  T m = 0;
  for (index_t q = k + 1; q <= R; ++q) m += w[q] * column[q - k];
  return -m;
}

// The new value at depth k < R of a column after the sweep gave v there; a: the update's divisor.
template <class T, int R>
REVWAVE_HD T free_surface_value(const T* w, const T* column, index_t k, T v, T a) {
  if (k == 0) return T(0);
  return v + free_surface_mirror<T, R>(w, column, k) / a;
}

}  // namespace revwave
