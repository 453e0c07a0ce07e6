// The survey's misfit and gradient, J = sum_s J_s and g = sum_s g_s over a fixed summation tree,
// each shot with the chosen strategy and budget, optionally on its own model window; the survey's
// forward modelling; and its misfit by forward modelling alone (for Taylor tests).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/misfit/misfit_choice.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/survey/model_window.hpp"
#include "revwave/survey/shot_runner.hpp"
#include "revwave/survey/summation_tree.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

struct SurveyRunOptions {
  StrategyOptions strategy;
  Backend backend = host_backend;
  DeviceBudgets budgets;  // cuda: its device is this process's GPU
  double aperture = -1;   // m around each shot's sources and receivers; < 0: the whole model
  // Shots without data get them modelled in this model (on the whole model) where they run.
  const VelocityModel* true_model = nullptr;
  MisfitChoice misfit;  // what J_s is: l2 unless chosen (the same on every process)
};

// A shot's problem on its window: grid, the simulation's time axis, its sampled signature (on the
// simulation's steps) if it has one.
template <class T>
Problem<T> shot_problem(const Grid& grid, const VelocityModel& model, const Shot& shot, const ModelWindow& w) {
  Problem<T> p = make_problem<T>(window_grid(grid, w), window_model(model, w),
                                 window_acquisition(shot.acquisition, grid, w), simulation_time(shot));
  if (!shot.wavelet.empty()) {
    const std::vector<double> wavelet = simulation_wavelet(shot);
    p.wavelet.assign(wavelet.begin(), wavelet.end());
  }
  return p;
}

// A run's traces (the simulation's samples) at the shot's data samples.
template <class T>
std::vector<double> record_traces(const std::vector<T>& traces, const Shot& shot) {
  if (shot.substeps == 1) return std::vector<double>(traces.begin(), traces.end());
  const index_t nrec = static_cast<index_t>(shot.acquisition.receivers.size());
  const index_t nt_sim = simulation_time(shot).nt();
  std::vector<T> out(static_cast<std::size_t>(shot.time.nt() * nrec));
  resample_to_records(traces.data(), nt_sim, nrec, shot.substeps, out.data());
  return std::vector<double>(out.begin(), out.end());
}

// Checks what can be checked before any shot runs, the same on every process: the survey, the
// strategy and budget for the largest window.
template <class T>
void check_survey_run(const Survey& survey, const Grid& grid, const VelocityModel& model, const SurveyRunOptions& o) {
  check_survey(survey, grid, model);
  if (grid.extra_fields != model.physics().extra_fields())  // the engine sized its fields by the grid
    throw std::logic_error("check_survey_run: the grid's fields do not carry the model's extra fields");
  for (const Shot& shot : survey.shots) {
    if (shot.data.empty() && o.true_model == nullptr) throw InputError(shot.name + ": no observed data");
    const ModelWindow w = shot_window(grid, shot.acquisition, o.aperture);
    plan_strategy(o.strategy, simulation_time(shot).steps, physics_state(window_grid(grid, w), model.physics()),
                  field_layout<T>(window_grid(grid, w)));
  }
}

namespace detail {
// Testing only: REVWAVE_INJECT_SHOT_FAILURE=N makes shot N fail where it runs, so that the tests can
// watch a failure on one process end the whole run.
inline void maybe_inject_failure(std::int64_t s, const Shot& shot) {
  const char* v = std::getenv("REVWAVE_INJECT_SHOT_FAILURE");
  if (v != nullptr && *v != '\0' && std::atoll(v) == s) {
    throw InputError(shot.name + ": failure injected by REVWAVE_INJECT_SHOT_FAILURE=" + std::string(v));
  }
}
}  // namespace detail

// A shot's data modelled in `model` on the whole grid.
template <class T>
std::vector<double> model_shot_data(const Grid& grid, const VelocityModel& model, const Shot& shot, Backend backend,
                                    const DeviceBudgets& budgets, double* seconds = nullptr,
                                    const Progress& progress = {}) {
  const Problem<T> p = shot_problem<T>(grid, model, shot, shot_window(grid, shot.acquisition, -1));
  const ShotData<T> d = run_on_backend(backend, p, budgets, ForwardCall<T>{progress});
  if (seconds) *seconds += d.step_seconds;
  return record_traces(d.traces, shot);
}

// The engine a survey's shots run on: fields for its largest window, the run's strategy, budgets and backend.
template <class T>
std::unique_ptr<ShotEngine<T>> make_survey_engine(const Grid& grid, const Survey& survey, const SurveyRunOptions& o) {
  EngineOptions eo;
  eo.grid = grid;
  for (const Shot& shot : survey.shots)
    eo.window_shapes.push_back(shot_window(grid, shot.acquisition, o.aperture).shape);
  eo.strategy = o.strategy;
  eo.budgets = o.budgets;
  return make_shot_engine<T>(o.backend, eo);
}

// A shot as the engine runs it: its window, its acquisition in the window's frame, the simulation's
// time axis, its data (at the data's samples: the misfit resamples, shot_misfit). `wavelet` holds its
// sampled signature on the simulation's steps while the engine runs it.
inline EngineShot engine_shot(const Grid& grid, const Shot& shot, double aperture, std::vector<double>& wavelet) {
  const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
  EngineShot e;
  e.first = w.first;
  e.shape = w.shape;
  e.acquisition = window_acquisition(shot.acquisition, grid, w);
  e.time = simulation_time(shot);
  if (shot.substeps == 1) {
    e.wavelet = shot.wavelet.empty() ? nullptr : &shot.wavelet;
  } else if (!shot.wavelet.empty()) {
    wavelet = simulation_wavelet(shot);
    e.wavelet = &wavelet;
  }
  e.observed = &shot.data;
  return e;
}

// The same for a shot that steps its data's dt (substeps 1; std::logic_error otherwise).
inline EngineShot engine_shot(const Grid& grid, const Shot& shot, double aperture) {
  if (shot.substeps != 1) throw std::logic_error("engine_shot: a resampled shot needs its wavelet's storage");
  std::vector<double> unused;
  return engine_shot(grid, shot, aperture, unused);
}

// One shot's J_s and g_s, g_s on the tiles its window touches, in the engine's sums.
template <class T>
ShotOutput shot_gradient(ShotEngine<T>& engine, const Grid& grid, const Shot& shot, const SurveyRunOptions& o,
                         const Progress& progress = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> wavelet;
  const EngineShot es = engine_shot(grid, shot, o.aperture, wavelet);
  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // J_s of the traces at the data's samples (the run's own when it steps their dt).
  const ResampledMisfit<T> misfit(o.misfit.get<T>(), shot.substeps);
  EngineGradient g = engine.gradient(es, misfit, progress);
  if (!std::isfinite(g.stats.objective))
    throw InputError(shot.name + ": the misfit is not finite (the data or the model overflow)");
  ShotOutput out;
  ShotSummary& s = out.summary;
  s.objective = g.stats.objective;
  s.steps = g.stats.steps;
  s.forward_steps = g.stats.forward_steps;
  s.reverse_steps = g.stats.reverse_steps;
  s.stores = g.stats.stores;
  s.restores = g.stats.restores;
  s.predicted_forward_steps = g.predicted_forward_steps;
  s.snaps = g.snaps;
  s.seconds_forward = g.stats.seconds_forward;
  s.seconds_reverse = g.stats.seconds_reverse;
  s.seconds_copies = g.stats.seconds_copies;
  s.wavefield_storage_bytes = g.stats.wavefield_storage_bytes;
  s.compression = g.stats.compression;
  s.phases = g.phases;
  s.phases.setup += setup;
  s.time_loop_ticket = g.ticket;
  for (int a = 0; a < 3; ++a) {
    s.window[a] = es.first[a];
    s.window[3 + a] = es.shape[a];
  }
  out.gradient = std::move(g.gradient);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// A device's time loop, read from its events once it has run.
template <class T>
void settle_time_loop(ShotEngine<T>& engine, ShotSummary& s) {
  if (s.time_loop_ticket < 0) return;
  s.phases.time_loop = engine.time_loop_seconds(s.time_loop_ticket);
  s.time_loop_ticket = -1;
}

// Before the first shot, the blocks the run's sums will hold (TileBlocks::reserve), so that no
// shot maps memory for its part: on the root what the tree holds at most with the shots in
// ascending order (all of it for one process; under MPI parts that arrive out of order may take
// more, allocated when they do), on another process its one part in flight, the largest window's.
// An engine that outlives calls has them from its first survey gradient on. Returns the seconds.
inline double reserve_tree_blocks(TileBlocks& blocks, const Grid& grid, const Survey& survey, double aperture,
                                  const ShotRunner& runner) {
  const auto t0 = std::chrono::steady_clock::now();
  const TileGrid& tiles = blocks.grid();
  std::size_t need = 0;
  if (runner.rank() == 0) {
    need = tree_peak_blocks(static_cast<index_t>(survey.shots.size()), [&](index_t s) {
      const ModelWindow w = shot_window(grid, survey.shots[static_cast<std::size_t>(s)].acquisition, aperture);
      return tiles.touched(w.first, w.shape);
    });
  } else {
    for (const Shot& shot : survey.shots) {
      const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
      need = std::max(need, static_cast<std::size_t>(tiles.touched_count(w.first, w.shape)));
    }
  }
  blocks.reserve(need);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// J and g of the whole survey on `engine` (which outlives calls: an inversion's evaluations share
// one). Every process calls it with the same arguments; the runner decides who runs which shot.
// Checks everything first (check_survey_run).
template <class T>
SurveySum survey_gradient(ShotEngine<T>& engine, const Grid& grid, const VelocityModel& model, const Survey& survey,
                          const SurveyRunOptions& o, ShotRunner& runner, const Progress& shots_done = {}) {
  check_survey_run<T>(survey, grid, model, o);
  engine.set_model(model);
  const bool worker = runner.rank() != 0;
  const ShotTask task = [&](std::int64_t s, const Progress& progress) {
    const Shot& shot = survey.shots[static_cast<std::size_t>(s)];
    detail::maybe_inject_failure(s, shot);
    ShotOutput out;
    if (!shot.data.empty()) {
      out = shot_gradient<T>(engine, grid, shot, o, progress);
    } else {
      Shot modelled = shot;
      modelled.data = model_shot_data<T>(grid, *o.true_model, shot, o.backend, o.budgets, nullptr, progress);
      out = shot_gradient<T>(engine, grid, modelled, o, progress);
    }
    if (worker) settle_time_loop(engine, out.summary);  // its tiles are read back for the message now anyway
    return out;
  };
  const double reserve = reserve_tree_blocks(engine.sums(), grid, survey, o.aperture, runner);
  SurveySum sum = runner.run(static_cast<std::int64_t>(survey.shots.size()), engine.sums(), task, shots_done);
  sum.seconds_reserve = reserve;
  for (ShotSummary& s : sum.shots)
    if (s.rank == runner.rank()) settle_time_loop(engine, s);  // the root's own shots, after the one read-back
  return sum;
}

// The same on an engine made for this call.
template <class T>
SurveySum survey_gradient(const Grid& grid, const VelocityModel& model, const Survey& survey, const SurveyRunOptions& o,
                          ShotRunner& runner, const Progress& shots_done = {}) {
  Grid g = grid;  // its fields carry what the model's physics adds (setup's grid does already)
  g.extra_fields = model.physics().extra_fields();
  const std::unique_ptr<ShotEngine<T>> engine = make_survey_engine<T>(g, survey, o);
  return survey_gradient<T>(*engine, g, model, survey, o, runner, shots_done);
}

// The survey's J by forward modelling alone on the CPU, summed over the same tree.
template <class T>
double survey_misfit(const Grid& grid, const VelocityModel& model, const Survey& survey, double aperture) {
  std::vector<double> values;
  for (const Shot& shot : survey.shots) {
    const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
    const Problem<T> p = shot_problem<T>(grid, model, shot, w);
    const std::vector<T> observed(shot.data.begin(), shot.data.end());
    const ResampledMisfit<T> misfit(l2_misfit<T>(), shot.substeps);
    values.push_back(forward_misfit(p, misfit, observed.data()));
  }
  return tree_sum(values);
}

// Models every shot's data (overwriting them) in `model`, on the whole model, shot after shot.
template <class T>
double survey_forward(const Grid& grid, const VelocityModel& model, Survey& survey, Backend backend,
                      const DeviceBudgets& budgets, const Progress& shots_done = {}) {
  check_survey(survey, grid, model);
  double seconds = 0;
  for (std::size_t s = 0; s < survey.shots.size(); ++s) {
    Shot& shot = survey.shots[s];
    const Progress steps = shots_done ? Progress([&](index_t, index_t) {
      shots_done(static_cast<index_t>(s), static_cast<index_t>(survey.shots.size()));
    })
                                      : Progress{};
    shot.data = model_shot_data<T>(grid, model, shot, backend, budgets, &seconds, steps);
    if (shots_done) shots_done(static_cast<index_t>(s + 1), static_cast<index_t>(survey.shots.size()));
  }
  return seconds;
}

}  // namespace revwave
