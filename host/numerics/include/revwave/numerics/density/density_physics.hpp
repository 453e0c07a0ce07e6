// The variable-density equation as the CPU propagator's physics (cpu_physics.hpp): K forward, its
// transpose in the adjoint, and, when the problem asks (DensityFields::image), dJ/drho imaged
// beside dJ/dm: two accumulators over the reverse sweep, corrected where u[n+1] carries a source
// term and where the adjoint source enters, and turned into the gradient once at the end
// (density_gradient.hpp). A boundary that completes lam[n+1] and u[n+1] after the sweep (the
// C-PML) has G and Q taken again at its points from their values before it.
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
  bool keep_images_at(const index_t* index, std::size_t count) override;
  void reimage_at(const ReverseStepView<T>& step, const T* u_next) override;
  void reset_images() override;
  std::vector<double> density_gradient() const override;

 private:
  bool imaging() const { return p_.density->image; }

  const Problem<T>& p_;
  HostBuffer image_g_, image_q_;       // dJ/drho's accumulators on the allocated grid, when imaging
  std::vector<T> k_u_;                 // K u[n] at every probe, this reverse step's
  std::vector<index_t> source_index_;  // the grid index of each probe with a source term
  std::vector<T> y_, saved_g_;         // there: y(lam[n+2]), and G before the sweep
  const index_t* kept_ = nullptr;      // keep_images_at's indices (a boundary's), and there:
  std::vector<T> kept_g_, kept_q_;     //   G and Q before the sweep,
  std::vector<T> kept_k_u_, kept_y_;   //   K u[n] and y(lam[n+2])
};

}  // namespace revwave
