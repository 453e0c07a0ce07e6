// --boundary cpml on the CUDA propagator: a decorator around whichever physics the propagator runs,
// formula for formula what CpmlCpuPhysics does around a CpuPhysics on the CPU
// (numerics/boundary/cpml_physics.hpp). The region's share runs inside the column sweep around the
// constant density without a free surface (in_sweep), else in kernels after the inner sweep; a
// checkpointed reverse step makes u[n+1] again (next_field). Only its profile (per padded index on each axis) and which
// probes lie in the region go up from the host; the kernels find the slab and region points and
// the update's divisor by arithmetic on the layout and m (CpmlTables), so a window's set-up does no
// work the size of its layer on the host. nu and mu of the
// adjoint sit in a buffer of its own (the adjoint is not checkpointed); psi and zeta ride in every
// field's tail (Grid::cpml_values), so every store and history that copies a field's field_bytes
// carries them. Around a variable density it stretches the density's flux form
// (numerics/boundary/cpml_point.hpp) and adds the layer's share of dJ/drho.
#pragma once
#include <functional>
#include <memory>

#include "revwave/cuda/backend/device_physics.hpp"
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
class CpmlDevicePhysics final : public DevicePhysics<T> {
 public:
  // `field_capacity`: bytes of the largest field it steps (an engine's windows). The divisor a is
  // taken from dev's m, which an engine's window cuts from the resident model on the device.
  CpmlDevicePhysics(const Problem<T>& problem, const DeviceProblem<T>& dev, std::unique_ptr<DevicePhysics<T>> inner,
                    std::size_t field_capacity);

  // psi, then the sweep with zeta and C / a inside it (forward), or nu and mu, then the sweep with
  // C' / a inside it (adjoint); without in_sweep(), the inner sweep first and the region's pass after.
  void forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) override;
  // C / a at the probes in the region, added before the sources by the inner probe kernel.
  void probes(const ProbeStep<T>& step, cudaStream_t stream) override;
  // nu and mu, then the sweep completing lam[n+1] and dJ/dm at the region from step.u_next (the
  // layer's u[n+1] needs u[n]'s tail, which a stored history does not keep: the propagator hands
  // it the history's u[n+1], or next_field's). Without in_sweep(): dJ/dm at the region saved, the
  // inner sweep, then the region's completion.
  void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  bool reads_next_field() const override { return true; }
  // u[n+1] by forward_sweep and the injection of step n's sources into a field of its own.
  const T* next_field(index_t n, const T* u, const T* u_prev, cudaStream_t stream) override;
  // The inner's images, then the layer's share of dJ/drho (with a density that images).
  void after_adjoint_source(const DeviceReverseStep<T>& step, cudaStream_t stream) override;
  void reset_adjoint(cudaStream_t stream) override;
  // The inner re-derived, then the profile and the probes' places for the new window (after the
  // steps that read the old ones).
  bool retarget(UploadRing* ring, cudaStream_t stream) override;
  std::vector<double> density_gradient(cudaStream_t stream) override { return inner_->density_gradient(stream); }
  std::optional<DensityCoefficients<T>> density_coefficients() const override { return inner_->density_coefficients(); }
  T* density_image() override { return inner_->density_image(); }
  bool illuminates_in_passing() const override { return inner_->illuminates_in_passing(); }
  void set_sweep_kernel(SweepKernel k) override {
    kernel_ = k;
    inner_->set_sweep_kernel(k);
    size_passes();
  }

 private:
  // Whether the layer's share runs inside the sweep (boundary/cpml_sweep.hpp): around the
  // constant density, with the column sweep, without a free surface (whose rows are completed
  // after the sweep, and the region's share after them). Else the passes after the inner sweep.
  // Up to space order 8 (cpml_sweep_takes); a forward sweep that adds the illumination runs the passes.
  bool in_sweep() const {
    return kernel_ == SweepKernel::columns && !p_.grid.free_surface && t_.ds == nullptr && cpml_sweep_takes(radius_);
  }
  // The tables for the problem as it is now, and the inner's density coefficients when it has them.
  void build();
  // The passes' buffers, held only where a pass reads them (zeroed when made): dJ/dm at the region
  // before the inner sweep (the reverse passes: without in_sweep()) and the reverse step's psi
  // (around a density, for the layer's share of dJ/drho).
  void size_passes();
  // t_ with the device problem's m and damping profiles as they are at this launch.
  CpmlTables<T> tables() const;
  // The density's coefficients on the device (the layer stretches its flux form) and dJ/drho's
  // accumulator when imaging (null otherwise).
  void use_density(const DensityCoefficients<T>& c, T* image);

  const Problem<T>& p_;
  const DeviceProblem<T>& dev_;
  std::unique_ptr<DevicePhysics<T>> inner_;
  int radius_;
  SweepKernel kernel_ = SweepKernel::columns;
  CpmlTables<T> t_;
  DeviceBuffer a_[3], b_[3], d1_, d2_;
  DeviceBuffer probe_region_, share_;
  index_t probes_ = 0;
  DeviceBuffer psi_, adjoint_, grad0_;
  DeviceBuffer next_field_;  // next_field's u[n+1]: a whole field of the capacity, tail included
  DeviceBuffer stagger_;     // the density's staggered weights, as T
  T* image_ = nullptr;       // dJ/drho's accumulator (the density physics')
};

}  // namespace revwave
