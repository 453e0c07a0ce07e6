// Points laid out on a regular grid over the model's x-y extent (--src-grid, --rec-grid): at the
// centres of NX x NY equal cells, so that none sits on the model's edge against the absorbing
// layer (the nearest is half a cell inside), and what the run tells about where they went.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// NX x NY points at the centres of equal cells of the x-y extent, at depth z (--src-grid,
// --rec-grid; the text form "NX,NY,Z" is parse_point_grid's, revwave/setup/option_text.hpp).
struct PointGrid {
  index_t nx = 1, ny = 1;
  double z = 0;              // m
  std::string text() const;  // "NX,NY,Z", as the options write it
};

struct GridLayout {
  std::string option;                // "--src-grid", "--rec-grid"
  std::string text;                  // PointGrid::text(), "2,2,20"
  std::vector<double> x, y;          // cell centres, m
  double z = 0;                      // m
  std::vector<Vec3> points() const;  // x slowest, then y
};

// `points` over `grid` (`option`: the option it came from, "--src-grid" or "--rec-grid"): NY 1 on a
// 2D model, and the points' memory checked (InputError naming the option and the rule otherwise).
GridLayout grid_layout(const std::string& option, const PointGrid& points, const Grid& grid);

// "  sources       --src-grid 2,2,20: 2 x 2 at cell centres, x 197.5 and 592.5 m, y 197.5 and 592.5 m, z 20 m"
std::string layout_line(const GridLayout& layout);
// {"option", "given", "x", "y", "z"}
nlohmann::json layout_json(const GridLayout& layout);
nlohmann::json layouts_json(const std::vector<GridLayout>& layouts);

}  // namespace revwave
