// The illumination in passing inside a forward sweep (sweep_columns.hpp): the sweep of step n reads
// the state u[n] at every point anyway, so it adds u[n]^2 into the illumination's sum at the
// interior points: a read and a write of 8 bytes a point, instead of the square-add kernel's same
// read and write plus a read of u and a launch. The sum is add_square's, so are the bits.
#pragma once
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"

namespace revwave::columns {

// Illuminate = false: nothing, at no cost.
template <class T, bool Illuminate>
struct IlluminateWalk {
  REVWAVE_HD IlluminateWalk(const SweepArgs<T>&, index_t, int, int) {}
  REVWAVE_HD void put(T) {}
  REVWAVE_HD void advance() {}
};

// The walk of column (j, k) from plane i_begin: the sum's index of (i, j, k) where the column
// crosses the interior, the planes it is inside in [x_lo, x_hi).
template <class T>
struct IlluminateWalk<T, true> {
  double* sum;
  index_t at, plane, i, x_lo, x_hi;
  bool column_inside;

  REVWAVE_HD IlluminateWalk(const SweepArgs<T>& a, index_t i_begin, int j, int k) {
    const SweepIlluminate& s = a.illuminate;
    const index_t y = j - s.lo[1], z = k - s.lo[2];
    column_inside = y >= 0 && y < s.shape[1] && z >= 0 && z < s.shape[2];
    sum = s.sum;
    plane = s.shape[1] * s.shape[2];
    i = i_begin;
    x_lo = s.lo[0];
    x_hi = s.lo[0] + s.shape[0];
    at = ((i_begin - s.lo[0]) * s.shape[1] + y) * s.shape[2] + z;  // an index only where inside
  }
  REVWAVE_HD void put(T u0) {
    if (column_inside && i >= x_lo && i < x_hi) sum[at] = add_square(sum[at], static_cast<double>(u0));
  }
  REVWAVE_HD void advance() {
    ++i;
    at += plane;
  }
};

}  // namespace revwave::columns
