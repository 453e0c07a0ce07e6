// The inversion's preconditioner (the L-BFGS initial inverse Hessian up to its scale)
//   M = W^1/2 S D S W^1/2,
// D = 1 / ((I + 0.05 max I) F) with F the points of the padded grid each point stands for, I the
// source-side illumination (the sum over the time steps of u^2, summed over the shots) in the band's
// starting model, normalised to max D = 1 (identity when switched off); S a Gaussian smoothing of
// the given length (identity for 0); W the mask's weights in [0, 1]. M is fixed during a band,
// which keeps the curvature pairs consistent.
#pragma once
#include <array>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {

// D from the illumination, divided by the points each interior point stands for: an edge point's
// velocity fills the absorbing layer beyond it (1 + nbl points per axis at an edge), so its gradient
// sums over them all, and without this scaling the first steps change the model's faces and corners most.
inline constexpr double illumination_water_level = 0.05;  // of the largest illumination
std::vector<double> illumination_diagonal(const std::vector<double>& illumination, const Grid& grid);
// Points of the padded grid that copy each interior point (1 inside, (1 + nbl)^edges on faces).
std::vector<double> fold_counts(const Grid& grid);
// M v = W^1/2 S (D (S (W^1/2 v))); `diagonal` empty: D = I; sigma in grid points (0: no smoothing).
Preconditioner make_preconditioner(std::vector<double> diagonal, std::vector<double> weights,
                                   std::array<index_t, 3> shape, double sigma);

}  // namespace revwave
