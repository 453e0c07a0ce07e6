// The CPU reference backend: forward steps, fused reverse (recompute + adjoint + imaging) steps, sparse ops.
// It owns the pool of forward fields (the state's and the checkpoints' alike), the forward state
// (u[n], u[n-1]), the adjoint pair and the gradient.
#pragma once
#include <memory>
#include <vector>

#include "revwave/core/field_pool.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/next_field_probes.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
class CpuPropagator {
 public:
  using value_type = T;
  explicit CpuPropagator(const Problem<T>& problem);

  const Problem<T>& problem() const { return p_; }
  static const char* backend_name() { return "cpu"; }

  // ---- forward state ----
  void reset_forward();             // position 0: u[0] = u[-1] = 0
  // Position n -> n+1, injecting q[n]. u[n+1] goes into u[n-1]'s field when the state alone
  // holds it, else (a slot or a copy in flight holds it too) into a free field of the pool.
  void forward_step(index_t n);
  void sample(T* out) const;        // receivers of the current u[n]
  double wavefield_energy() const;  // sum of u[n]^2 over the grid, in a fixed order
  // illumination[i] += u[n]^2 at every interior point i (nx*ny*nz, C order): called after each
  // forward step, it sums the source-side illumination of a sweep (the inversion's preconditioner).
  void add_squared_interior(std::vector<double>& illumination) const;
  HostState& state() { return state_; }
  const HostState& state() const { return state_; }
  // The pool the state's fields come from, for the checkpoint stores that hold them.
  HostFieldPool& field_pool() { return pool_; }
  // Sizes the pool for a store that holds up to `held` fields at once: 2 + held (allocated now;
  // OutOfMemoryError naming the sizes when the host has not that much).
  void reserve_fields(std::int64_t held);

  // ---- reverse ----
  void reset_adjoint();  // lam[N+1] = lam[N+2] = 0, gradient = 0, no misfit recorded
  // Reverses step n with the state at position n current, in one pass over the grid: u[n+1]
  // is recomputed in registers (never stored), the adjoint steps to lam[n+1] with the residual
  // S u[n+1] - d[n+1] injected, and the gradient images. Returns 1/2 |S u[n+1] - d[n+1]|^2.
  // The forward state is left as is. The misfit is also recorded as sample n+1's.
  double reverse_step(index_t n, const T* observed_next);
  // The misfits the reverse steps recorded for samples 0..count-1 (0 where none was).
  std::vector<double> sample_misfits(index_t count) const;

  // ---- the stored history (strategy full) ----
  // Sizes the pool for u[0..N] (the steps write straight into it); refuses first if it does
  // not fit. Returns the bytes of u[1..N].
  std::size_t allocate_history(index_t steps);
  void record_history(index_t n);  // keeps the current u (a handle, not a copy) as u[n], n = 0..N
  // The reverse step from u[n], u[n-1] of the history: u[n+1] is recomputed as by every other
  // strategy (not read back), so all strategies image with the same bits.
  double reverse_step_from_history(index_t n, const T* observed_next);
  void release_history();
  // Bytes the history copied to another medium: none, it is the pool's fields.
  std::uint64_t history_copy_bytes() const { return 0; }

  // The adjoint field lam[k] last computed and the gradient on the allocated grid (tests).
  const T* adjoint_field() const { return lam_.template as<T>(); }
  const T* gradient_field() const { return grad_.template as<T>(); }
  // dJ/dm at the interior points (the layer's share folded onto the edge points).
  std::vector<double> interior_gradient() const;

  // ---- linear adjoint of the modelling operator (dot-product test) ----
  // lam[j] from lam[j+1], lam[j+2] with r[j] = S^T data_j injected; writes P^T lam[j] per source.
  void adjoint_data_step(const T* data_j, T* source_out);

  std::size_t field_bytes() const { return p_.grid.template field_bytes<T>(); }

 private:
  // The reverse step from u[n] and u[n-1], wherever they live (the state, the history).
  double reverse_from(index_t n, const T* u, const T* u_prev, const T* observed_next);

  const T* history_field(index_t k) const;

  const Problem<T>& p_;
  HostFieldPool pool_;               // first: every handle below goes back to it
  HostState state_;
  std::vector<HostField> history_;  // u[0..N]
  HostBuffer lam_, lam_prev_;     // lam[k+1], lam[k+2]
  HostBuffer grad_;
  std::vector<T> src_scale_;      // per corner: 1 / (h^3 a)
  std::vector<T> rec_scale_;      // per corner: 1 / a
  std::vector<T> residual_;
  std::vector<double> misfits_;   // per sample, as the reverse steps recorded them
  NextFieldProbes probes_;        // where the reverse step needs u[n+1] outside its sweep
  std::vector<T> next_;           // u[n+1] at the probes
  std::vector<T> saved_grad_;     // the gradient at the source probes before the sweep
};

// Interior gradient from one on the allocated grid: E^T g, E the edge-copy extension.
template <class T>
std::vector<double> fold_to_interior(const Grid& grid, const T* padded_gradient);

}  // namespace revwave
