// Full-waveform inversion: the survey's misfit minimised over the velocity model by projected
// L-BFGS (revwave/optim), band after band of a low-pass frequency continuation. Its pieces, one
// header each: the chain rule to velocity, the masks and bounds, the preconditioner, the bands, the
// resumable state and its fingerprint; here the loop that joins them.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "revwave/inversion/bands.hpp"
#include "revwave/inversion/fingerprint.hpp"
#include "revwave/inversion/inversion_settings.hpp"
#include "revwave/inversion/inversion_state.hpp"
#include "revwave/inversion/masks.hpp"
#include "revwave/inversion/preconditioner.hpp"
#include "revwave/inversion/velocity_gradient.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {

struct IterationRecord {
  int iteration = 0, band = 0;
  double cutoff = 0;     // Hz, 0: no filter
  double objective = 0;  // J after the step
  double objective_before = 0;
  double gradient_norm = 0;  // |reduced dJ/dc| at the iterate the step started from
  double step = 0;
  int evaluations = 0;
  double seconds = 0;
  // Of those, the share of this process's wall time its evaluations spent in time loops (the
  // shots' time loops summed, over the processes); the rest is host work, waits and the optimiser.
  double seconds_time_loops = 0;
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
// A band's objective and illumination, and a clock of the seconds they spent in time loops so far
// (empty: not measured).
struct BandFunctions {
  VelocityObjective objective;
  Illumination illumination;
  std::function<double()> time_loops;
  BandFunctions(VelocityObjective o, Illumination i, std::function<double()> t = {})
      : objective(std::move(o)), illumination(std::move(i)), time_loops(std::move(t)) {}
  BandFunctions(std::pair<VelocityObjective, Illumination> p)  // NOLINT: a plain pair is a band without a clock
      : objective(std::move(p.first)), illumination(std::move(p.second)) {}
};
// Makes the functions of a band (the caller binds the survey and the backend).
using BandProblem = std::function<BandFunctions(double cutoff_hz)>;

// Runs (or continues) the inversion from `state` (a fresh state: band 0 from `start`). Every
// process runs it with the same arguments and takes the same steps.
void run_inversion(const Grid& grid, const std::vector<double>& start, const InversionSettings& settings,
                   const BandProblem& band_problem, InversionState& state, const InversionHooks& hooks);

}  // namespace revwave
