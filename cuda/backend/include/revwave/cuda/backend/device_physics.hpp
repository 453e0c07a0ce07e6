// What a physics gives the CUDA propagator (cuda_propagator.hpp), the device twin of CpuPhysics<T>
// (numerics/cpu_physics.hpp): its sweeps, its value at the probes, its part of the reverse step
// and its own images, all on the stream it is given, none waited for. The propagator owns the
// fields, the traces, the probes, the sources and the imaging of dJ/dm; a physics owns its
// operator, its coefficients on the device and the images of its own parameters. A boundary that
// stretches a physics' operator (the C-PML) is a decorator around it. make_device_physics is the
// one place a problem's physics is chosen; the propagator never asks which one it holds, only
// what it can do (fuses_codec, illuminates_in_passing).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/kernels/density/density_kernels.hpp"
#include "revwave/cuda/kernels/sparse_kernels.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/reverse_fields.hpp"

namespace revwave {

// One reverse step's fields, as the propagator holds them.
template <class T>
struct DeviceReverseStep : ReverseFields<T> {
  // u[n+1], its source terms in, where the physics reads_next_field(): a stored history's (the
  // whole field only: a history keeps no more of the layer than StateShape says) or next_field's;
  // null for the others (they recompute it from u[n], u[n-1]).
  const T* u_next = nullptr;
};

// A forward step's sweep, and what the constant-density column sweep can do in passing: add u[n]^2
// into an illumination sum, write the new state's encoding (a store's cast left to the step), or
// read a restored state's encoded fields (u decoded into u_decoded on the way).
template <class T>
struct DeviceForwardSweep {
  const T* u = nullptr;
  const T* u_prev = nullptr;
  T* out = nullptr;  // may alias u_prev
  double* illuminate = nullptr;
  const SweepEncode* encode = nullptr;
  const unsigned char* decode_u = nullptr;  // with decode_u_prev: the restored state's encoding
  const unsigned char* decode_u_prev = nullptr;
  bool decode_bf16 = false;
  T* u_decoded = nullptr;
  bool extras() const { return illuminate != nullptr || encode != nullptr || decode_u != nullptr; }
};

template <class T>
class DevicePhysics {
 public:
  virtual ~DevicePhysics() = default;
  // The forward recurrence's new field (every boundary's pass included, no source terms).
  virtual void forward_sweep(const DeviceForwardSweep<T>& s, cudaStream_t stream) = 0;
  // The transposed recurrence's (the dot-product test's adjoint); out may alias lam_prev.
  virtual void adjoint_sweep(const T* lam, const T* lam_prev, T* out, cudaStream_t stream) = 0;
  // u[n+1] at step.probes (ProbeStep's contract), every boundary's share included.
  virtual void probes(const ProbeStep<T>& step, cudaStream_t stream) = 0;
  // The fused reverse sweep: lam[n+1] and dJ/dm's share, every boundary's included.
  virtual void reverse_sweep(const DeviceReverseStep<T>& step, cudaStream_t stream) = 0;
  // The last of a reverse step (lam[n+1] complete, the adjoint source's share in): its own images.
  virtual void after_adjoint_source(const DeviceReverseStep<T>& /*step*/, cudaStream_t /*stream*/) {}
  // Whether its reverse sweep images from u[n+1] as a whole field (DeviceReverseStep::u_next)
  // rather than from u[n] and u[n-1] alone: the C-PML, whose layer's u[n+1] needs u[n]'s auxiliary
  // values, which a stored history does not keep. Then the propagator reads u[n+1] at the probes
  // from that field too: the stored one, or next_field's.
  virtual bool reads_next_field() const { return false; }
  // u[n+1] as that field, made from u[n] and u[n-1] by the forward step's own kernels (the sweep,
  // the boundary's passes, the sources of step n), so that it holds the bits a stored history's
  // u[n+1] holds on any device, whatever FMAs nvcc contracts in each kernel: every strategy then
  // images from the same bits as `full`. Its own buffer, valid until the next call.
  virtual const T* next_field(index_t /*n*/, const T* /*u*/, const T* /*u_prev*/, cudaStream_t /*stream*/) {
    return nullptr;
  }
  // A new reverse run: its images and the adjoint's auxiliary values zeroed.
  virtual void reset_adjoint(cudaStream_t /*stream*/) {}
  // The problem it was built on was refilled in place (a shot engine's next window; uploads
  // through `ring` on `stream`): true when it re-derived itself for it, false when it must be
  // made again (make_device_physics).
  virtual bool retarget(UploadRing* ring, cudaStream_t stream) = 0;
  // dJ/drho at the interior points when the problem images it (waits for the device); else empty.
  virtual std::vector<double> density_gradient(cudaStream_t /*stream*/) { return {}; }

  // What a boundary stretching the operator needs of it: the density's coefficients on the device
  // and dJ/drho's accumulator (null unless imaging), or none for the constant-density operator.
  virtual std::optional<DensityCoefficients<T>> density_coefficients() const { return std::nullopt; }
  virtual T* density_image() { return nullptr; }

  // What its forward sweep can do in passing (DeviceForwardSweep's extras), and the sweep kernel
  // it launches where it has a choice (all give the same bits).
  virtual bool fuses_codec() const { return false; }
  virtual bool illuminates_in_passing() const { return false; }
  virtual void set_sweep_kernel(SweepKernel /*k*/) {}
};

// The problem's physics: the constant-density or the variable-density operator, in the C-PML
// when the grid has one. `field_capacity`: bytes of the largest field it will hold (an engine's
// windows).
template <class T>
std::unique_ptr<DevicePhysics<T>> make_device_physics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                                      std::size_t field_capacity, UploadRing* ring,
                                                      cudaStream_t stream);

}  // namespace revwave
