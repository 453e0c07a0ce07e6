// The variable density's point formulas in the free surface's rows (depth k < R of a column),
// written once for the CPU sweeps (density/cpu_sweep.cpp) and the CUDA top-rows pass
// (cuda/kernels/.../density/): the fluxes along z read the column mirrored across z = 0
// (MirroredDensityZ: u and lam odd, s, t and B even), and L(v) reads the field as the sweeps do,
// its mirror share M(v) apart, as free_surface_value adds the constant density's: with s = t = 1
// the bits are the constant-density free surface's (docs/physics/density.md, "With a free surface").
//
// c: the point's coefficients, f: the field, both at the point (depth k of its column).
#pragma once
#include "revwave/numerics/boundary/free_surface.hpp"
#include "revwave/numerics/density/point_formulas.hpp"

namespace revwave {

// outer (L_sweep(v) - fluxes), and outer M(v), M(v) = -sum_{q > k} w_q v(depth q - k).
template <class T>
struct DensityTopValue {
  T op;
  T mirror;
};

template <class T, int R, bool Adjoint>
REVWAVE_HD DensityTopValue<T> density_top_apply(const T* w, const T* d, const DensityPoint<T>& c, const T* f, index_t k,
                                                index_t sy, index_t sx) {
  const DensityTaps<T, Adjoint> taps{f, c.s, c.t};
  const DensityAxis<T, Adjoint> z{taps, c.bz, 1}, y{taps, c.by, sy}, x{taps, c.bx, sx};
  const MirroredDensityZ<T, Adjoint> zm{taps, c.bz, k};
  const T tk = c.t[0];
  T flux = density_axis_flux<T, R>(d, zm, tk);
  flux += density_axis_flux<T, R>(d, y, tk);
  flux += density_axis_flux<T, R>(d, x, tk);
  const T lap = density_laplacian<T, R>(w, z, y, x) - flux;
  T m = T(0);
  for (index_t q = k + 1; q <= R; ++q) m += w[q] * z.v(static_cast<int>(q - 2 * k));
  const T outer = Adjoint ? c.s[0] : c.t[0];
  return {outer * lap, outer * -m};
}

// The new value at depth k from the point's current and previous values and its operator: 0 on
// the plane, else the update of op completed by the mirror's share, divided as the update divides.
template <class T>
REVWAVE_HD T density_top_update(const StepCoefficients<T>& c, T u, T u_prev, index_t k, const DensityTopValue<T>& v,
                                T mk, T eta) {
  if (k == 0) return T(0);
  return leapfrog_update(c, u, u_prev, v.op, mk, eta) + v.mirror / leapfrog_a(c, mk, eta);
}

// K u or K^T lam at depth k as a whole (the sweep's value and the mirror's share together).
template <class T, int R, bool Adjoint>
REVWAVE_HD T density_top_operator(const T* w, const T* d, const DensityPoint<T>& c, const T* f, index_t k, index_t sy,
                                  index_t sx) {
  const DensityTopValue<T> v = density_top_apply<T, R, Adjoint>(w, d, c, f, k, sy, sx);
  return v.op + v.mirror;
}

}  // namespace revwave
