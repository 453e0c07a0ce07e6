// The model as a shot engine holds it for a run, and a shot's problem cut from it: m = 1/c^2 of
// every interior point computed once per model (the whole-model checks with it), then each shot's
// window problem refilled in place, its buffers reused, in O(window) without checking the model
// again. The problem equals make_problem's on the window's velocities, bit for bit.
#pragma once
#include <array>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
struct ResidentModel {
  Grid grid;         // the whole model's grid
  std::vector<T> m;  // 1/c^2 at the interior points, x, y, z (z fastest), as make_problem rounds it
  double vmin = 0, vmax = 0;
  // kg/m^3 at the interior points (C order) when the model has one (empty: constant density), and
  // Thomsen's epsilon and delta when the model is VTI (numerics/vti/), checked.
  std::vector<double> density;
  std::vector<double> epsilon, delta;
  // Q and its frequencies when the model attenuates (numerics/visco/), checked.
  std::vector<double> q;
  double q_frequency = 0, q_f0 = 0;
  // The factor the model's density, anisotropy or attenuation puts on the stable dt (physics_dt_factor of the
  // whole model; 1 for the constant-density equation).
  double physics_factor = 1.0;
  double bulk_modulus_ratio = 1.0;  // of the whole model: every window's problem carries it
};

// Validates the velocities (finite, positive) and computes m; O(model), once per model.
template <class T>
void make_resident(ResidentModel<T>& out, const Grid& grid, const VelocityModel& model);

// make_problem's checks of the numbers that do not depend on the points (grid, f0, dt stable and
// representable in T) for the model's extreme velocities (and dt against physics_factor):
// every window's problem then passes them.
template <class T>
void check_resident(const ResidentModel<T>& model, const TimeAxis& time, double f0);

// The problem of the window at `first` (interior point of the whole grid) of `shape` points, with
// the acquisition in the window's frame, the time axis and, when not empty, a sampled signature.
// A model with a density gives the window its density's coefficients (cut from the model's, as
// window_model cuts it: make_problem's on the window, bit for bit); without one p.density is reset.
// A VTI model gives the window its epsilon's and delta's coefficients the same way (p.vti), and the
// window's grid its second field.
// `p` keeps its buffers when they are large enough. Without `with_m` p.m is left as it is (a GPU
// cuts the window's m from its resident copy; window_a_at gives a where the host needs it).
template <class T>
void fill_window_problem(Problem<T>& p, const ResidentModel<T>& model, const std::array<index_t, 3>& first,
                         const std::array<index_t, 3>& shape, const Acquisition& acquisition, const TimeAxis& time,
                         const std::vector<double>& wavelet, bool with_m = true);

// leapfrog_a_at(p, idx) of a window problem, its m read from the resident model (p.m not needed).
template <class T>
T window_a_at(const Problem<T>& p, const ResidentModel<T>& model, const std::array<index_t, 3>& first, index_t idx);

}  // namespace revwave
