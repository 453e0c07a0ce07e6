// The gradient on the interior points from one on the allocated grid: E^T g, E the extension
// that copies each edge point into the absorbing layer (so the layer's share lands on the edges).
#pragma once
#include <vector>

#include "revwave/numerics/grid.hpp"

namespace revwave {

template <class T>
std::vector<double> fold_to_interior(const Grid& grid, const T* padded_gradient);

}  // namespace revwave
