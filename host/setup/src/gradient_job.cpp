#include "revwave/setup/gradient_job.hpp"

#include <algorithm>
#include <cmath>

namespace revwave {

void finish_strategy_options(GradientJobOptions& o) {
  if (o.checkpoint_memory) o.strategy.checkpoint_memory = parse_bytes(*o.checkpoint_memory);
}

VelocityModel load_model(const std::string& path, const Grid& grid, const char* option) {
  const NpyArray a = read_npy(path);
  if (a.shape.size() != 3 || a.shape[0] != grid.shape[0] || a.shape[1] != grid.shape[1] || a.shape[2] != grid.shape[2]) {
    std::string got;
    for (std::size_t i = 0; i < a.shape.size(); ++i) got += (i ? ", " : "") + std::to_string(a.shape[i]);
    throw InputError(std::string(option) + " " + path + " has shape (" + got + "), the grid is (" +
                     std::to_string(grid.shape[0]) + ", " + std::to_string(grid.shape[1]) + ", " +
                     std::to_string(grid.shape[2]) + ")");
  }
  VelocityModel m{grid.shape, a.data};
  validate(m);
  return m;
}

// The Taylor test's direction dm (of m = 1/c^2): towards the built-in true model where it differs
// from `start`, else a smooth bump; scaled so that max |dm| is `scale` x max m.
std::vector<double> taylor_direction(const VelocityModel& start, double spacing, double scale) {
  const VelocityModel truth = default_true_model(start.shape, spacing);
  std::vector<double> dm(start.velocity.size());
  double dm_max = 0, m_max = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) {
    const double m0 = 1.0 / (start.velocity[i] * start.velocity[i]);
    dm[i] = 1.0 / (truth.velocity[i] * truth.velocity[i]) - m0;
    dm_max = std::max(dm_max, std::abs(dm[i]));
    m_max = std::max(m_max, m0);
  }
  if (dm_max == 0) {
    for (std::size_t i = 0; i < dm.size(); ++i) dm[i] = std::sin(0.37 * double(i));
    dm_max = 1;
  }
  for (double& v : dm) v *= scale * m_max / dm_max;
  return dm;
}

VelocityModel checked_model(const VelocityModel& model, const Grid& grid, const std::string& name) {
  if (model.shape != grid.shape) {
    throw InputError(name + " has shape (" + std::to_string(model.shape[0]) + ", " + std::to_string(model.shape[1]) + ", " +
                     std::to_string(model.shape[2]) + "), the grid is (" + std::to_string(grid.shape[0]) + ", " +
                     std::to_string(grid.shape[1]) + ", " + std::to_string(grid.shape[2]) + ")");
  }
  validate(model);
  return model;
}

}  // namespace revwave
