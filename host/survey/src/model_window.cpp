#include "revwave/survey/model_window.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace revwave {

ModelWindow shot_window(const Grid& grid, const Acquisition& acq, double aperture) {
  ModelWindow w;
  w.shape = grid.shape;
  if (aperture < 0) return w;
  const double h = grid.spacing;
  // An aperture beyond the grid's diagonal opens the whole grid: clamp it there, so that the index
  // arithmetic below stays in range (the window is the same).
  double diagonal = 0;
  for (int a = 0; a < 3; ++a) diagonal += grid.extent(a) * grid.extent(a);
  aperture = std::min(aperture, std::sqrt(diagonal) + 2 * h);
  for (int a = 0; a < 3; ++a) {
    double lo = grid.extent(a), hi = 0;
    for (const auto* list : {&acq.sources, &acq.receivers}) {
      for (const Vec3& p : *list) {
        lo = std::min(lo, p[a]);
        hi = std::max(hi, p[a]);
      }
    }
    const index_t n = grid.shape[a];
    auto first = static_cast<index_t>(std::floor((lo - aperture) / h));
    auto last = static_cast<index_t>(std::ceil((hi + aperture) / h));
    // Round-off must not leave a point just outside: the window holds [lo - aperture, hi + aperture].
    if (static_cast<double>(first) * h > lo - aperture) --first;
    if (static_cast<double>(last) * h < hi + aperture) ++last;
    first = std::clamp<index_t>(first, 0, n - 1);
    last = std::clamp<index_t>(last, 0, n - 1);
    if (last - first < 1 && n > 1) {  // at least two points (a plane's y has one): grow inside the grid
      if (last < n - 1)
        ++last;
      else
        --first;
    }
    w.first[a] = first;
    w.shape[a] = last - first + 1;
  }
  return w;
}

Grid window_grid(const Grid& grid, const ModelWindow& w) {
  Grid g = grid;
  g.shape = w.shape;
  // A window keeps the free surface where it reaches z = 0; below it its top face is a layer.
  g.free_surface = grid.free_surface && w.first[2] == 0;
  return g;
}

VelocityModel window_model(const VelocityModel& model, const ModelWindow& w) {
  if (w.first == std::array<index_t, 3>{0, 0, 0} && w.shape == model.shape) return model;
  VelocityModel out;
  out.shape = w.shape;
  out.velocity.resize(static_cast<std::size_t>(w.points()));
  if (model.has_density()) out.density.resize(out.velocity.size());  // the window carries its density
  if (model.has_anisotropy()) {                                      // and its epsilon and delta
    out.epsilon.resize(out.velocity.size());
    out.delta.resize(out.velocity.size());
  }
  if (model.has_attenuation()) {  // and its Q
    out.q.resize(out.velocity.size());
    out.q_frequency = model.q_frequency;
    out.q_f0 = model.q_f0;
  }
  std::size_t i = 0;
  for (index_t x = 0; x < w.shape[0]; ++x)
    for (index_t y = 0; y < w.shape[1]; ++y)
      for (index_t z = 0; z < w.shape[2]; ++z, ++i) {
        const auto at = static_cast<std::size_t>(((w.first[0] + x) * model.shape[1] + w.first[1] + y) * model.shape[2] +
                                                 w.first[2] + z);
        out.velocity[i] = model.velocity[at];
        if (model.has_density()) out.density[i] = model.density[at];
        if (model.has_anisotropy()) out.epsilon[i] = model.epsilon[at], out.delta[i] = model.delta[at];
        if (model.has_attenuation()) out.q[i] = model.q[at];
      }
  return out;
}

Acquisition window_acquisition(const Acquisition& acq, const Grid& grid, const ModelWindow& w) {
  if (w.first == std::array<index_t, 3>{0, 0, 0} && w.shape == grid.shape) return acq;
  Acquisition out = acq;
  auto shift = [&](Vec3& p) {
    for (int a = 0; a < 3; ++a) {
      const double extent = static_cast<double>(w.shape[a] - 1) * grid.spacing;
      p[a] = std::clamp(p[a] - static_cast<double>(w.first[a]) * grid.spacing, 0.0, extent);
    }
  };
  for (Vec3& p : out.sources) shift(p);
  for (Vec3& p : out.receivers) shift(p);
  return out;
}

void add_window_gradient(const Grid& grid, const ModelWindow& w, const std::vector<double>& local,
                         std::vector<double>& whole) {
  if (static_cast<index_t>(local.size()) != w.points() ||
      static_cast<index_t>(whole.size()) != grid.interior_points()) {
    throw std::logic_error("add_window_gradient: sizes do not match the window and the grid");
  }
  const index_t ny = grid.shape[1], nz = grid.shape[2];
  std::size_t i = 0;
  for (index_t x = 0; x < w.shape[0]; ++x)
    for (index_t y = 0; y < w.shape[1]; ++y) {
      const index_t row = ((w.first[0] + x) * ny + (w.first[1] + y)) * nz + w.first[2];
      for (index_t z = 0; z < w.shape[2]; ++z) whole[static_cast<std::size_t>(row + z)] += local[i++];
    }
}

}  // namespace revwave
