// The CPU backend's shot engine: one CpuPropagator for the run, sized for the largest window and
// re-targeted to each shot; the window problems refilled from the resident model; the gradient
// folded straight from the propagator's field into host tile blocks.
#include <chrono>
#include <map>
#include <set>
#include <utility>

#include "revwave/core/seconds_since.hpp"
#include "revwave/driver/cpu_checkpoints.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/host_tile_blocks.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {
namespace {

using Clock = std::chrono::steady_clock;

template <class T>
class CpuShotEngine final : public ShotEngine<T> {
 public:
  explicit CpuShotEngine(const EngineOptions& o)
      : o_(o), capacity_(o.largest_field_bytes<T>()), sums_(TileGrid{o.grid.shape}) {}

  TileBlocks& sums() override { return sums_; }

  void set_model(const VelocityModel& model) override {
    make_resident(model_, o_.grid, model);
    checked_.clear();
  }

  EngineGradient gradient(const EngineShot& shot, const Misfit<T>& misfit, const Progress& progress) override {
    EngineGradient out;
    auto t = Clock::now();
    target(shot);
    const StrategyPlan& plan = plan_for(shot);
    out.phases.setup = seconds_since(t);
    t = Clock::now();
    observed_.assign(shot.observed->begin(), shot.observed->end());
    out.phases.upload = seconds_since(t);
    t = Clock::now();
    GradientOutput g = run_gradient(*prop_, misfit, observed_.data(), o_.strategy, plan, progress);
    out.phases.time_loop = seconds_since(t);
    t = Clock::now();
    out.gradient = fold_to_tiles(sums_, problem_.grid, shot.first, prop_->gradient_field(), !whole(shot));
    out.phases.accumulate = seconds_since(t);
    out.stats = g.stats;
    out.predicted_forward_steps = plan.predicted_forward_steps;
    out.snaps = plan.snaps;
    return out;
  }

  TiledPart illumination(const EngineShot& shot, ShotPhases& phases, const Progress& progress) override {
    auto t = Clock::now();
    target(shot);
    illumination_.assign(static_cast<std::size_t>(problem_.grid.interior_points()), 0.0);
    phases.setup += seconds_since(t);
    t = Clock::now();
    GrowthGuard guard(problem_);
    prop_->reset_forward();
    for (index_t n = 0; n < problem_.time.steps; ++n) {
      prop_->forward_step(n);
      prop_->add_squared_interior(illumination_);
      guard.after_step(*prop_, n + 1);
      if (progress) progress(n + 1, problem_.time.steps);
    }
    phases.time_loop += seconds_since(t);
    t = Clock::now();
    TiledPart part = window_to_tiles(sums_, shot.first, shot.shape, illumination_.data(), !whole(shot));
    phases.accumulate += seconds_since(t);
    return part;
  }

 private:
  bool whole(const EngineShot& shot) const {
    return shot.first == std::array<index_t, 3>{0, 0, 0} && shot.shape == o_.grid.shape;
  }

  // The shot's problem refilled in place and the propagator re-targeted to it.
  void target(const EngineShot& shot) {
    if (model_.m.empty()) throw std::logic_error("ShotEngine: no model set");
    if (checked_.insert({shot.time.dt, shot.acquisition.f0}).second)
      check_resident(model_, shot.time, shot.acquisition.f0);
    fill_window_problem(problem_, model_, shot.first, shot.shape, shot.acquisition, shot.time,
                        shot.wavelet != nullptr ? *shot.wavelet : no_wavelet_);
    if (!prop_) {
      prop_ = std::make_unique<CpuPropagator<T>>(problem_, capacity_);
      prop_->keep_fields(true);
      prop_->defer_interior_gradient(true);
    } else {
      prop_->retarget();
    }
  }

  // Plans depend on the step count and the window's layout only: made once for each.
  const StrategyPlan& plan_for(const EngineShot& shot) {
    const auto key = std::make_pair(shot.time.steps, shot.shape);
    auto it = plans_.find(key);
    if (it == plans_.end()) {
      it = plans_
               .emplace(key,
                        plan_strategy(o_.strategy, shot.time.steps, physics_state(problem_.grid, physics_of(problem_)),
                                      field_layout<T>(problem_.grid)))
               .first;
    }
    return it->second;
  }

  EngineOptions o_;
  std::size_t capacity_;
  ResidentModel<T> model_;
  Problem<T> problem_;  // before the propagator, which refers to it
  std::unique_ptr<CpuPropagator<T>> prop_;
  HostTileBlocks sums_;
  std::map<std::pair<index_t, std::array<index_t, 3>>, StrategyPlan> plans_;
  std::set<std::pair<double, double>> checked_;  // (dt, f0) checked against the model's extremes
  std::vector<T> observed_;
  std::vector<double> illumination_;
  const std::vector<double> no_wavelet_;
};

}  // namespace

template <class T>
std::unique_ptr<ShotEngine<T>> make_cpu_shot_engine(const EngineOptions& options) {
  return std::make_unique<CpuShotEngine<T>>(options);
}

template std::unique_ptr<ShotEngine<float>> make_cpu_shot_engine<float>(const EngineOptions&);
template std::unique_ptr<ShotEngine<double>> make_cpu_shot_engine<double>(const EngineOptions&);

}  // namespace revwave
