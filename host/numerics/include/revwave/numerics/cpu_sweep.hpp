// The CPU leapfrog sweep over the padded grid: blocked in y, vectorised along z, OpenMP over blocks.
#pragma once
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
struct SweepFields {
  const T* u = nullptr;       // field the stencil is applied to (u[n] or lam[k+1])
  const T* u_prev = nullptr;  // u[n-1] or lam[k+2]
  T* out = nullptr;           // result; may alias u_prev (the update is point-wise in it)
  // Imaging condition, when grad is set: grad += imaging_term(out, fwd_next, fwd, fwd_prev).
  const T* fwd_next = nullptr;
  const T* fwd = nullptr;
  const T* fwd_prev = nullptr;
  T* grad = nullptr;
};

template <class T>
void cpu_leapfrog_sweep(const Problem<T>& problem, const SweepFields<T>& fields);

}  // namespace revwave
