// The growth guard's plan (which samples, E_ref's position, the factor F) and its test.
//
// Why F = 100 max(1, kappa_max / kappa_min): a stable physics conserves an energy (and loses it in
// an absorbing layer), not sum u^2. A plane pulse u = g(t - x/c) of m u_tt = lap u carries the energy
// (1/c) int g'^2 dt per unit area and has sum u^2 = c int g^2 dt: at one energy, sum u^2 goes as
// c^2, and with a density as the bulk modulus kappa = rho c^2. A wave that moves from the model's
// softest medium into its stiffest may so raise sum u^2 by kappa_max / kappa_min. The factor 100
// covers what sum u^2 does at one energy in one medium: energy moving between u and u_t (E_ref taken
// where u happens to be small), the tail of a 2D source (sum u^2 grows about as its logarithm), the
// leapfrog's gain on a spike's low frequencies. An unstable run multiplies E by far more within a
// few samples (the leapfrog's fastest mode: E x2.2 a step at dt 2% above the CFL limit, x12 at 20%):
// F does not fire on a physical run, and lets no unstable one run long.
#include "revwave/driver/growth_guard.hpp"

#include <cstdio>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

std::string short_number(const char* format, double v) {
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

std::string setting_of(const Grid& grid, const PhysicsSpec& physics) {
  std::string s = std::string(physics.name()) + ", ";
  if (grid.free_surface) s += "free surface, ";
  s += grid.nbl == 0 ? "no absorbing boundary" : grid.cpml ? "cpml boundary" : "sponge boundary";
  if (grid.planar()) s += " (2D)";
  return s + ", space order " + std::to_string(grid.space_order);
}

}  // namespace

GrowthGuardPlan plan_growth_guard(const Grid& grid, const TimeAxis& time, index_t source_end,
                                  const PhysicsSpec& physics, double bulk_modulus_ratio) {
  GrowthGuardPlan p;
  p.last = time.steps;
  p.every = std::max<index_t>(1, time.steps / 64);
  // The last significant sample w[n] enters u[n + 1]; a source that is still on at N - 1 never ends.
  p.reference = source_end >= 0 && source_end + 1 <= time.steps ? source_end + 1 : -1;
  const double ratio = std::isfinite(bulk_modulus_ratio) ? std::max(1.0, bulk_modulus_ratio) : 1.0;
  p.limit = 100.0 * ratio;
  p.dt = time.dt;
  p.setting = setting_of(grid, physics);
  return p;
}

void GrowthGuard::check(index_t position, double energy) {
  const std::string where = ": " + plan_.setting + "; nothing was written";
  const std::string seconds = short_number("%.3g", static_cast<double>(position) * plan_.dt);
  if (!std::isfinite(energy)) {
    throw UnstableRunError("the wavefield is not finite at " + seconds +
                           " s (sum u^2 = " + (std::isnan(energy) ? std::string("nan") : short_number("%g", energy)) +
                           ": an operator unstable at this dt, or float overflow)" + where);
  }
  if (plan_.reference < 0 || position < plan_.reference) return;
  if (!referenced_) {
    referenced_ = true;
    reference_ = energy;
    return;
  }
  if (!(reference_ > 0)) return;  // a source that injected nothing: no scale to grow from
  const double growth = energy / reference_;
  largest_ = std::max(largest_, growth);
  if (growth > plan_.limit) {
    throw UnstableRunError("the wavefield grew without bound after the source ended (sum u^2 x" +
                           short_number("%.3g", growth) + " at " + seconds + " s, the limit x" +
                           short_number("%.3g", plan_.limit) + ")" + where);
  }
}

}  // namespace revwave
