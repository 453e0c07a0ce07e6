// Small C-PML cases shared by the CPU tests (tests/driver/test_cpml.cpp) and the device's
// (tests/cuda/test_cuda_cpml.cpp): a layer of 6 points, receivers on a face and in the layer's
// reach, in 3D, under a free surface, with a variable density, on a plane, and all together (a plane
// with a variable density under a free surface).
#pragma once
#include <algorithm>

#include "density_case.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

enum class CpmlVariant { open, surface, density, planar, together };

inline const char* name(CpmlVariant v) {
  switch (v) {
    case CpmlVariant::open: return "3D";
    case CpmlVariant::surface: return "free surface";
    case CpmlVariant::density: return "density";
    case CpmlVariant::planar: return "2D";
    case CpmlVariant::together: return "2D, density, free surface";
  }
  return "?";
}

inline SmallCase cpml_case(CpmlVariant v, index_t steps = 60, int order = 4) {
  SmallCase c;
  if (v == CpmlVariant::density) {
    c = density_case(13, 11, 12, steps, order);
  } else if (v == CpmlVariant::planar || v == CpmlVariant::together) {
    c = v == CpmlVariant::planar ? case_on({27, 1, 19}, 6, order, steps) : density_case(27, 1, 19, steps, order);
    c.acq.sources = {{0.45 * c.grid.extent(0), 0.0, 13.0}};
    c.acq.receivers.clear();  // density_case's line, which the line below replaces
    for (int i = 0; i < 7; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 7.0, 0.0, 21.0});
  } else {
    c = small_case(15, 13, 12, steps, order);
  }
  c.grid.cpml = true;
  c.acq.receivers.push_back({0.0, 0.5 * c.grid.extent(1), 0.5 * c.grid.extent(2)});  // on the x = 0 face
  c.acq.receivers.push_back({c.grid.extent(0), 0.5 * c.grid.extent(1), c.grid.extent(2) - 3.0});
  if (v == CpmlVariant::surface || v == CpmlVariant::together) {
    c.grid.free_surface = true;
    c.acq.receivers.push_back({0.3 * c.grid.extent(0), 0.5 * c.grid.extent(1), 0.0});
    c.acq.receivers.push_back({0.6 * c.grid.extent(0), 0.5 * c.grid.extent(1), 4.0});
  }
  if (v == CpmlVariant::together) {  // the stable step of the density mirrored about the surface
    const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
    c.time.dt = default_dt(c.grid, vmax) * density_dt_factor(c.grid, c.true_model);
  }
  return c;
}

}  // namespace revwave::testing
