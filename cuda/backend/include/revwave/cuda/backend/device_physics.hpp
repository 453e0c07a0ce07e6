// What a physics gives the CUDA propagator, as numerics/cpu_physics.hpp does for the CPU one: its
// sweeps and its part of the reverse step, launched on the propagator's compute stream (none
// waits for the device but density_gradient, read back once at the end). The propagator keeps the
// fields, the traces, the probes' tables, the re-imaging of dJ/dm and the adjoint source's
// injection. make_device_physics is the one place the problem's physics is chosen.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "revwave/cuda/backend/device_problem.hpp"

namespace revwave {

// One reverse step as the propagator holds it when the physics takes its part.
template <class T>
struct DeviceReverseStep {
  const T* u = nullptr;         // u[n]
  const T* u_prev = nullptr;    // u[n-1]
  const T* lam = nullptr;       // lam[n+2]
  const T* lam_prev = nullptr;  // lam[n+3]
  T* lam_out = nullptr;         // lam[n+1]; may alias lam_prev
  T* grad = nullptr;            // dJ/dm
  const T* next = nullptr;      // u[n+1] at the probes
  const T* r_next = nullptr;    // the adjoint source's sample n+1
};

template <class T>
class DevicePhysics {
 public:
  virtual ~DevicePhysics() = default;
  virtual void forward_sweep(const T* u, const T* u_prev, T* out, cudaStream_t stream) = 0;
  virtual void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) = 0;
  // u[n+1] at the probes (ProbeStep's contract); lam: lam[n+2] when a reverse step's, else null.
  virtual void probes(const ProbeStep<T>& step, const T* lam, cudaStream_t stream) = 0;
  virtual void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) = 0;
  virtual void after_adjoint_source(const DeviceReverseStep<T>& /*step*/, cudaStream_t /*stream*/) {}
  virtual void reset_images(cudaStream_t /*stream*/) {}
  // dJ/drho at the interior points when the problem images it (waits for the device); else empty.
  virtual std::vector<double> density_gradient(cudaStream_t /*stream*/) { return {}; }
};

// `sweep_kernel`: the constant-density sweep the propagator is set to (read at every launch).
template <class T>
std::unique_ptr<DevicePhysics<T>> make_device_physics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                                      const SweepKernel* sweep_kernel);

}  // namespace revwave
