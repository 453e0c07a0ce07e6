// Small problems shared by the numerics, driver, store, schedule and GPU tests.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "small_grid.hpp"

namespace revwave::testing {

struct SmallCase {
  Grid grid;
  VelocityModel true_model, start_model;
  Acquisition acq;
  TimeAxis time;
};

// What every small case shares: the grid, the true model with its anomaly and a smoothed start
// model, a 15 Hz wavelet, and a time step stable in both models. No sources or receivers yet.
inline SmallCase case_on(const std::array<index_t, 3>& shape, index_t nbl, int order, index_t steps) {
  SmallCase c;
  c.grid = small_grid(shape, nbl, order);
  c.true_model = default_true_model(c.grid.shape, c.grid.spacing);
  c.start_model = smoothed(c.true_model, 2, 2);
  c.acq.f0 = 15.0;
  c.acq.t0 = 1.5 / c.acq.f0;
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt = default_dt(c.grid, vmax);
  c.time.steps = steps;
  return c;
}

// A 3D case with an anomaly, a source near the top and a line of receivers; awkward sizes on purpose.
inline SmallCase small_case(index_t nx = 19, index_t ny = 17, index_t nz = 15, index_t steps = 60, int order = 4) {
  SmallCase c = case_on({nx, ny, nz}, 6, order, steps);
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0}};
  for (int i = 0; i < 7; ++i)
    c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 7.0, 0.41 * c.grid.extent(1), 21.0});
  return c;
}

// The case's shot record modelled in `model` on the CPU reference backend (the observed data).
template <class T>
std::vector<T> observed_in(const SmallCase& c, const VelocityModel& model) {
  const Problem<T> p = make_problem<T>(c.grid, model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  return run_forward(prop).traces;
}

// Whether two vectors hold the same bits (a NaN equals itself, -0 differs from 0).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp's pointers must not be null, even for no bytes (an empty vector's may be).
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
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

// The checkpointed runs a physics' bitwise test compares with full: revolve (3 slots) and online
// (4) in memory and on disk under `dir`, and multilevel over memory:2 and disk:3.
inline std::vector<std::pair<std::string, StrategyOptions>> checkpointed_strategies(const std::string& dir) {
  std::vector<std::pair<std::string, StrategyOptions>> runs;
  for (const char* store : {"memory", "disk"}) {
    runs.emplace_back(std::string("revolve ") + store, strategy("revolve", 3, store, dir));
    runs.emplace_back(std::string("online ") + store, strategy("online", 4, store, dir));
  }
  StrategyOptions ml = strategy("multilevel", 0, "memory", dir);
  ml.tiers = {"memory:2", "disk:3"};
  runs.emplace_back("multilevel", ml);
  return runs;
}

// A small case ready for gradients on the CPU reference backend: its observed data (modelled in
// the true model), the problem in the start model with its propagator, and the gradient of
// `full`, which every checkpointed strategy must equal bit for bit. Not copyable: prop holds p.
template <class T>
struct CpuGradientCase {
  explicit CpuGradientCase(SmallCase small)
      : c(std::move(small)),
        d(observed_in<T>(c, c.true_model)),
        p(make_problem<T>(c.grid, c.start_model, c.acq, c.time)),
        prop(p),
        layout(field_layout<T>(c.grid)),
        ref(run(strategy("full"))) {}
  CpuGradientCase(const CpuGradientCase&) = delete;
  CpuGradientCase& operator=(const CpuGradientCase&) = delete;

  // Planned on the fields' layout, which --compress needs; without it a plan is the one the
  // fields' byte size gives.
  StrategyPlan plan(const StrategyOptions& s) const {
    return plan_strategy(s, c.time.steps, physics_state(c.grid, c.start_model.physics()), layout);
  }
  GradientOutput run(const StrategyOptions& s, StrategyReport* report = nullptr) {
    return run_gradient(prop, d.data(), s, plan(s), {}, report);
  }

  SmallCase c;
  std::vector<T> d;
  Problem<T> p;
  CpuPropagator<T> prop;
  FieldLayout layout;
  GradientOutput ref;
};

// A Taylor test's direction in m from the starting model towards the true one, with a small
// oscillation so that it is not along the model's own structure, scaled to 2% of max m at h = 1.
inline std::vector<double> towards_true_model(const SmallCase& c) {
  std::vector<double> dm(c.start_model.velocity.size());
  double dm_max = 0, m_max = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) {
    const double m0 = 1.0 / (c.start_model.velocity[i] * c.start_model.velocity[i]);
    dm[i] = 1.0 / (c.true_model.velocity[i] * c.true_model.velocity[i]) - m0 + 0.05 * m0 * std::sin(0.3 * double(i));
    dm_max = std::max(dm_max, std::abs(dm[i]));
    m_max = std::max(m_max, m0);
  }
  for (double& v : dm) v *= 0.02 * m_max / dm_max;
  return dm;
}

// dJ/dm at the start model's point i (C order) by a central difference of J, the forward misfit
// (`misfit`, L2 by default) of the traces against d, modelled on `backend`, with m perturbed there
// by +-1e-3 m(i): the independent truth a gradient's component is checked against.
inline double central_difference_in_m(const SmallCase& c, const std::vector<double>& d, std::size_t i,
                                      const Misfit<double>& misfit = l2_misfit<double>(),
                                      Backend backend = host_backend) {
  const double eps = 1e-3 / std::pow(c.start_model.velocity[i], 2);
  std::vector<double> dm(c.start_model.velocity.size(), 0.0);
  dm[i] = 1.0;
  auto J = [&](double e) {
    return forward_misfit(make_problem<double>(c.grid, perturbed_model(c.start_model, dm, e), c.acq, c.time), misfit,
                          d.data(), backend);
  };
  return (J(eps) - J(-eps)) / (2 * eps);
}

}  // namespace revwave::testing
