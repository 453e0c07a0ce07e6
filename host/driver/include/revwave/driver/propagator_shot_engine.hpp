// The one shot engine: the per-shot loop, the plan cache, the model's checks and the phase timing,
// written once as a template over a backend's engine side S (S<T> below), which holds what only
// that backend does. Each backend instantiates it in its own source
// (host/driver/src/cpu_shot_engine.cpp, cuda/backend/src/cuda_shot_engine.cpp); nothing else names
// a backend's engine.
//
// An engine side S, for values of T:
//   using Propagator = ...;                  // its propagator (propagator.hpp's concept)
//   struct LaneData;                         // what a lane holds besides its problem and propagator
//   static constexpr bool host_fills_m;      // each window's m filled on the host (false: the side cuts it)
//   static std::size_t lane_count(const EngineOptions&);   // lanes of shots run at once (1: one)
//   explicit S(const EngineOptions&);
//   TileBlocks& sums();
//   void set_model(const ResidentModel<T>&, std::vector<Lane>&);  // a new resident model
//   std::unique_ptr<Propagator> make(Lane&, const EngineShot&, const ResidentModel<T>&, std::size_t capacity);
//   void share_budget(std::vector<Lane>&);   // once every lane has its propagator, before the first plan
//   void retarget(Lane&, const EngineShot&, const ResidentModel<T>&);  // the lane's problem refilled
//   void start_loop(Lane&, std::int64_t& ticket);  void end_loop(Lane&, std::int64_t ticket);
//   double time_loop_seconds(std::int64_t ticket);  // 0 where the host's time is the loop's
//   TiledPart fold_gradient(Lane&, const EngineShot&, bool whole);
//   void start_illumination(Lane&, const EngineShot&);  // zeroed sums of u^2, before the first step
//   void before_step(Lane&, index_t n);  void after_step(Lane&, index_t n, index_t steps);
//   TiledPart fold_illumination(Lane&, const EngineShot&, bool whole);
//   void synchronize();                      // nothing of the run's left running (the engine's end)
// where Lane is EngineLane<T, S>.
#pragma once
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "revwave/core/seconds_since.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"

namespace revwave {

// One shot at a time runs on a lane: its window's problem, the propagator re-targeted to it, the
// observed data it reads, and what the side keeps per lane.
template <class T, template <class> class S>
struct EngineLane {
  Problem<T> problem;  // before the propagator, which refers to it
  std::unique_ptr<typename S<T>::Propagator> prop;
  std::vector<T> observed;
  typename S<T>::LaneData data;
};

template <class T, template <class> class S>
class PropagatorShotEngine final : public ShotEngine<T> {
 public:
  using Lane = EngineLane<T, S>;

  explicit PropagatorShotEngine(const EngineOptions& o)
      : o_(o), capacity_(o.largest_field_bytes<T>()), side_(o), lanes_(S<T>::lane_count(o)) {}
  ~PropagatorShotEngine() override { side_.synchronize(); }

  TileBlocks& sums() override { return side_.sums(); }

  void set_model(const VelocityModel& model) override {
    make_resident(model_, o_.grid, model);
    side_.set_model(model_, lanes_);
    checked_.clear();
  }

  EngineGradient gradient(const EngineShot& shot, const Misfit<T>& misfit, const Progress& progress) override {
    EngineGradient out;
    auto t = Clock::now();
    out.lane = static_cast<int>(next_lane_);
    Lane& lane = target(shot);
    const StrategyPlan& plan = plan_for(lane, shot);
    out.phases.setup = seconds_since(t);
    t = Clock::now();
    lane.observed.assign(shot.observed->begin(), shot.observed->end());
    out.phases.upload = seconds_since(t);
    t = Clock::now();
    side_.start_loop(lane, out.ticket);
    GradientOutput g = run_gradient(*lane.prop, misfit, lane.observed.data(), o_.strategy, plan, progress);
    side_.end_loop(lane, out.ticket);
    out.phases.time_loop = seconds_since(t);  // the host's; a device's replaces it (time_loop_seconds)
    t = Clock::now();
    out.gradient = side_.fold_gradient(lane, shot, whole(shot));
    out.phases.accumulate = seconds_since(t);
    out.stats = g.stats;
    out.predicted_forward_steps = plan.predicted_forward_steps;
    out.snaps = plan.snaps;
    return out;
  }

  TiledPart illumination(const EngineShot& shot, ShotPhases& phases, const Progress& progress) override {
    auto t = Clock::now();
    Lane& lane = target(shot);
    side_.start_illumination(lane, shot);
    phases.setup += seconds_since(t);
    t = Clock::now();
    auto& prop = *lane.prop;
    const index_t steps = lane.problem.time.steps;
    GrowthGuard guard(lane.problem);
    prop.reset_forward();
    for (index_t n = 0; n < steps; ++n) {
      side_.before_step(lane, n);
      prop.forward_step(n);
      side_.after_step(lane, n, steps);
      guard.after_step(prop, n + 1);
      if (progress) progress(n + 1, steps);
    }
    phases.time_loop += seconds_since(t);  // on a device: enqueued; its time shows in the next wait
    t = Clock::now();
    TiledPart part = side_.fold_illumination(lane, shot, whole(shot));
    phases.accumulate += seconds_since(t);
    return part;
  }

  double time_loop_seconds(std::int64_t ticket) override { return side_.time_loop_seconds(ticket); }

 private:
  using Clock = std::chrono::steady_clock;

  bool whole(const EngineShot& shot) const {
    return shot.first == std::array<index_t, 3>{0, 0, 0} && shot.shape == o_.grid.shape;
  }

  void fill(Lane& lane, const EngineShot& shot) {
    fill_window_problem(lane.problem, model_, shot.first, shot.shape, shot.acquisition, shot.time,
                        shot.wavelet != nullptr ? *shot.wavelet : no_wavelet_, S<T>::host_fills_m);
  }

  // The next lane (in turn) with the window's problem and its propagator re-targeted to it. The
  // first shot makes every lane's propagator (for its window) before the side shares the budget;
  // the lane made for this shot needs no re-target, one made before (for a shot whose set-up
  // failed after it) does. Re-targeting waits only for that lane's previous shot.
  Lane& target(const EngineShot& shot) {
    if (model_.m.empty()) throw std::logic_error("ShotEngine: no model set");
    if (checked_.insert({shot.time.dt, shot.acquisition.f0}).second)
      check_resident(model_, shot.time, shot.acquisition.f0);
    bool made_for_this_shot = false;
    if (!lanes_made_) {
      for (std::size_t i = 0; i < lanes_.size(); ++i) {
        Lane& lane = lanes_[i];
        if (lane.prop) continue;  // made before a later lane failed to be
        fill(lane, shot);
        lane.prop = side_.make(lane, shot, model_, capacity_);
        made_for_this_shot = made_for_this_shot || i == next_lane_;
      }
      side_.share_budget(lanes_);
      lanes_made_ = true;
    }
    Lane& lane = lanes_[next_lane_];
    next_lane_ = (next_lane_ + 1) % lanes_.size();
    if (!made_for_this_shot) {
      fill(lane, shot);
      side_.retarget(lane, shot, model_);
    }
    return lane;
  }

  // Plans depend on the step count and the window's layout only: made once for each.
  const StrategyPlan& plan_for(const Lane& lane, const EngineShot& shot) {
    const auto key = std::make_pair(shot.time.steps, shot.shape);
    auto it = plans_.find(key);
    if (it == plans_.end()) {
      it = plans_
               .emplace(key, plan_strategy(o_.strategy, shot.time.steps,
                                           physics_state(lane.problem.grid, physics_of(lane.problem)),
                                           field_layout<T>(lane.problem.grid)))
               .first;
    }
    return it->second;
  }

  EngineOptions o_;
  std::size_t capacity_;
  S<T> side_;
  ResidentModel<T> model_;
  std::vector<Lane> lanes_;
  std::size_t next_lane_ = 0;
  bool lanes_made_ = false;
  std::map<std::pair<index_t, std::array<index_t, 3>>, StrategyPlan> plans_;
  std::set<std::pair<double, double>> checked_;  // (dt, f0) checked against the model's extremes
  const std::vector<double> no_wavelet_;
};

}  // namespace revwave
