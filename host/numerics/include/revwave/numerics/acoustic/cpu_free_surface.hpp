// The constant-density acoustic step's free-surface passes on the CPU (boundary/free_surface.hpp):
// over the top R rows of every column, after the sweep and its source term (the fused reverse
// step: after the sweep, before the adjoint source). Each is a no-op unless the grid has a free surface.
#pragma once
#include <cstddef>
#include <vector>

#include "revwave/numerics/problem.hpp"

namespace revwave {

// A forward or adjoint step: out holds the sweep's values from u and the sources'; completes them at the top rows.
template <class T>
void cpu_free_surface_step(const Problem<T>& p, const T* u, T* out);

// values[q], the sweep's and the sources' value from u at padded index index[q], completed where
// it lies in the top rows.
template <class T>
void cpu_free_surface_at(const Problem<T>& p, const T* u, const index_t* index, std::size_t count, T* values);

// The fused reverse step: `saved` takes the gradient at the top rows before the sweep; after it,
// u[n+1] is recomputed there from (u, u_prev), lam_out completed from lam, and the gradient imaged
// again from `saved` with both whole values: what the two-pass step gives.
template <class T>
void cpu_free_surface_save(const Problem<T>& p, const T* grad, std::vector<T>& saved);
template <class T>
void cpu_free_surface_reverse(const Problem<T>& p, const T* u, const T* u_prev, const T* lam, T* lam_out, T* grad,
                              const std::vector<T>& saved);

}  // namespace revwave
