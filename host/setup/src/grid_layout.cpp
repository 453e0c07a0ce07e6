#include "revwave/setup/grid_layout.hpp"

#include <cmath>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"

namespace revwave {
namespace {

std::vector<double> cell_centres(index_t n, double extent) {
  std::vector<double> c(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) c[static_cast<std::size_t>(i)] = extent * (double(i) + 0.5) / double(n);
  return c;
}

// "197.5 and 592.5", or "24.69, 74.06, ... 765.31 (every 49.38)" for many.
std::string axis_text(const std::vector<double>& v) {
  std::ostringstream os;
  os.precision(6);
  if (v.size() <= 3) {
    for (std::size_t i = 0; i < v.size(); ++i) os << (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") << v[i];
  } else {
    os << v.front() << ", " << v[1] << ", ... " << v.back() << " (every " << v[1] - v[0] << ")";
  }
  return os.str();
}

}  // namespace

std::vector<Vec3> GridLayout::points() const {
  std::vector<Vec3> p;
  p.reserve(x.size() * y.size());
  for (double a : x)
    for (double b : y) p.push_back({a, b, z});
  return p;
}

std::string PointGrid::text() const { return std::to_string(nx) + "," + std::to_string(ny) + "," + number_text(z); }

GridLayout grid_layout(const std::string& option, const PointGrid& points, const Grid& grid) {
  const std::string text = points.text();
  const index_t nx = check_integer(option + " '" + text + "' NX", points.nx, at_least(1));
  const index_t ny = check_integer(option + " '" + text + "' NY", points.ny, at_least(1));
  if (!std::isfinite(points.z)) {
    throw InputError(option + " '" + text +
                     "' is invalid: expected NX,NY,Z (NX, NY whole numbers >= 1, Z a depth in m)");
  }
  if (grid.planar() && ny != 1) {
    throw InputError(option + " '" + text + "' NY " + std::to_string(ny) +
                     " is invalid on a 2D model (ny = 1): its points lie on the plane y = 0, so NY must be 1");
  }
  const std::string noun = option == "--src-grid" ? "sources" : "receivers";
  const index_t n = checked_product({nx, ny}, option + " '" + text + "' " + noun);
  // A point costs its coordinates and interpolation weights (216 bytes) before any trace.
  require_memory(checked_bytes({static_cast<std::size_t>(n), 216}, option + " '" + text + "'"),
                 option + " '" + text + "' (" + std::to_string(n) + " " + noun + ")");
  GridLayout l;
  l.option = option;
  l.text = text;
  l.x = cell_centres(nx, grid.extent(0));
  l.y = cell_centres(ny, grid.extent(1));
  l.z = points.z;
  return l;
}

std::string layout_line(const GridLayout& l) {
  std::ostringstream os;
  os << (l.option == "--src-grid" ? "  sources         " : "  receivers       ") << l.option << " " << l.text << ": "
     << l.x.size() << " x " << l.y.size() << " at cell centres, x " << axis_text(l.x) << " m, y " << axis_text(l.y)
     << " m, z " << l.z << " m\n";
  return os.str();
}

nlohmann::json layout_json(const GridLayout& l) {
  return {{"option", l.option}, {"given", l.text}, {"x", l.x}, {"y", l.y}, {"z", l.z}};
}

nlohmann::json layouts_json(const std::vector<GridLayout>& layouts) {
  nlohmann::json j = nlohmann::json::array();
  for (const GridLayout& l : layouts) j.push_back(layout_json(l));
  return j;
}

}  // namespace revwave
