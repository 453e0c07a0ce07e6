#include "revwave/numerics/acoustic/acoustic_state.hpp"

#include "revwave/core/checks.hpp"

namespace revwave {
namespace {

// What the C-PML holds besides the propagator's fields (boundary/cpml_physics.hpp): two tails (the
// reverse step's psi, the adjoint's nu and mu), per point near a layer its index and the update's
// a, and per z row where its points start. With a density, whose passes run after its sweeps,
// also one wavefield with its tail (the reverse step's u[n+1]) and per point near a layer dJ/dm
// before the sweep; without one the rows run inside the sweep and keep a row of each per thread.
std::size_t cpml_bytes(const Grid& g, bool density, std::size_t value_bytes) {
  if (!g.cpml) return 0;
  const auto values = static_cast<std::size_t>(g.cpml_values());
  const auto tails = checked_bytes({2, values, value_bytes}, "the C-PML's tails");
  const std::size_t per_point = 8 + (density ? 2 : 1) * value_bytes;
  const auto region =
      checked_bytes({static_cast<std::size_t>(g.cpml_region_points()), per_point}, "the C-PML's points near the layer");
  const auto rows = checked_bytes({static_cast<std::size_t>(g.padded(0) * g.padded(1) + 1), 8}, "the C-PML's rows");
  const auto next =
      density ? checked_bytes({static_cast<std::size_t>(g.alloc_points()) + values, value_bytes}, "one wavefield") : 0;
  return checked_sum(checked_sum(checked_sum(tails, region, "the C-PML"), rows, "the C-PML"), next, "the C-PML");
}

}  // namespace

PhysicsMemory physics_memory(const Grid& g, const PhysicsSpec& physics, std::size_t value_bytes) {
  PhysicsMemory m;
  if (physics.density) {  // density/density_model.hpp: s, t, b[3]
    m.coefficient_fields = 5;
    m.coefficients = "the density's 5 coefficient fields";
  }
  std::size_t vti = 0;
  if (physics.vti)  // vti/vti_physics.hpp: c1, c2 and the transpose's g1, g2, g3, one allocated grid each
    vti = checked_bytes({5, static_cast<std::size_t>(g.coefficient_values()), value_bytes},
                        "the VTI pair's coefficients");
  std::size_t visco = 0;
  if (physics.visco)  // visco/visco_model.hpp: e1, e2, beta[3] per point, and the transpose's g: six grids
    visco = checked_bytes({6, static_cast<std::size_t>(g.coefficient_values()), value_bytes},
                          "the visco-acoustic coefficients");
  m.other_bytes = checked_sum(checked_sum(cpml_bytes(g, physics.density, value_bytes), vti, "the VTI pair"), visco,
                              "the visco-acoustic coefficients");
  return m;
}

}  // namespace revwave
