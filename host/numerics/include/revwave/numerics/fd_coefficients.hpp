// Central finite-difference weights of the second derivative, of any even order, computed.
#pragma once
#include <vector>

namespace revwave {

// Weights c[0..k] of d2/dx2 of order 2k on unit spacing:
// f''(x) ~ c[0] f(x) + sum_j c[j] (f(x + j) + f(x - j)).
std::vector<double> second_derivative_weights(int space_order);

// Weights d[1..r] ([0] unused) of the staggered first derivative of order 2r on unit spacing, at
// the half point between two grid points: f'(x) ~ sum_q d[q] (f(x + q - 1/2) - f(x - q + 1/2)).
std::vector<double> staggered_first_derivative_weights(int radius);

// Largest eigenvalue of -L (the Laplacian stencil in 3, or on a plane 2, dimensions) on spacing
// h, over all wavenumbers: dimensions * max_theta -(c0 + 2 sum_j c_j cos(j theta)) / h^2.
double laplacian_spectral_radius(int space_order, double spacing, int dimensions = 3);

}  // namespace revwave
