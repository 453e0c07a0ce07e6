// Gaussian smoothing of a field on the interior grid (nx, ny, nz), C order: a separable
// convolution with a sampled Gaussian of standard deviation `sigma` grid points, truncated at
// 4 sigma, zero outside the box. Zero outside (rather than renormalised at the edges) keeps the
// operator symmetric, so that smoothing a gradient is a symmetric positive semi-definite
// preconditioner: <S a, b> = <a, S b>.
#pragma once
#include <array>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

// sigma >= 0 points on every axis (0: that axis is left alone); InputError for a negative or
// non-finite sigma or a field whose size is not the shape's product.
void gaussian_smooth(std::vector<double>& field, const std::array<index_t, 3>& shape, double sigma);

}  // namespace revwave
