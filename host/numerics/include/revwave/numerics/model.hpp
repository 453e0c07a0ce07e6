// Velocity models on the interior grid (with an optional density: the variable-density physics,
// numerics/density/): validation, the built-in default, smoothing, and the squared slowness
// m = 1/c^2 extended into the absorbing layer.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/physics_spec.hpp"

namespace revwave {

struct VelocityModel {
  std::array<index_t, 3> shape{};
  std::vector<double> velocity;  // m/s, C order (x, y, z), z fastest
  // kg/m^3, C order like velocity; empty: constant density (the constant-density physics). It
  // travels with the model (windows, inversions keep it fixed), so every run of the model sees it.
  std::vector<double> density = {};
  // Thomsen's epsilon and delta, C order like velocity (numerics/vti/vti_model.hpp); both empty:
  // isotropic. Given, they make the run's physics the pseudo-acoustic VTI one; they travel with the
  // model as the density does.
  std::vector<double> epsilon = {};
  std::vector<double> delta = {};
  // The quality factor Q, C order like velocity (numerics/visco/visco_model.hpp); empty: no
  // attenuation. Given, it makes the run's physics the visco-acoustic one, with the velocity the
  // phase velocity at q_frequency (Hz) and the constant Q fitted over a band around q_f0 (Hz, the
  // source's peak frequency); it travels with the model as the density does.
  std::vector<double> q = {};
  double q_frequency = 0;
  double q_f0 = 0;
  bool has_density() const { return !density.empty(); }
  bool has_anisotropy() const { return !epsilon.empty() || !delta.empty(); }
  bool has_attenuation() const { return !q.empty(); }
  // The physics a run of this model has (what sizes its state and working memory).
  PhysicsSpec physics() const { return PhysicsSpec{has_density(), has_anisotropy(), has_attenuation()}; }
  double at(index_t ix, index_t iy, index_t iz) const {
    return velocity[static_cast<std::size_t>((ix * shape[1] + iy) * shape[2] + iz)];
  }
};

// "(ix, iy, iz)" of the model's point at C-order index i: where a refusal names a parameter's point.
std::string point_text(const VelocityModel& model, std::size_t i);

// Throws InputError naming the first velocity (then density) that is not finite and positive,
// or a density whose size is not the model's.
void validate(const VelocityModel& model);
// The model's velocities' range and bulk_modulus_ratio in one threaded pass (exact: a minimum and
// a maximum are the same bits in any order), and whether every velocity is finite and positive
// (the range of a model that is not is unspecified).
struct ModelRange {
  double min_velocity = 0, max_velocity = 0, bulk_modulus_ratio = 1;
  bool finite_positive = true;
};
ModelRange model_range(const VelocityModel& model);
// validate's checks with the model's range from that same pass, which it returns. `name` ("--model
// m.npy", "--true-model t.npy"), where given, starts the refusal of a velocity that is no number.
ModelRange validated_range(const VelocityModel& model, const std::string& name = "");
void validate(const VelocityModel& model, const ModelRange& range, const std::string& name = "");
// Whether every value is finite and positive (one threaded pass; validate's and the density's).
bool all_finite_positive(const std::vector<double>& values);
double max_velocity(const VelocityModel& model);
double min_velocity(const VelocityModel& model);
// max / min over the model's points of the bulk modulus rho c^2 (c^2 without a density): how far
// the sum of u^2 may move between media at the same energy (the growth guard's allowance).
double bulk_modulus_ratio(const VelocityModel& model);

VelocityModel homogeneous_model(const std::array<index_t, 3>& shape, double velocity);
// Background increasing with depth plus a faster spherical anomaly in the middle.
VelocityModel default_true_model(const std::array<index_t, 3>& shape, double spacing);
// Its fastest velocity without making it (`revwave plan` describes a run, it makes no model): the
// same bits as max_velocity(default_true_model(shape, spacing)).
double default_true_model_max_velocity(const std::array<index_t, 3>& shape, double spacing);
// Box-filter smoothing with the given radius (points), applied `passes` times.
VelocityModel smoothed(const VelocityModel& model, int radius, int passes);

// m = 1/c^2 on the allocated grid: interior from the model, absorbing layer by
// copying the nearest interior edge point, halo zero (never read).
template <class T>
HostBuffer padded_squared_slowness(const Grid& grid, const VelocityModel& model);
// f(v) of interior values v (C order, the grid's shape) at every padded point of a coefficient field
// (Grid::coefficient_values), the layer copying the nearest interior point as m's does; zero elsewhere.
template <class T>
HostBuffer padded_interior_values(const Grid& grid, const std::vector<double>& values, double (*f)(double));

}  // namespace revwave
