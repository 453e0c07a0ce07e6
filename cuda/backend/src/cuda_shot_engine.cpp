// The CUDA backend's shot engine: the model resident on the device, one CudaPropagator for the run
// re-targeted to each shot's window (cut on the device), uploads through pinned staging, the
// gradient folded into device tile blocks on a stream of the sums, and nothing waiting between
// shots but the misfit's read-back of the traces (the data it needs). A shot's time loop is timed
// by events and read when asked (time_loop_seconds).
#include <chrono>
#include <map>
#include <set>

#include "revwave/core/seconds_since.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/backend/device_tile_blocks.hpp"
#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
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
        sums_(TileGrid{o.grid.shape}, sums_stream_, ring_) {}

  ~CudaShotEngine() override { cudaDeviceSynchronize(); }

  TileBlocks& sums() override { return sums_; }

  void set_model(const VelocityModel& model) override {
    make_resident(model_, o_.grid, model);
    const std::size_t bytes = model_.m.size() * sizeof(T);
    if (prop_) prop_->synchronize();  // the last shots may still read the previous model
    if (whole_m_.bytes() < bytes) whole_m_ = DeviceBuffer(bytes, "the resident model");
    whole_m_.upload(model_.m.data(), bytes);  // once per model
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
    Timing& timing = new_timing(out.ticket);
    const Stream& compute = prop_->streams().compute;
    timing.start.record(compute);
    GradientOutput g = run_gradient(*prop_, misfit, observed_.data(), o_.strategy, plan, progress);
    timing.end.record(compute);
    out.phases.time_loop = seconds_since(t);  // the host's share; the device's replaces it (time_loop_seconds)
    t = Clock::now();
    out.gradient = fill_tiles(shot, prop_->gradient_field(), nullptr);
    out.phases.accumulate = seconds_since(t);
    out.stats = g.stats;
    out.predicted_forward_steps = plan.predicted_forward_steps;
    out.snaps = plan.snaps;
    return out;
  }

  TiledPart illumination(const EngineShot& shot, ShotPhases& phases, const Progress& progress) override {
    auto t = Clock::now();
    target(shot);
    const std::size_t bytes = static_cast<std::size_t>(problem_.grid.interior_points()) * sizeof(double);
    const Stream& compute = prop_->streams().compute;
    if (illumination_.bytes() < bytes) {
      compute.synchronize();  // a fold may still read the old one
      illumination_ = DeviceBuffer(bytes + bytes / 4, "the illumination");
    }
    REVWAVE_CUDA_CHECK(cudaMemsetAsync(illumination_.data(), 0, bytes, compute));
    phases.setup += seconds_since(t);
    t = Clock::now();
    prop_->reset_forward();
    const SquareAdd<T> base{place(shot), nullptr, illumination_.as<double>()};
    for (index_t n = 0; n < problem_.time.steps; ++n) {
      prop_->forward_step(n);
      SquareAdd<T> a = base;
      a.u = prop_->state().u.template as<T>();
      launch_square_add(a, compute);
      if (progress) progress(n + 1, problem_.time.steps);
    }
    phases.time_loop += seconds_since(t);  // enqueued; the device's time shows in the next wait
    t = Clock::now();
    TiledPart part = fill_tiles(shot, nullptr, illumination_.as<double>());
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
  Timing& new_timing(std::int64_t& ticket) {
    ticket = next_ticket_++;
    return timings_[ticket];
  }

  bool whole(const EngineShot& shot) const {
    return shot.first == std::array<index_t, 3>{0, 0, 0} && shot.shape == o_.grid.shape;
  }

  WindowPlace place(const EngineShot& shot) const {
    WindowPlace w;
    const Grid& g = problem_.grid;
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

  // The window's problem (without m: the device cuts it) and the propagator re-targeted to it.
  void target(const EngineShot& shot) {
    if (model_.m.empty()) throw std::logic_error("ShotEngine: no model set");
    if (checked_.insert({shot.time.dt, shot.acquisition.f0}).second)
      check_resident(model_, shot.time, shot.acquisition.f0);
    fill_window_problem(problem_, model_, shot.first, shot.shape, shot.acquisition, shot.time,
                        shot.wavelet != nullptr ? *shot.wavelet : no_wavelet_, false);
    ResidentWindow<T> w;
    w.whole_m = whole_m_.as<T>();
    w.place = place(shot);
    const std::array<index_t, 3> first = shot.first;
    w.a_at = [this, first](index_t idx) { return window_a_at(problem_, model_, first, idx); };
    if (!prop_) {
      prop_ = std::make_unique<CudaPropagator<T>>(problem_, o_.budgets, capacity_, w, ring_);
    } else {
      prop_->retarget(w);
    }
  }

  const StrategyPlan& plan_for(const EngineShot& shot) {
    const auto key = std::make_pair(shot.time.steps, shot.shape);
    auto it = plans_.find(key);
    if (it == plans_.end()) {
      it = plans_
               .emplace(key, plan_strategy(o_.strategy, shot.time.steps, acoustic_state_of(problem_.grid),
                                           field_layout<T>(problem_.grid)))
               .first;
    }
    return it->second;
  }

  // The window's tiles filled on the sums' stream once the compute stream has produced `padded`
  // (folded) or `interior`; the compute stream's next writes of them wait for the fill.
  TiledPart fill_tiles(const EngineShot& shot, const T* padded, const double* interior) {
    const Stream& compute = prop_->streams().compute;
    std::vector<TileEntry> entries;
    for (index_t tile : sums_.grid().touched(shot.first, shot.shape)) entries.push_back({tile, 0, whole(shot) ? 0 : 1});
    for (TileEntry& e : entries) e.block = sums_.acquire();
    TiledPart part(sums_, std::move(entries));
    produced_.record(compute);
    sums_stream_.wait(produced_);
    TileFill<T> a;
    a.w = place(shot);
    a.tiles = sums_.upload_entries(part.entries());
    a.blocks = sums_.table();
    a.padded = padded;
    a.interior = interior;
    launch_tile_fill(a, sums_stream_);
    consumed_.record(sums_stream_);
    compute.wait(consumed_);
    return part;
  }

  EngineOptions o_;
  detail::SelectDevice select_;  // this process's device, and no other: the only context it makes
  std::size_t capacity_;
  Stream sums_stream_;
  UploadRing ring_;
  DeviceTileBlocks sums_;
  ResidentModel<T> model_;  // on the host: the checks, and a at the points' corners
  DeviceBuffer whole_m_;    // on the device: every window's m is cut from it
  Problem<T> problem_;      // before the propagator, which refers to it
  std::unique_ptr<CudaPropagator<T>> prop_;
  Event produced_, consumed_;
  DeviceBuffer illumination_;
  std::map<std::pair<index_t, std::array<index_t, 3>>, StrategyPlan> plans_;
  std::set<std::pair<double, double>> checked_;
  std::map<std::int64_t, Timing> timings_;
  std::int64_t next_ticket_ = 0;
  std::vector<T> observed_;
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
