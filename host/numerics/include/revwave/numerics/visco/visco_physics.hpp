// The visco-acoustic equation as the CPU propagator's physics (cpu_physics.hpp): each field the
// propagator holds is u on the allocated grid with its three memory variables in its tail
// (Grid::extra_fields), so the state, every checkpoint and a stored history step carry them
// unchanged, and the sources, the receivers and their probes act on u alone. The memory variables
// live at half steps: a field u[n] carries r[n-1/2] (visco_model.hpp).
//
// Its sweeps: the forward, the adjoint (from the combination g made in a pass before:
// point_formulas.hpp), the fused reverse step (u[n+1] recomputed in registers, the adjoint field
// and its memory variables, dJ/dm imaged from u alone: m multiplies u's time derivative only), and
// u's update at probes.
#pragma once
#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/cpu_physics.hpp"

namespace revwave {

template <class T>
class ViscoCpuPhysics final : public CpuPhysics<T> {
 public:
  explicit ViscoCpuPhysics(const Problem<T>& problem);
  void forward_sweep(const T* u, const T* u_prev, T* out) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out) override;
  void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) override;
  void reverse_sweep(const ReverseStepView<T>& step) override;
  bool retarget() override;

 private:
  // g from the adjoint field and its memory variables at every allocated point, in the buffer it
  // returns (zero on a free surface's plane, whose rows apply no operator).
  const T* combine(const T* lam);

  const Problem<T>& p_;
  HostBuffer g_;
};

}  // namespace revwave
