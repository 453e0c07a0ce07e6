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
// a density whose size is not the model's, or contrasts the precision cannot hold
// (max_density_contrast).
void validate_density(const VelocityModel& model);

// The largest ratio of the largest density to the smallest that a run accepts: s and t span its
// square root and the fluxes its value, which stays far inside float's range (1e38).
inline constexpr double max_density_contrast = 1e12;

// The coefficients of m u_tt - rho div(rho^-1 grad u) = q on the allocated grid (values of T, as
// Problem::m), of the scaled density rho / reference (point_formulas.hpp; K does not change when
// rho is scaled, and a constant density is 1 everywhere, so its coefficients are 1 and its bits
// the constant-density equation's): s = (rho / reference)^(-1/2) and t = 1 / s at every allocated
// point (extended by E), and per axis B at the half points, b[a][i] = s_i s_(i + stride_a) with the
// density extended past each padded row's ends by its own end value (z: the start's half points
// lie in the row gap before the row, after the previous row's end's: the gap holds both; x and y:
// in the halo). All computed in double. `stagger`: the staggered derivative's weights d_q / h,
// q = 1 .. RD ([0] unused).
struct DensityFields {
  HostBuffer s;
  HostBuffer t;
  HostBuffer b[3];  // z, y, x
  std::vector<double> stagger;
  double reference = 1;  // kg/m^3: sqrt(min max) of the interior density
  bool image = false;    // the reverse steps image dJ/drho as well (--density-gradient)
};
template <class T>
DensityFields make_density_fields(const Grid& grid, const VelocityModel& model);

// The density's scale: sqrt(min max) over its values, min when they are all equal (exactly).
double density_reference(const VelocityModel& model);

// The factor the density puts on the largest stable dt, 1 / sqrt(max(kappa, 1)): kappa bounds
// the largest eigenvalue of diag(sqrt(rho)) A diag(sqrt(rho)) (similar to K) over the constant-density
// one, by the two semi-definite parts' bounds (density_model.cpp). Exactly 1 without a density and
// for a constant one.
double density_dt_factor(const Grid& grid, const VelocityModel& model);

// E^T: the interior gradient (C order) of one on every allocated point, the layer's and the halo's
// shares folded onto the points they copy.
template <class T>
std::vector<double> fold_allocated_to_interior(const Grid& grid, const T* allocated);

}  // namespace revwave
