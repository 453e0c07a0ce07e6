// The variable-density physics' model side: the density's checks, its coefficients on the
// allocated grid, the factor its contrasts put on the stable dt, and E^T for dJ/drho.
//
// The extension E takes the interior density to every allocated point, the absorbing layer and
// the halo included: allocated (x, y, z) takes the interior point nearest to it on each axis
// (clamped), so the layer copies the edges as m does and the zeros beyond the layer, which the
// stencil reads as the field's boundary, read a density too. The z gap that ends a row is also
// the next row's z halo (grid.hpp): it holds the row's last value, which is what that row's
// points read there and what the next row's first points read as the density beyond them.
#pragma once
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"

namespace revwave {

// InputError naming the first density that is not finite and positive (kg/m^3, with its point),
// or a density whose size is not the model's.
void validate_density(const VelocityModel& model);

// The coefficients of m u_tt - rho div(rho^-1 grad u) = q on the allocated grid (values of T, as
// Problem::m): s = rho^(-1/2) and t = rho^(1/2), each from rho in double, extended by E.
struct DensityFields {
  HostBuffer s;
  HostBuffer t;
  bool image = false;  // the reverse steps image dJ/drho as well (--density-gradient)
};
template <class T>
DensityFields make_density_fields(const Grid& grid, const VelocityModel& model);

// The factor the density's contrasts put on the largest stable dt, 1 / sqrt(max(kappa, 1)):
// kappa is the largest ratio, over the padded points, of a row's Gershgorin sum of the
// variable-density operator to the constant-density one's (which is the Laplacian's spectral
// radius, max_stable_dt's bound). Exactly 1 without a density and for a constant one.
double density_dt_factor(const Grid& grid, const VelocityModel& model);

// E^T: the interior gradient (C order) of one on every allocated point, the layer's and the halo's
// shares folded onto the points they copy.
template <class T>
std::vector<double> fold_allocated_to_interior(const Grid& grid, const T* allocated);

}  // namespace revwave
