// The CPU leapfrog sweeps over the padded grid: blocked in y, vectorised along z, OpenMP over
// blocks. With a free surface each row's first R points then take the mirror's share
// (boundary/free_surface.hpp), u = 0 on the plane, after the vector loop over the row. The forward sweep (also the adjoint of the dot-product test), and the reverse step's
// fused sweep, which recomputes u[n+1] in registers, steps the adjoint and images in one pass.
#pragma once
#include <cstddef>
#include <memory>

#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/reverse_fields.hpp"

namespace revwave {

// A boundary's share of every row of a sweep, done in the sweep's row loop right after the row's
// own values, while the row's stencil planes are still in cache: the C-PML inside the sweep
// (boundary/cpml_physics.hpp). rows() is called once per thread per sweep; that thread's rows then
// go through its object in turn, so its scratch is its own.
template <class T>
class RowHook {
 public:
  class Rows {
   public:
    virtual ~Rows() = default;
    // Before the reverse sweep writes row (i, j): what it will overwrite and the hook reads (dJ/dm).
    virtual void before(index_t i, index_t j) = 0;
    // Where the reverse sweep leaves row (i, j)'s u[n+1] (the forward sweep's value, the same bits),
    // one value per padded z; null: nowhere.
    virtual T* next_row() = 0;
    // After the sweep wrote row (i, j), the free surface's rows completed.
    virtual void after(index_t i, index_t j) = 0;
  };
  virtual ~RowHook() = default;
  virtual std::unique_ptr<Rows> rows() const = 0;
};

template <class T>
struct SweepFields {
  const T* u = nullptr;       // field the stencil is applied to (u[n] or lam[k+1])
  const T* u_prev = nullptr;  // u[n-1] or lam[k+2]
  T* out = nullptr;           // result; may alias u_prev (the update is point-wise in it)
  // Imaging condition, when grad is set: grad += imaging_term(out, fwd_next, fwd, fwd_prev).
  // The two-pass form of the reverse step, kept as the reference the CUDA kernels are tested against.
  const T* fwd_next = nullptr;
  const T* fwd = nullptr;
  const T* fwd_prev = nullptr;
  T* grad = nullptr;
  const RowHook<T>* hook = nullptr;  // a boundary's share of each row (not with grad)
};

template <class T>
void cpu_leapfrog_sweep(const Problem<T>& problem, const SweepFields<T>& fields);

// One reverse step's sweep: at every padded point
//   u_next = leapfrog_update(u, u_prev)                    (u[n+1], in registers only)
//   lam_out = leapfrog_update(lam, lam_prev)               (lam[n+1] from lam[n+2], lam[n+3])
//   grad += imaging_term(lam_out, u_next, u, u_prev)
// Reads u and lam (stencils), u_prev, lam_prev, m and grad; writes lam_out and grad: 32 bytes a
// point in float. u_next lacks the source term: where a source injects, the caller redoes the
// imaging with u[n+1] from cpu_next_at plus the source (CpuPropagator::reverse_step).
template <class T>
struct ReverseSweepFields : ReverseFields<T> {
  const RowHook<T>* hook = nullptr;  // a boundary's share of each row
};

template <class T>
void cpu_reverse_sweep(const Problem<T>& problem, const ReverseSweepFields<T>& fields);

// The forward sweep's value at `count` padded-point indices (u[n+1] there before any source
// term), by the same point formula in the same floating-point mode, so the same bits.
template <class T>
void cpu_next_at(const Problem<T>& problem, const T* u, const T* u_prev, const index_t* index, std::size_t count,
                 T* out);

}  // namespace revwave
