// Full-waveform inversion: the survey's misfit minimised over the velocity model by projected
// L-BFGS (revwave/optim), band after band of a low-pass frequency continuation.
//
// The optimisation variable is the velocity c (m/s) at every interior point of the grid. The
// survey gradient is dJ/dm with m = 1/c^2 (s^2/m^2); by the chain rule
//   dJ/dc = dJ/dm dm/dc = -2 dJ/dm / c^3.
// Velocity keeps the bounds (--vmin, --vmax) and the CFL condition (a bound on c) simple boxes.
//
// The preconditioner (the L-BFGS initial inverse Hessian up to its scale) is
//   M = W^1/2 S D S W^1/2,
// D = 1 / ((I + 0.05 max I) F) with F the points of the padded grid each point stands for, I the source-side illumination (the sum over the time steps of
// u^2, summed over the shots) in the band's starting model, normalised to max D = 1 (identity
// when switched off); S a Gaussian smoothing of the given length (identity for 0); W the mask's
// weights in [0, 1]. Points of weight 0 are frozen: both bounds are their starting velocity, so
// that no step can move them. M is fixed during a band, which keeps the curvature pairs consistent.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/optim/projected_lbfgs.hpp"
#include "revwave/survey/shot_runner.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// dJ/dc = -2 dJ/dm / c^3, point by point (sizes must agree).
std::vector<double> velocity_gradient(const std::vector<double>& velocity, const std::vector<double>& dj_dm);

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

// D from the illumination (see the file comment), divided by the points each interior point stands
// for: an edge point's velocity fills the absorbing layer beyond it (1 + nbl points per axis at an
// edge), so its gradient sums over them all, and without this scaling the first steps change the
// model's faces and corners most.
inline constexpr double illumination_water_level = 0.05;  // of the largest illumination
std::vector<double> illumination_diagonal(const std::vector<double>& illumination, const Grid& grid);
// Points of the padded grid that copy each interior point (1 inside, (1 + nbl)^edges on faces).
std::vector<double> fold_counts(const Grid& grid);
// M v = W^1/2 S (D (S (W^1/2 v))); `diagonal` empty: D = I; sigma in grid points (0: no smoothing).
Preconditioner make_preconditioner(std::vector<double> diagonal, std::vector<double> weights,
                                   std::array<index_t, 3> shape, double sigma);

// The survey in a band: every shot's data and source signature low-passed with the same
// zero-phase Butterworth filter (cut-off in Hz, order 4, run forward and backward). A shot without
// a sampled signature gets its Ricker wavelet sampled first. The filter is not causal: the filtered
// wavelet starts before t = 0. So that the data of the filtered wavelet are the filtered data (the
// wave equation is linear and time-invariant), each shot's time axis is extended by
// band_lead_periods periods of the cut-off before its first sample, data and wavelet being zero
// there (the medium is at rest before the source acts), and both are filtered on the extended
// axis: the precursor is injected, not cut. (Near the record's end the filter still sees the data's
// reflected extension, which no model reproduces: a small part of the band's misfit.)
// cutoff 0: the survey as it is.
inline constexpr double band_lead_periods = 3.0;
Survey band_survey(const Survey& survey, double cutoff_hz);

struct InversionSettings {
  double vmin = 0, vmax = 0;           // m/s
  int lbfgs_memory = 5;
  int iterations = 10;                 // per band
  double tolerance = 1e-4;             // a band ends when an iteration lowers J by less than this fraction
  double first_step = 0;               // m/s: the largest change of the first trial of a band (0: 2% of vmax)
  int max_evaluations = 10;            // trials per line search
  bool illumination = true;
  double smooth = 0;                   // Gaussian sigma, grid points
  std::vector<double> weights;         // mask per interior point; empty: 1 everywhere
  std::vector<double> bands;           // cut-offs in Hz, increasing; empty: one band of the data as they are
};

enum class BandEnd { running, iterations, relative_decrease, line_search_failed, stationary };
std::string to_string(BandEnd reason);

// Everything an inversion needs to continue exactly where it stopped.
struct InversionState {
  std::string fingerprint;     // what the run inverts (grid, data, start, settings): resume refuses another
  int band = 0;                // the band running (or next, after the last one ended)
  int band_iteration = 0;      // iterations completed in this band
  int iteration = 0;           // iterations completed in all
  bool band_started = false;   // `optimizer` and `diagonal` belong to this band
  BandEnd band_end = BandEnd::running;
  std::vector<BandEnd> ended;  // how each finished band ended
  OptimizerState optimizer;
  std::vector<double> diagonal;  // D of this band (empty: none)
  std::vector<double> model;     // the latest velocity (between bands: the next band's start)
};

// The state as one binary file (bit-exact doubles), written atomically; read back with checks.
void save_inversion_state(const std::string& path, const InversionState& state);
InversionState load_inversion_state(const std::string& path);

// A 64-bit FNV-1a hash of bytes, for fingerprints.
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 14695981039346656037ull);

struct IterationRecord {
  int iteration = 0, band = 0;
  double cutoff = 0;          // Hz, 0: no filter
  double objective = 0;       // J after the step
  double objective_before = 0;
  double gradient_norm = 0;   // |reduced dJ/dc| at the iterate the step started from
  double step = 0;
  int evaluations = 0;
  double seconds = 0;
  bool memory_reset = false;
};

// The inversion's callbacks: after each accepted iteration and after each band's end (the state is
// complete at both; the caller writes it, and the model, on its writing process).
struct InversionHooks {
  std::function<void(const InversionState&, const IterationRecord&)> iteration;
  std::function<void(const InversionState&, int band, BandEnd reason)> band_end;
  std::function<void(int band, double cutoff, double objective)> band_start;
};

// The survey's J and dJ/dc at `velocity` on every process (the root's sums, broadcast); and the
// illumination sum over shots. Collective over the runner's processes.
using VelocityObjective = std::function<double(const std::vector<double>& velocity, std::vector<double>& gradient)>;
using Illumination = std::function<std::vector<double>(const std::vector<double>& velocity)>;
// Makes the objective and illumination of a band (the caller binds the survey and the backend).
using BandProblem = std::function<std::pair<VelocityObjective, Illumination>(double cutoff_hz)>;

// Runs (or continues) the inversion from `state` (a fresh state: band 0 from `start`). Every
// process runs it with the same arguments and takes the same steps.
void run_inversion(const Grid& grid, const std::vector<double>& start, const InversionSettings& settings,
                   const BandProblem& band_problem, InversionState& state, const InversionHooks& hooks);

}  // namespace revwave
