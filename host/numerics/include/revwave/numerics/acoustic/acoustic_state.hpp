// The constant-density acoustic equation's forward state: (u[n], u[n-1]), two whole fields (no
// auxiliary ones: its absorbing layer is a sponge, eta in the update). HostState and DeviceState
// hold these two fields.
#pragma once
#include <cstddef>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/physics_spec.hpp"
#include "revwave/numerics/state_shape.hpp"

namespace revwave {

inline constexpr StateShape acoustic_state{2, 0, "two wavefields"};

// The state of a run's physics on grid g (the variable-density physics' state is the same two
// fields as the constant density's): with a C-PML each of the two fields carries the layer's auxiliary
// values (Grid::cpml_values), which a slot holds with it. A stored history keeps u[n] alone per
// step, except under a variable density, whose layer image of dJ/drho reads the step's psi: there
// it keeps u[n]'s auxiliary values too (the layer's psi[n-1] and zeta[n-1]). A VTI pair carries its
// second field in each field's tail (Grid::extra_fields, before the layer's values), the
// visco-acoustic equation its three memory variables, and a stored history step keeps them: the
// reverse step recomputes from them.
inline StateShape physics_state(const Grid& g, const PhysicsSpec& physics) {
  const auto extra = static_cast<std::size_t>(physics.extra_fields()) * static_cast<std::size_t>(g.alloc_points());
  if (!g.cpml && extra == 0) return acoustic_state;
  if (!g.cpml)
    return {2, 2 * extra, physics.visco ? "two wavefields and their memory variables" : "two pairs of wavefields",
            extra};
  const auto values = static_cast<std::size_t>(g.cpml_values());
  return {2, 2 * (values + extra), "two wavefields and their C-PML auxiliary values",
          (physics.density ? values : 0) + extra};
}

// One stored history step's bytes on grid g in T: u[n] and the layer values physics_state keeps.
template <class T>
std::size_t history_step_bytes(const Grid& g, const PhysicsSpec& physics) {
  const std::size_t u_bytes = static_cast<std::size_t>(g.alloc_points()) * sizeof(T);
  return physics_state(g, physics).history_step_bytes(u_bytes, sizeof(T));
}

// What a problem's physics holds besides the propagator's fields, in values of `value_bytes`
// bytes: the setup's memory model (run_bytes) asks it, never a physics by name.
struct PhysicsMemory {
  // Coefficient fields of one wavefield's size (a variable density's s, t and B along each axis: 5).
  int coefficient_fields = 0;
  const char* coefficients = "";  // what they are, for a refusal's sentence
  // Bytes besides them (the C-PML's reverse tails, its u[n+1], its points near the layer and its rows).
  std::size_t other_bytes = 0;
};
// The grid says whether a C-PML wraps the physics. An overflow is an InputError naming what did
// not fit.
PhysicsMemory physics_memory(const Grid& g, const PhysicsSpec& physics, std::size_t value_bytes);

}  // namespace revwave
