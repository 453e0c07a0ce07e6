// Velocity models on the interior grid: validation, the built-in default, smoothing,
// and the squared slowness m = 1/c^2 extended into the absorbing layer.
#pragma once
#include <array>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/grid.hpp"

namespace revwave {

struct VelocityModel {
  std::array<index_t, 3> shape{};
  std::vector<double> velocity;  // m/s, C order (x, y, z), z fastest
  double at(index_t ix, index_t iy, index_t iz) const {
    return velocity[static_cast<std::size_t>((ix * shape[1] + iy) * shape[2] + iz)];
  }
};

// Throws InputError naming the first velocity that is not finite and positive.
void validate(const VelocityModel& model);
double max_velocity(const VelocityModel& model);
double min_velocity(const VelocityModel& model);

VelocityModel homogeneous_model(const std::array<index_t, 3>& shape, double velocity);
// Background increasing with depth plus a faster spherical anomaly in the middle.
VelocityModel default_true_model(const std::array<index_t, 3>& shape, double spacing);
// Box-filter smoothing with the given radius (points), applied `passes` times.
VelocityModel smoothed(const VelocityModel& model, int radius, int passes);

// m = 1/c^2 on the allocated grid: interior from the model, absorbing layer by
// copying the nearest interior edge point, halo zero (never read).
template <class T>
HostBuffer padded_squared_slowness(const Grid& grid, const VelocityModel& model);

}  // namespace revwave
