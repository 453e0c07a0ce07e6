#include "revwave/cuda/backend/device_physics.hpp"

#include "revwave/cuda/backend/density_device_physics.hpp"

namespace revwave {
namespace {

// The constant-density acoustic equation: L is symmetric, so its adjoint sweep is the forward one.
template <class T>
class AcousticDevicePhysics final : public DevicePhysics<T> {
 public:
  AcousticDevicePhysics(const Problem<T>& p, const DeviceProblem<T>& dev, const SweepKernel* kernel)
      : radius_(static_cast<int>(p.grid.radius())), dev_(dev), kernel_(kernel) {}

  void forward_sweep(const T* u, const T* u_prev, T* out, cudaStream_t stream) override {
    SweepArgs<T> a = dev_.sweep_base();
    a.u = u;
    a.u_prev = u_prev;
    a.out = out;
    launch_sweep(a, radius_, stream, *kernel_);
  }
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) override {
    forward_sweep(lam, lam_prev, out, stream);
  }
  void probes(const ProbeStep<T>& step, const T*, cudaStream_t stream) override { launch_probes(step, radius_, stream); }
  void reverse_sweep(const DeviceReverseStep<T>& s, cudaStream_t stream) override {
    SweepArgs<T> b = dev_.sweep_base();
    b.u = s.u;
    b.u_prev = s.u_prev;
    b.lam = s.lam;
    b.lam_prev = s.lam_prev;
    b.out = s.lam_out;
    b.grad = s.grad;
    launch_sweep(b, radius_, stream, *kernel_);
  }

 private:
  int radius_;
  const DeviceProblem<T>& dev_;
  const SweepKernel* kernel_;
};

}  // namespace

template <class T>
std::unique_ptr<DevicePhysics<T>> make_device_physics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                                      const SweepKernel* sweep_kernel) {
  if (problem.density) return std::make_unique<DensityDevicePhysics<T>>(problem, dev);
  return std::make_unique<AcousticDevicePhysics<T>>(problem, dev, sweep_kernel);
}

template std::unique_ptr<DevicePhysics<float>> make_device_physics<float>(const Problem<float>&,
                                                                          const DeviceProblem<float>&,
                                                                          const SweepKernel*);
template std::unique_ptr<DevicePhysics<double>> make_device_physics<double>(const Problem<double>&,
                                                                            const DeviceProblem<double>&,
                                                                            const SweepKernel*);

}  // namespace revwave
