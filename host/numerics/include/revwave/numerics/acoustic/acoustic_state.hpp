// The constant-density acoustic equation's forward state: (u[n], u[n-1]), two whole fields (no
// auxiliary ones: its absorbing layer is a sponge, eta in the update). HostState and DeviceState
// hold these two fields.
#pragma once
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/state_shape.hpp"

namespace revwave {

inline constexpr StateShape acoustic_state{2, 0, "two wavefields"};

// The state on grid g: with a C-PML each of the two fields carries the layer's auxiliary values
// (Grid::cpml_values), which a slot holds with it.
inline StateShape acoustic_state_of(const Grid& g) {
  if (!g.cpml) return acoustic_state;
  return {2, 2 * static_cast<std::size_t>(g.cpml_values()), "two wavefields and their C-PML auxiliary values"};
}

}  // namespace revwave
