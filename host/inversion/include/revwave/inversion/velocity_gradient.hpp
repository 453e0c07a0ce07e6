// The inversion's variable is the velocity c (m/s) at every interior point; the survey gradient is
// dJ/dm with m = 1/c^2 (s^2/m^2). By the chain rule dJ/dc = dJ/dm dm/dc = -2 dJ/dm / c^3.
// Velocity keeps the bounds (--vmin, --vmax) and the CFL condition (a bound on c) simple boxes.
#pragma once
#include <vector>

namespace revwave {

// dJ/dc = -2 dJ/dm / c^3, point by point (sizes must agree).
std::vector<double> velocity_gradient(const std::vector<double>& velocity, const std::vector<double>& dj_dm);

}  // namespace revwave
