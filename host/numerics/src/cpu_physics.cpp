#include "revwave/numerics/cpu_physics.hpp"

#include "revwave/numerics/acoustic/acoustic_physics.hpp"
#include "revwave/numerics/boundary/cpml_physics.hpp"
#include "revwave/numerics/density/density_physics.hpp"
#include "revwave/numerics/visco/visco_physics.hpp"
#include "revwave/numerics/vti/vti_physics.hpp"

namespace revwave {

template <class T>
std::unique_ptr<CpuPhysics<T>> make_cpu_physics(const Problem<T>& problem) {
  std::unique_ptr<CpuPhysics<T>> physics;
  if (problem.vti)
    physics = std::make_unique<VtiCpuPhysics<T>>(problem);
  else if (problem.visco)
    physics = std::make_unique<ViscoCpuPhysics<T>>(problem);
  else if (problem.density)
    physics = std::make_unique<DensityCpuPhysics<T>>(problem);
  else
    physics = std::make_unique<AcousticCpuPhysics<T>>(problem);
  if (problem.cpml) return std::make_unique<CpmlCpuPhysics<T>>(problem, std::move(physics));
  return physics;
}

template std::unique_ptr<CpuPhysics<float>> make_cpu_physics<float>(const Problem<float>&);
template std::unique_ptr<CpuPhysics<double>> make_cpu_physics<double>(const Problem<double>&);

}  // namespace revwave
