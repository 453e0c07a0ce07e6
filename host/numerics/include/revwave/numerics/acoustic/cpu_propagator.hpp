// The CPU reference backend: forward steps, fused reverse (recompute + adjoint + imaging) steps,
// sparse ops, with the sweeps of the problem's physics (cpu_physics.hpp: the constant-density
// acoustic equation, or the variable-density one). It owns the pool of forward fields
// (the state's and the checkpoints' alike), the forward state (u[n], u[n-1]), the adjoint pair,
// the gradient, and the traces it records: a propagator as the drivers see it
// (revwave/driver/propagator.hpp), knowing no misfit, no plan and no schedule.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "revwave/core/backend_capabilities.hpp"
#include "revwave/core/field_pool.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/acoustic/next_field_probes.hpp"
#include "revwave/numerics/cpu_physics.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/workload.hpp"

namespace revwave {

template <class T>
class CpuPropagator {
 public:
  using value_type = T;
  using State = HostState;
  explicit CpuPropagator(const Problem<T>& problem);
  // For a shot engine: fields of `field_capacity` bytes (at least the problem's), so that the
  // propagator can be re-targeted to any window whose fields fit (retarget).
  CpuPropagator(const Problem<T>& problem, std::size_t field_capacity);

  // The problem it was built on now describes another shot (refilled in place by its owner, its
  // fields no larger than the capacity): re-derives what the propagator keeps of it and reuses
  // every buffer. Where the grid's layout changed, the pool's fields are zeroed once (their halos
  // and row gaps must be zero in the new layout); the history is dropped.
  void retarget();
  // Keep the pool's fields when the history is released (an engine reuses them for the next shot).
  void keep_fields(bool keep) { keep_fields_ = keep; }
  // interior_gradient() returns nothing: the owner folds gradient_field() where it keeps its sums.
  void defer_interior_gradient(bool defer) { defer_gradient_ = defer; }

  const Problem<T>& problem() const { return p_; }
  static const char* backend_name() { return "cpu"; }
  // Host memory throughout: no device budgets or lanes, no pinned tier, every codec on its slots.
  static constexpr BackendCapabilities capabilities{"CPU", false, false, true, false, true, true};
  static constexpr StateShape state_shape() { return acoustic_state; }
  // Wavefields of the grid's size a run holds in host memory beside checkpoints and traces.
  static int working_fields(Workload w);

  // ---- forward state ----
  void reset_forward();  // position 0: u[0] = u[-1] = 0
  // Position n -> n+1, injecting q[n]. u[n+1] goes into u[n-1]'s field when the state alone
  // holds it, else (a slot or a copy in flight holds it too) into a free field of the pool.
  void forward_step(index_t n);
  double wavefield_energy() const;  // sum of u[n]^2 over the grid, in a fixed order
  // illumination[i] += u[n]^2 at every interior point i (nx*ny*nz, C order): called after each
  // forward step, it sums the source-side illumination of a sweep (the inversion's preconditioner).
  void add_squared_interior(std::vector<double>& illumination) const;
  HostState& state() { return state_; }
  const HostState& state() const { return state_; }
  // The pool the state's fields come from, for the checkpoint stores that hold them.
  HostFieldPool& field_pool() { return pool_; }
  // Sizes the pool for a store that holds up to `held` fields at once: 2 + held (allocated now;
  // OutOfMemoryError naming the sizes when the host has not that much); `between` hears each field
  // allocated (a progress callback may cancel the run there).
  void reserve_fields(std::int64_t held, const std::function<void()>& between = {});

  // ---- traces: sample n of the receivers, kept here (nt x nrec) until traces() ----
  void record_trace(index_t n);  // S u[n], the current state being at position n
  // S u[n] from the state at position n - 1, without stepping: u[n] at the receivers' corners by
  // the sweep's point formula plus the source terms, the same bits a step and record_trace give.
  void record_next_trace(index_t n);
  std::vector<T> traces(index_t samples) const;  // samples 0..samples-1

  // ---- reverse ----
  void reset_adjoint();  // lam[N+1] = lam[N+2] = 0, gradient = 0
  // The adjoint source r[n] (samples x nrec) the reverse steps inject; kept until the next call.
  void set_adjoint_source(std::vector<T> r);
  // Reverses step n with the state at position n current, in one pass over the grid: u[n+1] is
  // recomputed in registers (never stored), the adjoint steps to lam[n+1] with S^T r[n+1]
  // injected, and the gradient images. The forward state is left as is.
  void reverse_step(index_t n);

  // ---- the stored history (strategy full) ----
  // Holds u[0..N], what the physics' state declares a stored step needs (StateShape): where
  // that is a whole field, the steps write straight into the pool's fields and the history keeps
  // them (no copy); where it is less (a C-PML's auxiliary values left out), each step's u is
  // copied into a history buffer of its own size. Refuses first if it does not fit. Returns the
  // bytes of u[0..N]. `between` hears each field or buffer allocated.
  std::size_t allocate_history(index_t steps, const std::function<void()>& between = {});
  void record_history(index_t n);  // keeps the current u as u[n], n = 0..N
  // The reverse step from u[n], u[n-1] and u[n+1] of the history: the physics reads u[n+1] where it
  // would recompute it from the layer's auxiliary values, and u[n+1] at the probes is read too;
  // the values are the ones a recomputation gives, so every strategy images with the same bits.
  void reverse_step_from_history(index_t n);
  void release_history();
  // Bytes the history copied to another medium: none, it stays in host memory.
  std::uint64_t history_copy_bytes() const { return 0; }
  // One stored step's bytes (allocate_history's choice).
  std::size_t history_step_bytes() const;

  // The adjoint field lam[k] last computed and the gradient on the allocated grid (tests).
  const T* adjoint_field() const { return lam_.template as<T>(); }
  const T* gradient_field() const { return grad_.template as<T>(); }
  // dJ/dm at the interior points (the layer's share folded onto the edge points); empty when deferred.
  std::vector<double> interior_gradient() const;
  // dJ/drho at the interior points when the problem's density images it; empty otherwise.
  std::vector<double> density_gradient() const { return physics_->density_gradient(); }

  // ---- linear adjoint of the modelling operator (dot-product test) ----
  // lam[j] from lam[j+1], lam[j+2] with S^T r[j] injected (the adjoint source as data); records
  // P^T lam[j] per source as source sample j.
  void adjoint_data_step(index_t j);
  std::vector<T> source_traces(index_t samples) const;  // samples 0..samples-1, nt x nsrc

  std::size_t field_bytes() const { return p_.grid.template field_bytes<T>(); }

 private:
  // u[n+1] at every probe from u[n] and u[n-1]: the sweep's point formula, then the source
  // terms of step n in inject_points' order.
  void next_at_probes(index_t n, const T* u, const T* u_prev);
  // The reverse step from u[n] and u[n-1], wherever they live (the state, the history), and u[n+1]
  // when a history holds it (null: recomputed).
  void reverse_from(index_t n, const T* u, const T* u_prev, const T* u_next = nullptr);
  const T* adjoint_source(index_t sample) const;
  T* trace_row(std::vector<T>& rows, index_t sample, index_t width);

  const T* history_field(index_t k) const;
  void derive();                          // what the propagator keeps of the problem (scales, probes)
  std::array<index_t, 6> layout() const;  // allocated and padded extents: where halos lie

  const Problem<T>& p_;
  std::unique_ptr<CpuPhysics<T>> physics_;  // the problem's sweeps and its own images
  std::array<bool, 4> physics_kind_{};      // what make_cpu_physics chose it by: density, VTI, Q, C-PML
  HostFieldPool pool_;                      // first: every handle below goes back to it
  HostState state_;
  std::vector<HostField> history_;  // u[0..N] as the pool's fields, or
  std::vector<HostBuffer> copies_;  // u[0..N] copied, a stored step's bytes each
  HostBuffer lam_, lam_prev_;       // lam[k+1], lam[k+2]
  HostBuffer grad_;
  std::vector<T> src_scale_;       // per corner: 1 / (h^3 a)
  std::vector<T> rec_scale_;       // per corner: 1 / a
  std::vector<T> traces_;          // nt x nrec, as recorded
  std::vector<T> adjoint_source_;  // samples x nrec, as given
  std::vector<T> source_traces_;   // nt x nsrc, P^T lam (dot-product test)
  NextFieldProbes probes_;         // where the reverse step needs u[n+1] outside its sweep
  std::vector<T> next_;            // u[n+1] at the probes
  std::vector<T> saved_grad_;      // the gradient at the source probes before the sweep
  std::array<index_t, 6> layout_{};
  bool keep_fields_ = false;
  bool defer_gradient_ = false;
};

}  // namespace revwave
