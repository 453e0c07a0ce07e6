// Small problems shared by the numerics tests.
#pragma once
#include <cmath>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::testing {

struct SmallCase {
  Grid grid;
  VelocityModel true_model, start_model;
  Acquisition acq;
  TimeAxis time;
};

// A 3D case with an anomaly, a source near the top and a line of receivers; awkward sizes on purpose.
inline SmallCase small_case(index_t nx = 19, index_t ny = 17, index_t nz = 15, index_t steps = 60, int order = 4) {
  SmallCase c;
  c.grid.shape = {nx, ny, nz};
  c.grid.nbl = 6;
  c.grid.spacing = 10.0;
  c.grid.space_order = order;
  c.true_model = default_true_model(c.grid.shape, c.grid.spacing);
  c.start_model = smoothed(c.true_model, 2, 2);
  c.acq.f0 = 15.0;
  c.acq.t0 = 1.5 / c.acq.f0;
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0}};
  for (int i = 0; i < 7; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 7.0, 0.41 * c.grid.extent(1), 21.0});
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt = default_dt(c.grid, vmax);
  c.time.steps = steps;
  return c;
}

// The case's shot record modelled in `model` on the CPU reference backend (the observed data).
template <class T>
std::vector<T> observed_in(const SmallCase& c, const VelocityModel& model) {
  const Problem<T> p = make_problem<T>(c.grid, model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  return run_forward(prop).traces;
}

// Options as a user gives them: snaps 0 means not given, and the store and directory are given
// only to the strategies that use them (the others refuse them).
inline StrategyOptions strategy(const std::string& name, index_t snaps = 0, const std::string& store = "memory",
                                const std::string& dir = "") {
  StrategyOptions s;
  s.strategy = parse_strategy(name);
  if (snaps > 0) s.snaps = snaps;
  if (takes_slots(s.strategy)) s.store = parse_store(store);
  if (parse_store(store) == StoreKind::disk || s.strategy == Strategy::multilevel) s.checkpoint_dir = dir;
  return s;
}

}  // namespace revwave::testing
