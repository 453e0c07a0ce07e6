#include "revwave/setup/gradient_job.hpp"

#include <algorithm>
#include <cmath>

#include "revwave/setup/plausibility.hpp"

namespace revwave {

VelocityModel load_model(const std::string& path, const Grid& grid, const char* option, Precision precision) {
  const NpyArray a = read_npy(path);
  if (a.shape.size() != 3 || a.shape[0] != grid.shape[0] || a.shape[1] != grid.shape[1] ||
      a.shape[2] != grid.shape[2]) {
    std::string got;
    for (std::size_t i = 0; i < a.shape.size(); ++i) got += (i ? ", " : "") + std::to_string(a.shape[i]);
    throw InputError(std::string(option) + " " + path + " has shape (" + got + "), the grid is (" +
                     std::to_string(grid.shape[0]) + ", " + std::to_string(grid.shape[1]) + ", " +
                     std::to_string(grid.shape[2]) + ")");
  }
  VelocityModel m{grid.shape, a.data};
  (void)validated_range(m, std::string(option) + " " + path);
  check_velocity_floor(m, std::string(option) + " " + path, precision);
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

VelocityModel checked_model(const VelocityModel& model, const Grid& grid, const std::string& name,
                            Precision precision) {
  if (model.shape != grid.shape) {
    throw InputError(name + " has shape (" + std::to_string(model.shape[0]) + ", " + std::to_string(model.shape[1]) +
                     ", " + std::to_string(model.shape[2]) + "), the grid is (" + std::to_string(grid.shape[0]) + ", " +
                     std::to_string(grid.shape[1]) + ", " + std::to_string(grid.shape[2]) + ")");
  }
  (void)validated_range(model, name);
  check_velocity_floor(model, name, precision);
  return model;
}

void require_density_for_density_gradient(const GradientJobOptions& o) {
  if (o.density_gradient && !density_given(o.problem)) {
    throw InputError(
        "--density-gradient needs --density: with a constant density there is no density model to "
        "differentiate");
  }
}

void require_data_for_user_model(const GradientJobOptions& o, bool records_given, const std::string& run) {
  const bool user_model = !o.problem.model_file.empty() || o.problem.model_values;
  const bool data =
      !o.observed.empty() || o.observed_record || records_given || !o.true_model.empty() || o.true_model_values;
  if (!user_model || data) return;
  const std::string model = o.problem.model_file.empty() ? "model (an array)" : "--model " + o.problem.model_file;
  throw InputError(model + ": " + run +
                   " of your own model needs data to fit: give --observed (recorded data) or --true-model "
                   "(data modelled in that model); the built-in demo's data serve only runs without --model");
}

}  // namespace revwave
