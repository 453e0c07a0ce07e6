// Small C-PML cases shared by the CPU tests (tests/driver/test_cpml.cpp) and the device's
// (tests/cuda/test_cuda_cpml.cpp): a layer of 6 points, receivers on a face and in the layer's
// reach, in 3D, under a free surface, with a variable density, on a plane, and all together (a plane
// with a variable density under a free surface).
#pragma once
#include <cmath>
#include <vector>

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
  if (v == CpmlVariant::together) c.time.dt = density_case_dt(c);  // the density mirrored about the surface
  return c;
}

// dJ/drho under the C-PML, for both backends' suites: the density physics' images completed at the
// points near the layer (with the source there, its corners inside the top layer's reach), open,
// under a free surface, and all together (on a plane under a free surface, which has neither y
// faces nor a top layer: the source moves beside the x = 0 face, within the layer's reach). The
// true model's density differs from the start's by up to 5%.
enum class DensityCpml { open, surface, together };
constexpr DensityCpml density_cpml_cases[] = {DensityCpml::open, DensityCpml::surface, DensityCpml::together};

inline const char* name(DensityCpml w) {
  return w == DensityCpml::open ? "open" : w == DensityCpml::surface ? "free surface" : "2D, free surface";
}

inline SmallCase density_cpml_case(DensityCpml w, index_t steps = 50, int order = 4) {
  SmallCase c = cpml_case(w == DensityCpml::together ? CpmlVariant::together : CpmlVariant::density, steps, order);
  c.grid.free_surface = w != DensityCpml::open;
  if (w == DensityCpml::together) c.acq.sources = {{2.0 * c.grid.spacing, 0.0, 13.0}};
  const std::vector<double> rho = c.start_model.density;
  for (std::size_t i = 0; i < rho.size(); ++i)
    c.true_model.density[i] = rho[i] * (1.0 + 0.05 * std::cos(0.21 * double(i)));
  return c;
}

}  // namespace revwave::testing
