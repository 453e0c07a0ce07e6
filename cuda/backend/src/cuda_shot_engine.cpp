// The CUDA backend's shot engine: the model resident on the device, one CudaPropagator for the run
// re-targeted to each shot's window (cut on the device), uploads through pinned staging, the
// gradient folded into device tile blocks on a stream of the sums, and nothing waiting between
// shots but the misfit's read-back of the traces (the data it needs). A shot's time loop is timed
// by events and read when asked (time_loop_seconds).
// Several shots at once (DeviceBudgets::shots_at_once = K > 1): K lanes, each a propagator with its
// own streams, fields and checkpoint budget (1/K of the device's, fixed at the first shot), take
// the shots in turn. The host
// enqueues a shot's sweeps and returns, so while lane A's reverse sweep runs, lane B's forward sweep
// of the next shot is already queued: small windows that cannot fill the device share it. Each
// shot's arithmetic is the same on any lane, and its part of the sums is still added in the tree's
// fixed order (on the sums' stream), so J and g are the same bits for any K.
#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "revwave/core/seconds_since.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/backend/device_tile_blocks.hpp"
#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/driver/growth_guard.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/window_problem.hpp"

namespace revwave {
namespace {

using Clock = std::chrono::steady_clock;

template <class T>
class CudaShotEngine final : public ShotEngine<T> {
 public:
  explicit CudaShotEngine(const EngineOptions& o)
      : o_(o),
        select_(o.budgets.device),
        capacity_(o.largest_field_bytes<T>()),
        sums_(TileGrid{o.grid.shape}, sums_stream_, ring_),
        lanes_(lane_count(o)) {}

  ~CudaShotEngine() override { cudaDeviceSynchronize(); }

  TileBlocks& sums() override { return sums_; }

  void set_model(const VelocityModel& model) override {
    make_resident(model_, o_.grid, model);
    const std::size_t bytes = model_.m.size() * sizeof(T);
    for (Lane& lane : lanes_)
      if (lane.prop) lane.prop->synchronize();  // the last shots may still read the previous model
    if (whole_m_.bytes() < bytes) whole_m_ = DeviceBuffer(bytes, "the resident model");
    whole_m_.upload(model_.m.data(), bytes);  // once per model
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
    Timing& timing = new_timing(out.ticket);
    const Stream& compute = lane.prop->streams().compute;
    timing.start.record(compute);
    GradientOutput g = run_gradient(*lane.prop, misfit, lane.observed.data(), o_.strategy, plan, progress);
    timing.end.record(compute);
    out.phases.time_loop = seconds_since(t);  // the host's share; the device's replaces it (time_loop_seconds)
    t = Clock::now();
    out.gradient = fill_tiles(lane, shot, lane.prop->adjoint().grad.template as<T>(), nullptr);
    out.phases.accumulate = seconds_since(t);
    out.stats = g.stats;
    out.predicted_forward_steps = plan.predicted_forward_steps;
    out.snaps = plan.snaps;
    return out;
  }

  TiledPart illumination(const EngineShot& shot, ShotPhases& phases, const Progress& progress) override {
    auto t = Clock::now();
    Lane& lane = target(shot);
    CudaPropagator<T>& prop = *lane.prop;
    const std::size_t bytes = static_cast<std::size_t>(lane.problem.grid.interior_points()) * sizeof(double);
    const Stream& compute = prop.streams().compute;
    if (lane.illumination.bytes() < bytes) {
      compute.synchronize();  // a fold may still read the old one
      lane.illumination = DeviceBuffer(bytes + bytes / 4, "the illumination");
    }
    REVWAVE_CUDA_CHECK(cudaMemsetAsync(lane.illumination.data(), 0, bytes, compute));
    phases.setup += seconds_since(t);
    t = Clock::now();
    prop.reset_forward();
    // The sum of u[1]^2 .. u[N]^2 in that order at each point: where the sweep can, step n's adds
    // u[n]^2 in passing (n >= 1) and a square-add after the loop the last; elsewhere a square-add
    // after every step. The same additions in the same order, so the same bits.
    double* sum = lane.illumination.template as<double>();
    const SquareAdd<T> base{place(lane, shot), nullptr, sum};
    const auto square_add = [&] {
      SquareAdd<T> a = base;
      a.u = prop.state().u.template as<T>();
      launch_square_add(a, compute);
    };
    const bool in_passing = prop.illuminates_in_passing() && !o_.square_add_illumination;
    const index_t steps = lane.problem.time.steps;
    GrowthGuard guard(lane.problem);
    for (index_t n = 0; n < steps; ++n) {
      if (in_passing && n > 0) prop.illuminate_next_step(sum);
      prop.forward_step(n);
      if (!in_passing || n + 1 == steps) square_add();
      guard.after_step(prop, n + 1);
      if (progress) progress(n + 1, steps);
    }
    phases.time_loop += seconds_since(t);  // enqueued; the device's time shows in the next wait
    t = Clock::now();
    TiledPart part = fill_tiles(lane, shot, nullptr, lane.illumination.template as<double>());
    phases.accumulate += seconds_since(t);
    return part;
  }

  double time_loop_seconds(std::int64_t ticket) override {
    auto it = timings_.find(ticket);
    if (it == timings_.end()) return 0;
    it->second.end.synchronize();
    const double s = 1e-3 * static_cast<double>(it->second.end.elapsed_ms_since(it->second.start));
    timings_.erase(it);
    return s;
  }

 private:
  struct Timing {
    Event start{true}, end{true};
  };
  // One shot at a time runs on a lane: its window's problem, the propagator re-targeted to it (its
  // streams, fields and stores), the observed data it reads and the events that order its
  // gradient's fold with the sums' stream.
  struct Lane {
    Problem<T> problem;  // before the propagator, which refers to it
    std::unique_ptr<CudaPropagator<T>> prop;
    Event produced, consumed;
    std::vector<T> observed;
    DeviceBuffer illumination;
  };

  Timing& new_timing(std::int64_t& ticket) {
    ticket = next_ticket_++;
    return timings_[ticket];
  }

  bool whole(const EngineShot& shot) const {
    return shot.first == std::array<index_t, 3>{0, 0, 0} && shot.shape == o_.grid.shape;
  }

  WindowPlace place(const Lane& lane, const EngineShot& shot) const {
    WindowPlace w;
    const Grid& g = lane.problem.grid;
    for (int a = 0; a < 3; ++a) {
      w.first[a] = shot.first[a];
      w.shape[a] = shot.shape[a];
      w.whole[a] = o_.grid.shape[a];
    }
    w.nbl = g.nbl;
    w.nbl_top = g.free_surface && shot.first[2] == 0 ? 0 : g.nbl;  // window_grid's free surface
    w.nbl_y = g.planar() ? 0 : g.nbl;
    w.radius = g.radius();
    w.sx = g.stride_x();
    w.sy = g.stride_y();
    return w;
  }

  // shots_at_once lanes, but no more than the run has shots (a lane costs a working set and a
  // share of the budget).
  static std::size_t lane_count(const EngineOptions& o) {
    if (o.budgets.shots_at_once < 1) throw std::logic_error("CudaShotEngine: shots_at_once must be at least 1");
    return std::max<std::size_t>(1,
                                 std::min(static_cast<std::size_t>(o.budgets.shots_at_once), o.window_shapes.size()));
  }

  // Each lane's device budget, fixed for the run before the first shot plans: 1/K of the device
  // memory given (--device-memory) or, where none is given, of what is free once every lane holds
  // its working set (less the propagator's margin). Fixed, because what is free later leaves out
  // the slots' fields each lane's pool keeps between shots: re-derived per shot, the second shot
  // of a lane would plan with less than its first.
  void fix_budgets(const EngineShot& shot) {
    if (budgets_fixed_) return;
    for (Lane& lane : lanes_)
      if (!lane.prop) make_propagator(lane, shot);
    const std::size_t total = o_.budgets.device_memory > 0 ? o_.budgets.device_memory : lanes_[0].prop->device_budget();
    const std::size_t share = std::max<std::size_t>(total / lanes_.size(), 1);
    for (Lane& lane : lanes_) lane.prop->set_device_budget(share);
    budgets_fixed_ = true;
  }

  void make_propagator(Lane& lane, const EngineShot& shot) {
    fill_window_problem(lane.problem, model_, shot.first, shot.shape, shot.acquisition, shot.time,
                        shot.wavelet != nullptr ? *shot.wavelet : no_wavelet_, false);
    lane.prop = std::make_unique<CudaPropagator<T>>(lane.problem, o_.budgets, capacity_, window(lane, shot), ring_);
  }

  ResidentWindow<T> window(const Lane& lane, const EngineShot& shot) {
    ResidentWindow<T> w;
    w.whole_m = whole_m_.as<T>();
    w.place = place(lane, shot);
    const std::array<index_t, 3> first = shot.first;
    const Problem<T>* problem = &lane.problem;
    w.a_at = [this, problem, first](index_t idx) { return window_a_at(*problem, model_, first, idx); };
    return w;
  }

  // The next lane (in turn) with the window's problem (without m: the device cuts it) and its
  // propagator re-targeted to it. Re-targeting waits only for that lane's previous shot.
  Lane& target(const EngineShot& shot) {
    if (model_.m.empty()) throw std::logic_error("ShotEngine: no model set");
    if (checked_.insert({shot.time.dt, shot.acquisition.f0}).second)
      check_resident(model_, shot.time, shot.acquisition.f0);
    fix_budgets(shot);
    Lane& lane = lanes_[next_lane_];
    next_lane_ = (next_lane_ + 1) % lanes_.size();
    fill_window_problem(lane.problem, model_, shot.first, shot.shape, shot.acquisition, shot.time,
                        shot.wavelet != nullptr ? *shot.wavelet : no_wavelet_, false);
    lane.prop->retarget(window(lane, shot));
    return lane;
  }

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

  // The window's tiles filled on the sums' stream once the lane's compute stream has produced
  // `padded` (folded) or `interior`; the compute stream's next writes of them wait for the fill.
  TiledPart fill_tiles(Lane& lane, const EngineShot& shot, const T* padded, const double* interior) {
    const Stream& compute = lane.prop->streams().compute;
    std::vector<TileEntry> entries;
    for (index_t tile : sums_.grid().touched(shot.first, shot.shape)) entries.push_back({tile, 0, whole(shot) ? 0 : 1});
    for (TileEntry& e : entries) e.block = sums_.acquire();
    TiledPart part(sums_, std::move(entries));
    lane.produced.record(compute);
    sums_stream_.wait(lane.produced);
    TileFill<T> a;
    a.w = place(lane, shot);
    a.tiles = sums_.upload_entries(part.entries());
    a.blocks = sums_.table();
    a.padded = padded;
    a.interior = interior;
    launch_tile_fill(a, sums_stream_);
    lane.consumed.record(sums_stream_);
    compute.wait(lane.consumed);
    return part;
  }

  EngineOptions o_;
  SelectDevice select_;  // this process's device, and no other: the only context it makes
  std::size_t capacity_;
  Stream sums_stream_;
  UploadRing ring_;
  DeviceTileBlocks sums_;
  ResidentModel<T> model_;  // on the host: the checks, and a at the points' corners
  DeviceBuffer whole_m_;    // on the device: every window's m is cut from it
  std::vector<Lane> lanes_;
  std::size_t next_lane_ = 0;
  bool budgets_fixed_ = false;
  std::map<std::pair<index_t, std::array<index_t, 3>>, StrategyPlan> plans_;
  std::set<std::pair<double, double>> checked_;
  std::map<std::int64_t, Timing> timings_;
  std::int64_t next_ticket_ = 0;
  const std::vector<double> no_wavelet_;
};

}  // namespace

template <class T>
std::unique_ptr<ShotEngine<T>> make_cuda_shot_engine(const EngineOptions& options) {
  return std::make_unique<CudaShotEngine<T>>(options);
}

template std::unique_ptr<ShotEngine<float>> make_cuda_shot_engine<float>(const EngineOptions&);
template std::unique_ptr<ShotEngine<double>> make_cuda_shot_engine<double>(const EngineOptions&);

}  // namespace revwave
