// The pseudo-acoustic VTI physics' model side: Thomsen's epsilon and delta, their checks, their
// coefficients on the allocated grid, and the factor they put on the stable dt.
//
// The equation (docs/physics/anisotropy.md): the coupled pair of Zhang, Zhang and Zhang (2011),
//   m p_tt = (1 + 2 epsilon) Hxy p + S Hz q,   m q_tt = S Hxy p + Hz q,   S = sqrt(1 + 2 delta),
// (Hxy = d_xx + d_yy, Hz = d_zz), which is M H with M = [[1 + 2 epsilon, S], [S, 1]] pointwise: M is
// positive semi-definite exactly where epsilon >= delta, and there the system is stable. It runs
// in the variables (p, d = p - q), a change that keeps every eigenvalue and makes the source and
// the receivers act on p alone: a source injected equally into p and q drives p only, and where
// epsilon = delta = 0 d stays zero and p obeys m p_tt = (Hxy + Hz) p, today's equation, value for
// value.
#pragma once
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"

namespace revwave {

// InputError naming the first epsilon or delta that breaks a rule, with its point: both given and
// of the model's size, finite, delta > -1/2 (S real), epsilon >= delta (the pseudo-acoustic
// equation is unstable where epsilon < delta), |epsilon|, |delta| <= max_thomsen.
void validate_vti(const VelocityModel& model);

// The largest |epsilon| and |delta| a run accepts: far beyond any rock (0.5 is strong), small
// enough that the coefficients below stay within a few units.
inline constexpr double max_thomsen = 10.0;

// The pair's coefficients on the allocated grid (values of T, padded like m, zero in the halo):
// c1 = 2 epsilon (1 + 2 epsilon - 1) and c2 = sqrt(1 + 2 delta) - 1 (S - 1), computed in double; both
// are exactly 0 in an isotropic medium.
struct VtiFields {
  HostBuffer c1;
  HostBuffer c2;
};
template <class T>
VtiFields make_vti_fields(const Grid& grid, const VelocityModel& model);
// The same from epsilon and delta at the grid's interior points (C order) that validate_vti passed:
// a window's, cut from a checked model (driver/window_problem.hpp).
template <class T>
VtiFields make_vti_fields(const Grid& grid, const std::vector<double>& epsilon, const std::vector<double>& delta);

// The factor the anisotropy puts on the largest stable dt, sqrt(D / max_x lambda(x)) (whatever the
// velocity at x, so that it holds for any model whose velocities stay below the bound's, as an
// inversion's do up to --vmax):
// with Hxy bounded by (D - 1) and Hz by 1 times one axis' spectral radius, the operator's is at most
// lambda(x) times that, lambda the largest eigenvalue of diag(sqrt(D-1), 1) M diag(sqrt(D-1), 1)
// (D: the dimensions), which is D where epsilon = delta = 0. Exactly 1 without anisotropy.
double vti_dt_factor(const Grid& grid, const VelocityModel& model);

}  // namespace revwave
