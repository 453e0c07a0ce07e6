// A shot engine: what a survey gradient or an inversion runs every shot on. It lives for the run:
// the propagator (its fields, pool, stores' fields, streams), the window problem's buffers and the
// partial sums' blocks are allocated once, for the largest window, and re-targeted to each shot;
// the model is resident (on the device, on a GPU) and each window is cut from it. A shot's gradient
// becomes a TiledPart of sums(), never a whole-model vector.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/core/progress.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/gradient_output.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/tile_sums.hpp"
#include "revwave/misfit/misfit.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// Where a shot's time went, in seconds. On a GPU the time loop is the device's (events), the other
// phases the host's.
struct ShotPhases {
  double setup = 0;       // the window's problem, the propagator re-targeted, the plan
  double upload = 0;      // the observed data into the run's precision (a GPU: and its device arrays)
  double time_loop = 0;   // the strategy's sweeps, the misfit between them included
  double accumulate = 0;  // the gradient into its tiles and the tree's sums
  double idle = 0;        // waiting between shots (for work, for the device)
  double outside_loop() const { return setup + upload + accumulate + idle; }
  ShotPhases& operator+=(const ShotPhases& o) {
    setup += o.setup;
    upload += o.upload;
    time_loop += o.time_loop;
    accumulate += o.accumulate;
    idle += o.idle;
    return *this;
  }
};

// One shot as the engine runs it: a window of the resident model and what happens in it.
struct EngineShot {
  std::array<index_t, 3> first{0, 0, 0};  // the window's first interior point in the whole model
  std::array<index_t, 3> shape{0, 0, 0};  // its interior points
  Acquisition acquisition;                // in the window's frame
  TimeAxis time;
  const std::vector<double>* wavelet = nullptr;   // a sampled signature (nt), or null: the Ricker wavelet
  const std::vector<double>* observed = nullptr;  // nt x nrec (the gradient)
};

struct EngineGradient {
  GradientStats stats;
  index_t predicted_forward_steps = 0, snaps = 0;
  TiledPart gradient;  // dJ_s/dm on the tiles the window touches
  ShotPhases phases;
  // >= 0 where phases.time_loop is the device's, known once it has run (time_loop_seconds).
  std::int64_t ticket = -1;
  int lane = 0;  // which of the engine's lanes ran it (DeviceBudgets::shots_at_once; 0 with one)
};

struct EngineOptions {
  Grid grid;                                          // the whole model's
  std::vector<std::array<index_t, 3>> window_shapes;  // every window the engine will run (fields for the largest)
  StrategyOptions strategy;
  DeviceBudgets budgets;  // cuda: the device is budgets.device
  // cuda: the illumination by a square-add kernel after every step, never in the sweep (the tests'
  // reference for the sweep's sum in passing; the same bits).
  bool square_add_illumination = false;

  // Bytes of one field of the largest window: what each of the engine's fields is allocated for.
  // A window below a free surface has a layer on top (window_grid), so with a surface each shape
  // is sized both ways: a row one layer longer can round up to one more row_align.
  template <class T>
  std::size_t largest_field_bytes() const {
    std::size_t bytes = 0;
    Grid g = grid;
    for (const auto& shape : window_shapes)
      for (bool surface : {grid.free_surface, false}) {
        g.shape = shape;
        g.free_surface = surface;
        bytes = std::max(bytes, g.template field_bytes<T>());
      }
    return bytes;
  }
};

template <class T>
class ShotEngine {
 public:
  virtual ~ShotEngine() = default;
  // Where the parts live; the tree adds them there.
  virtual TileBlocks& sums() = 0;
  // The model the following shots run in: validated and converted once (O(model)); on a GPU
  // uploaded once.
  virtual void set_model(const VelocityModel& model) = 0;
  // J_s and g_s of one shot under the engine's strategy, J_s by `misfit` (the run's: any built-in
  // one or the caller's). A window that is the whole model gives the shot's own values; a smaller
  // one, its values added into the zeros of the whole model.
  virtual EngineGradient gradient(const EngineShot& shot, const Misfit<T>& misfit, const Progress& progress) = 0;
  // The source-side illumination sum over steps n = 1..N of u[n]^2 at the window's interior points;
  // `progress` hears every step (it may throw to cancel the run).
  virtual TiledPart illumination(const EngineShot& shot, ShotPhases& phases, const Progress& progress) = 0;
  // The device's seconds in the time loop of the shot with `ticket` (waits until it has run; the
  // time loops of a device are timed by events, so that no shot waits for them).
  virtual double time_loop_seconds(std::int64_t ticket) {
    (void)ticket;
    return 0;
  }
};

// The CPU backend's engine.
template <class T>
std::unique_ptr<ShotEngine<T>> make_cpu_shot_engine(const EngineOptions& options);
// The engine of a backend: make_shot_engine in backend_registry.hpp.

}  // namespace revwave
