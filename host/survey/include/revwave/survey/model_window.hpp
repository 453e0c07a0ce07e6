// --aperture: a shot runs on the part of the model that covers its sources and receivers plus an
// aperture on every side, with its own absorbing layer around it; its gradient is added into the whole.
#pragma once
#include <array>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

struct ModelWindow {
  std::array<index_t, 3> first{0, 0, 0};  // first interior point of the whole grid inside the window
  std::array<index_t, 3> shape{0, 0, 0};  // interior points of the window
  index_t points() const { return shape[0] * shape[1] * shape[2]; }
};

// The window of the grid points within `aperture` metres of the bounding box of the shot's
// sources and receivers (at least 2 points per axis), clamped to the grid; aperture < 0: the whole grid.
ModelWindow shot_window(const Grid& grid, const Acquisition& acq, double aperture);
// The window's grid: same spacing, layer and order. Its velocities, cut from the model.
Grid window_grid(const Grid& grid, const ModelWindow& w);
VelocityModel window_model(const VelocityModel& model, const ModelWindow& w);
// Sources and receivers in the window's frame: shifted by the window's origin (and kept inside it
// against round-off).
Acquisition window_acquisition(const Acquisition& acq, const Grid& grid, const ModelWindow& w);
// whole[window point] += local[...]: the window's gradient into the whole model's.
void add_window_gradient(const Grid& grid, const ModelWindow& w, const std::vector<double>& local,
                         std::vector<double>& whole);

}  // namespace revwave
