// Sources and receivers on the device: sampling, injection, the residual with its misfit,
// the adjoint-source injection with its imaging share, and the fold of the gradient to the interior.
//
// Injection is a gather: one thread per distinct grid index touched, applying that index's
// contributions in the CPU's (point, corner) order. Deterministic, no atomics, and each
// index sees exactly the sequence of updates the CPU reference applies to it.
#pragma once
#include <cuda_runtime_api.h>

#include "revwave/numerics/point_formulas.hpp"

namespace revwave {

template <class T>
struct PointsView {
  index_t count = 0;                    // points
  const index_t* index = nullptr;       // 8 per point
  const T* weight = nullptr;            // 8 per point, cast to T as the CPU does
  index_t targets = 0;                  // distinct grid indices among the corners
  const index_t* target_index = nullptr;
  const index_t* target_begin = nullptr;  // targets + 1 offsets into `corner`
  const index_t* corner = nullptr;        // corner ids 8 p + c, ascending per target
};

// out[p] = post_scale * sum_c w_pc field[i_pc]
template <class T>
void launch_sample(const PointsView<T>& pts, const T* field, T* out, T post_scale, cudaStream_t stream);

// field[i_pc] += w_pc * values[p * value_stride] * scale[8 p + c]   (value_stride 0: one value for all)
template <class T>
void launch_inject(const PointsView<T>& pts, const T* values, index_t value_stride, const T* scale, T* field,
                   cudaStream_t stream);

// residual[r] = S u_next - observed; *misfit = 1/2 |residual|^2 in double (fixed-order block reduction).
template <class T>
void launch_residual_misfit(const PointsView<T>& rec, const T* u_next, const T* observed, T* residual, double* misfit,
                            cudaStream_t stream);

// lam += delta = w r scale at each corner, and grad += imaging_term(delta, u_next, u, u_prev) there.
template <class T>
struct ResidualInjection {
  const T* residual = nullptr;
  const T* scale = nullptr;
  T* lam = nullptr;
  T* grad = nullptr;
  const T* u_next = nullptr;
  const T* u = nullptr;
  const T* u_prev = nullptr;
  StepCoefficients<T> c{};
};
template <class T>
void launch_inject_residual(const PointsView<T>& rec, const ResidualInjection<T>& args, cudaStream_t stream);

// E^T g: interior gradient (double, C order) from one on the allocated grid, as fold_to_interior.
struct FoldShape {
  index_t nx = 0, ny = 0, nz = 0;  // interior
  index_t nbl = 0, radius = 0;
  index_t sx = 0, sy = 0;
};
template <class T>
void launch_fold(const FoldShape& shape, const T* padded, double* out, cudaStream_t stream);

}  // namespace revwave
