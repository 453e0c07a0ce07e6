// The variable-density equation as the CPU propagator's physics (cpu_physics.hpp): K forward, its
// transpose in the adjoint, and, when the problem asks (DensityFields::image), dJ/drho imaged
// beside dJ/dm: a pass at the end of every reverse step, when lam[n+1] is complete (every
// boundary's and the adjoint source's share in) and u[n] is still at hand, into one accumulator
// that becomes the gradient once at the end (density_gradient.hpp).
#pragma once
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/cpu_physics.hpp"

namespace revwave {

template <class T>
class DensityCpuPhysics final : public CpuPhysics<T> {
 public:
  explicit DensityCpuPhysics(const Problem<T>& problem);
  void forward_sweep(const T* u, const T* u_prev, T* out) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out) override;
  void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) override;
  void reverse_sweep(const ReverseStepView<T>& step) override;
  void after_adjoint_source(const ReverseStepView<T>& step) override;
  void reset_images() override;
  std::vector<double> density_gradient() const override;
  T* density_image() override { return imaging() ? image_.template as<T>() : nullptr; }

 private:
  bool imaging() const { return p_.density->image; }

  const Problem<T>& p_;
  HostBuffer image_;  // dJ/drho's accumulator on the allocated grid, when imaging
};

}  // namespace revwave
