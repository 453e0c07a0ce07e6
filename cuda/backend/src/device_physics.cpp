#include "revwave/cuda/backend/device_physics.hpp"

#include <utility>

#include "revwave/core/errors.hpp"

#include "revwave/cuda/backend/acoustic_device_physics.hpp"
#include "revwave/cuda/backend/cpml_device_physics.hpp"
#include "revwave/cuda/backend/density_device_physics.hpp"

namespace revwave {

template <class T>
std::unique_ptr<DevicePhysics<T>> make_device_physics(const Problem<T>& problem, const DeviceProblem<T>& dev,
                                                      std::size_t field_capacity, UploadRing* ring,
                                                      cudaStream_t stream) {
  std::unique_ptr<DevicePhysics<T>> physics;
  if (problem.vti)  // BackendCapabilities::vti is false: run_on_backend refuses it first; an engine's lane here
    throw InputError(
        "epsilon and delta (the VTI physics) do not run on the CUDA backend in this release: give "
        "--backend cpu");
  if (problem.visco)  // the same for BackendCapabilities::visco
    throw InputError(
        "Q (the visco-acoustic physics) does not run on the CUDA backend in this release: give --backend cpu");
  if (problem.density)
    physics = std::make_unique<DensityDevicePhysics<T>>(problem, dev, field_capacity, ring, stream);
  else
    physics = std::make_unique<AcousticDevicePhysics<T>>(problem, dev, ring != nullptr, stream);
  if (problem.cpml) return std::make_unique<CpmlDevicePhysics<T>>(problem, dev, std::move(physics), field_capacity);
  return physics;
}

template std::unique_ptr<DevicePhysics<float>> make_device_physics<float>(const Problem<float>&,
                                                                          const DeviceProblem<float>&, std::size_t,
                                                                          UploadRing*, cudaStream_t);
template std::unique_ptr<DevicePhysics<double>> make_device_physics<double>(const Problem<double>&,
                                                                            const DeviceProblem<double>&, std::size_t,
                                                                            UploadRing*, cudaStream_t);

}  // namespace revwave
