// The fields one fused reverse step reads and writes, named once for every backend: the CPU's
// sweeps (acoustic/cpu_sweep.hpp: ReverseSweepFields), the CPU physics (cpu_physics.hpp:
// ReverseStepView) and the device physics (cuda/backend/device_physics.hpp: DeviceReverseStep) add
// what each of them needs besides.
#pragma once

namespace revwave {

template <class T>
struct ReverseFields {
  const T* u = nullptr;         // u[n]
  const T* u_prev = nullptr;    // u[n-1]
  const T* lam = nullptr;       // lam[n+2]
  const T* lam_prev = nullptr;  // lam[n+3]
  T* lam_out = nullptr;         // lam[n+1]; may alias lam_prev
  T* grad = nullptr;            // dJ/dm on the allocated grid
};

}  // namespace revwave
