// The constant-density acoustic equation's forward state: (u[n], u[n-1]), two whole fields (no
// auxiliary ones: its absorbing layer is a sponge, eta in the update). HostState and DeviceState
// hold these two fields.
#pragma once
#include "revwave/numerics/state_shape.hpp"

namespace revwave {

inline constexpr StateShape acoustic_state{2, 0, "two wavefields"};

}  // namespace revwave
