// dJ/drho from what the reverse sweep accumulated (point_formulas.hpp: G and Q on the allocated
// grid), once, at the end: at every allocated point j
//
//   dJ/drho_j = (s_j^2 / 2) (G_j + s_j Z_j),     Z = C(t Q),  C f_j = sum_i w_ji f_i,
//
// the derivative through rho -> (s, t) of sum_n lam[n+1]^T K u[n] (docs/physics/density.md), then
// E^T onto the interior points (density_model.hpp). Z reaches the halo and the row gaps, where the
// stencil read the density beyond the padded grid: their share lands on the points E copied there.
// Computed in double, the same code for every backend (the CUDA one reads G and Q back once).
#pragma once
#include <vector>

#include "revwave/numerics/grid.hpp"

namespace revwave {

// weights: the Laplacian's (w[0] the centre, unused); s, t, g, q: the allocated grid.
template <class T>
std::vector<double> density_gradient(const Grid& grid, const std::vector<T>& weights, const T* s, const T* t,
                                     const T* g, const T* q);

}  // namespace revwave
