// The CPU reference backend: forward steps, reverse (adjoint + imaging) steps, sparse ops.
// It owns the forward state (u[n], u[n-1]), the adjoint pair and the gradient.
#pragma once
#include <memory>
#include <vector>

#include "revwave/core/host_buffer.hpp"
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
  void forward_step(index_t n);     // position n -> n+1, injecting q[n]
  void sample(T* out) const;        // receivers of the current u[n]
  double wavefield_energy() const;  // sum of u[n]^2 over the grid, in a fixed order
  HostState& state() { return state_; }
  const HostState& state() const { return state_; }

  // ---- reverse ----
  void reset_adjoint();  // lam[N+1] = lam[N+2] = 0, gradient = 0
  // Reverses step n with the state at position n current: recomputes u[n+1],
  // injects the residual S u[n+1] - d[n+1], steps the adjoint to lam[n+1] and
  // images. Returns 1/2 |S u[n+1] - d[n+1]|^2. The forward state is left as is.
  double reverse_step(index_t n, const T* observed_next);
  // The same with u[n+1], u[n], u[n-1] supplied.
  double reverse_step_from(index_t n, const T* u_next, const T* u, const T* u_prev, const T* observed_next);

  // ---- the stored history (strategy full) ----
  // Allocates room for u[1..N] in host memory; refuses first if it does not fit. Returns its bytes.
  std::size_t allocate_history(index_t steps);
  void record_history(index_t n);  // keeps the current u as u[n]
  double reverse_step_from_history(index_t n, const T* observed_next);
  void release_history();

  // dJ/dm at the interior points (the layer's share folded onto the edge points).
  std::vector<double> interior_gradient() const;

  // ---- linear adjoint of the modelling operator (dot-product test) ----
  // lam[j] from lam[j+1], lam[j+2] with r[j] = S^T data_j injected; writes P^T lam[j] per source.
  void adjoint_data_step(const T* data_j, T* source_out);

  std::size_t field_bytes() const { return p_.grid.template field_bytes<T>(); }

 private:
  void inject_residual(const T* residual, const T* u_next, const T* u, const T* u_prev);

  const T* history_field(index_t k) const;

  const Problem<T>& p_;
  HostState state_;
  std::vector<HostBuffer> history_;  // u[1..N]
  HostBuffer scratch_;            // u[n+1] during a reverse step
  HostBuffer lam_, lam_prev_;     // lam[k+1], lam[k+2]
  HostBuffer grad_;
  std::vector<T> src_scale_;      // per corner: 1 / (h^3 a)
  std::vector<T> rec_scale_;      // per corner: 1 / a
  std::vector<T> residual_;
};

// Interior gradient from one on the allocated grid: E^T g, E the edge-copy extension.
template <class T>
std::vector<double> fold_to_interior(const Grid& grid, const T* padded_gradient);

}  // namespace revwave
