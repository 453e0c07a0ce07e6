// The text forms of the typed options, for the two edges that read text: the command line
// (apps/) and the Python package (python/), which both take "24,24,24", "100,200,20" and "8GiB".
// The library's options hold what these return (shapes, points, point grids, byte counts); each
// parse names the option it was given as, so that both edges keep one sentence per mistake.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/setup/grid_layout.hpp"

namespace revwave {

// "NX,NY,NZ": three whole numbers, each >= 1 (--shape).
std::array<index_t, 3> parse_shape(const std::string& text, const std::string& option);
// "X,Y,Z": three finite numbers, metres (--src, --rec, --origin).
Vec3 parse_point(const std::string& text, const std::string& option);
std::vector<Vec3> parse_points(const std::vector<std::string>& texts, const std::string& option);
// "X,Y,Z" as the options write a point (number_text of each).
std::string point_text(const Vec3& p);
// "NX,NY,Z": NX, NY whole numbers >= 1 and a finite depth Z in metres (--src-grid, --rec-grid).
PointGrid parse_point_grid(const std::string& text, const std::string& option);
// Whether the text is a number whole (strtod reads all of it: "0.2", "-1e-3", "nan").
bool is_number_text(const std::string& text);
// A model parameter (--epsilon, --delta): a number is its value at every point (setup checks it is
// finite: read_parameter), other text a .npy file's path. The parameter's struct is problem_setup.hpp's.
struct ParameterInput;
ParameterInput parse_parameter(const std::string& text);
// Memory sizes ("8GiB", "512M") are parse_bytes's (revwave/core/system_memory.hpp).

}  // namespace revwave
