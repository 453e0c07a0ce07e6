// The constant-density acoustic equation as the CPU propagator's physics (cpu_physics.hpp): L is
// symmetric, so the adjoint sweep is the forward one, and m is its only parameter. Its sweeps take
// a boundary's share of each row (RowHook: the C-PML inside the sweep).
#pragma once
#include "revwave/numerics/acoustic/cpu_sweep.hpp"
#include "revwave/numerics/cpu_physics.hpp"

namespace revwave {

template <class T>
class AcousticCpuPhysics final : public CpuPhysics<T> {
 public:
  explicit AcousticCpuPhysics(const Problem<T>& problem) : p_(problem) {}
  void forward_sweep(const T* u, const T* u_prev, T* out) override {
    cpu_leapfrog_sweep<T>(p_, {u, u_prev, out, nullptr, nullptr, nullptr, nullptr, hook_});
  }
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out) override {
    cpu_leapfrog_sweep<T>(p_, {lam, lam_prev, out, nullptr, nullptr, nullptr, nullptr, hook_});
  }
  void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) override {
    cpu_next_at(p_, u, u_prev, index, count, out);
  }
  void reverse_sweep(const ReverseStepView<T>& v) override {
    cpu_reverse_sweep<T>(p_, {v.u, v.u_prev, v.lam, v.lam_prev, v.lam_out, v.grad, hook_});
  }
  bool retarget() override { return true; }  // it keeps nothing of the problem
  bool take_row_hook(const RowHook<T>* hook) override {
    hook_ = hook;
    return true;
  }

 private:
  const Problem<T>& p_;
  const RowHook<T>* hook_ = nullptr;
};

}  // namespace revwave
