#include "revwave/setup/gradient_job.hpp"

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

}  // namespace revwave
