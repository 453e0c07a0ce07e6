// The point-wise numerics, written once for the CPU loops and the CUDA kernels.
//
//   a u[n+1] = (2 m/dt^2 + L) u[n] - b u[n-1] + q[n],
//   a = m/dt^2 + eta/(2 dt),  b = m/dt^2 - eta/(2 dt).
// The adjoint runs the same recurrence backwards, so one update serves both.
#pragma once
#include "revwave/core/config.hpp"

namespace revwave {

template <class T>
struct StepCoefficients {
  T inv_dt2;      // 1/dt^2
  T half_inv_dt;  // 1/(2 dt)
  T damping_m0;   // the fixed squared slowness that turns kappa (1/s) into eta (s/m^2)
};

// eta at a point, from the three 1D rate profiles (1/s).
template <class T>
REVWAVE_HD T damping_eta(const StepCoefficients<T>& c, T kx, T ky, T kz) {
  return c.damping_m0 * (kx + ky + kz);
}

template <class T>
REVWAVE_HD T leapfrog_a(const StepCoefficients<T>& c, T m, T eta) {
  return m * c.inv_dt2 + eta * c.half_inv_dt;
}

// L u at one point: the centre weight w[0] (already 3 c0 / h^2), then the three axes pairwise,
// nearest first, in the order z, y, x. Each axis's neighbours may live apart (registers, shared
// memory, the field): those at distance q are z[q*sz] and z[-q*sz], and so on. The summation
// order is what makes every sweep bit-identical to the CPU's, so it exists only here. Strides
// are index_t, or int where a kernel keeps its in-plane offsets in 32 bits.
template <class T, int R, class Stride = index_t>
REVWAVE_HD T laplacian_axes(const T* w, T centre, const T* z, Stride sz, const T* y, Stride sy, const T* x, Stride sx) {
  T lap = w[0] * centre;
#pragma unroll
  for (int q = 1; q <= R; ++q)
    lap += w[q] * ((z[q * sz] + z[-q * sz]) + (y[q * sy] + y[-q * sy]) + (x[q * sx] + x[-q * sx]));
  return lap;
}

// L u at one point of a field with strides (1, sy, sx).
template <class T, int R, class Stride = index_t>
REVWAVE_HD T laplacian(const T* w, const T* u, Stride sy, Stride sx) {
  return laplacian_axes<T, R, Stride>(w, u[0], u, Stride(1), u, sy, u, sx);
}

// New value from the centre value, the previous value, L applied at the point, m and eta.
template <class T>
REVWAVE_HD T leapfrog_update(const StepCoefficients<T>& c, T u, T u_prev, T lap, T m, T eta) {
  const T m_dt2 = m * c.inv_dt2;
  const T damp = eta * c.half_inv_dt;
  return (T(2) * m_dt2 * u + lap - (m_dt2 - damp) * u_prev) / (m_dt2 + damp);
}

// The imaging condition's share of one step: -lam[n+1] (u[n+1] - 2 u[n] + u[n-1]) / dt^2.
template <class T>
REVWAVE_HD T imaging_term(const StepCoefficients<T>& c, T lam, T u_next, T u, T u_prev) {
  return -lam * ((u_next - T(2) * u + u_prev) * c.inv_dt2);
}

}  // namespace revwave
