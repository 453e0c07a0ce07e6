// dJ/drho from what the reverse steps imaged (density_image_step: the derivative of
// sum_n lam[n+1]^T K u[n] through the scaled density at every padded point, the half points past
// the padded grid counted on the edge points whose density they repeat), once, at the end: in
// kg/m^3 (divided by the density's reference: K does not change when rho is scaled, so neither
// does J), then E^T onto the interior points (density_model.hpp). The same code for every backend
// (the CUDA one reads its accumulator back once).
#pragma once
#include <vector>

#include "revwave/numerics/grid.hpp"

namespace revwave {

template <class T>
std::vector<double> density_gradient(const Grid& grid, const T* image, double reference);

}  // namespace revwave
