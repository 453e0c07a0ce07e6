// Where the inversion may move the model: the velocity bounds, and the mask's weights in [0, 1]
// (points of weight 0 are frozen: both bounds are their starting velocity, so that no step moves them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {

// Mask weights: 0 above `depth` metres (points with z < depth), 1 at and below it.
std::vector<double> depth_mask(const Grid& grid, double depth);
// Checks a mask read from a file: the grid's interior shape, finite weights in [0, 1], at least one
// positive (InputError naming the file, the index and the value).
void check_mask(const std::vector<double>& weights, const std::vector<std::int64_t>& shape, const Grid& grid,
                const std::string& path);

// [vmin, vmax] everywhere, [c0, c0] where the weight is 0. InputError for bounds that are not
// finite and positive with vmin < vmax, and for a starting velocity outside them (naming the point).
Bounds velocity_bounds(const Grid& grid, const std::vector<double>& start, double vmin, double vmax,
                       const std::vector<double>& weights);

}  // namespace revwave
