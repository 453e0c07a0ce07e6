// Sources and receivers off the grid: trilinear weights on the 8 surrounding points.
// Injection uses the weights, sampling uses the same weights, so each is the other's adjoint.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/numerics/grid.hpp"

namespace revwave {

using Vec3 = std::array<double, 3>;

struct SparsePoints {
  index_t count = 0;
  std::vector<index_t> index;  // 8 per point, linear indices into the allocated grid
  std::vector<double> weight;  // 8 per point, summing to 1
};

// Throws InputError naming the point (`what` i at (x, y, z) m) outside [0, (n-1) h] on any axis.
SparsePoints trilinear_points(const Grid& grid, const std::vector<Vec3>& coords, const std::string& what);
// With a free surface, throws InputError for a source on or above the plane z = 0 (it would inject
// nothing: the pressure is zero there); call it before trilinear_points on sources.
void check_sources_below_free_surface(const Grid& grid, const std::vector<Vec3>& sources, const std::string& what);

// out[p] = sum_c w_pc field[i_pc]
template <class T>
void sample_points(const SparsePoints& pts, const T* field, T* out);
// field[i_pc] += w_pc * values[p] * scale[8 p + c]   (scale may fold in 1/h^3 and 1/a)
template <class T>
void inject_points(const SparsePoints& pts, const T* values, const T* scale, T* field);

}  // namespace revwave
