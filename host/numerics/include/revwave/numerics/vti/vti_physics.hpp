// The pseudo-acoustic VTI pair as the CPU propagator's physics (cpu_physics.hpp), in (p, d = p - q)
// (vti_model.hpp): each field the propagator holds is p on the allocated grid with d in its tail
// (Grid::extra_fields), so the state, every checkpoint and a stored history step carry the pair
// unchanged, and the sources, the receivers and their probes act on p alone, as they do on u.
//
// Its sweeps: the forward (K), the adjoint (K^T, from three combinations of the adjoint pair made in
// a pass before: point_formulas.hpp), the fused reverse step (both recomputed fields in registers,
// both adjoint rows, dJ/dm imaged from both fields: m multiplies both rows' time derivative), and
// p's update at probes. The propagator images dJ/dm again at the sources' points from p's whole
// u[n+1]; after_adjoint_source adds d's share there, which has no source term.
#pragma once
#include <array>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/cpu_physics.hpp"

namespace revwave {

template <class T>
class VtiCpuPhysics final : public CpuPhysics<T> {
 public:
  explicit VtiCpuPhysics(const Problem<T>& problem);
  void forward_sweep(const T* u, const T* u_prev, T* out) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out) override;
  void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) override;
  void reverse_sweep(const ReverseStepView<T>& step) override;
  void after_adjoint_source(const ReverseStepView<T>& step) override;
  bool retarget() override;

 private:
  // g1, g2, g3 from the adjoint pair at every allocated point, in the physics' buffers it returns.
  std::array<const T*, 3> combine(const T* lam);

  const Problem<T>& p_;
  HostBuffer g_[3];  // the transpose's combinations, one allocated grid each
};

}  // namespace revwave
