#include "revwave/inversion/velocity_gradient.hpp"

#include <stdexcept>
#include <string>

namespace revwave {

std::vector<double> velocity_gradient(const std::vector<double>& c, const std::vector<double>& g) {
  if (c.size() != g.size()) {
    throw std::invalid_argument("velocity_gradient: " + std::to_string(g.size()) + " gradient values for " +
                                std::to_string(c.size()) + " velocities");
  }
  std::vector<double> out(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) out[i] = -2.0 * g[i] / (c[i] * c[i] * c[i]);
  return out;
}

}  // namespace revwave
