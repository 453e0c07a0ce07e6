// The CUDA backend's side of the shot engine (propagator_shot_engine.hpp): the model resident on
// the device, each lane's CudaPropagator re-targeted to its shot's window (cut on the device),
// uploads through pinned staging, the gradient folded into device tile blocks on a stream of the
// sums, and nothing waiting between shots but the misfit's read-back of the traces (the data it
// needs). A shot's time loop is timed by events and read when asked (time_loop_seconds).
// Several shots at once (DeviceBudgets::shots_at_once = K > 1): K lanes, each a propagator with its
// own streams, fields and checkpoint budget (1/K of the device's, fixed at the first shot), take
// the shots in turn. The host enqueues a shot's sweeps and returns, so while lane A's reverse
// sweep runs, lane B's forward sweep of the next shot is already queued: small windows that cannot
// fill the device share it. Each
// shot's arithmetic is the same on any lane, and its part of the sums is still added in the tree's
// fixed order (on the sums' stream), so J and g are the same bits for any K.
#include <algorithm>
#include <map>

#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/backend/device_tile_blocks.hpp"
#include "revwave/cuda/backend/engine_kernels.hpp"
#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/driver/propagator_shot_engine.hpp"

namespace revwave {
namespace {

template <class T>
class CudaEngineSide {
 public:
  using Propagator = CudaPropagator<T>;
  // The events that order a lane's gradient's fold with the sums' stream, and its illumination.
  struct LaneData {
    Event produced, consumed;
    DeviceBuffer illumination;
    bool in_passing = false;  // this illumination sweep adds u^2 in the forward sweep
    WindowPlace place{};      // the window it sums over
  };
  using Lane = EngineLane<T, CudaEngineSide>;
  static constexpr bool host_fills_m = false;  // every window's m is cut on the device

  // shots_at_once lanes, but no more than the run has shots (a lane costs a working set and a
  // share of the budget).
  static std::size_t lane_count(const EngineOptions& o) {
    if (o.budgets.shots_at_once < 1) throw std::logic_error("the CUDA shot engine: shots_at_once must be at least 1");
    return std::max<std::size_t>(1,
                                 std::min(static_cast<std::size_t>(o.budgets.shots_at_once), o.window_shapes.size()));
  }

  explicit CudaEngineSide(const EngineOptions& o)
      : o_(o), select_(o.budgets.device), sums_(TileGrid{o.grid.shape}, sums_stream_, ring_) {}

  TileBlocks& sums() { return sums_; }

  void set_model(const ResidentModel<T>& model, std::vector<Lane>& lanes) {
    const std::size_t bytes = model.m.size() * sizeof(T);
    for (Lane& lane : lanes)
      if (lane.prop) lane.prop->synchronize();  // the last shots may still read the previous model
    if (whole_m_.bytes() < bytes) whole_m_ = DeviceBuffer(bytes, "the resident model");
    whole_m_.upload(model.m.data(), bytes);  // once per model
  }

  std::unique_ptr<Propagator> make(Lane& lane, const EngineShot& shot, const ResidentModel<T>& model,
                                   std::size_t capacity) {
    return std::make_unique<Propagator>(lane.problem, o_.budgets, capacity, window(lane, shot, model), ring_);
  }

  // Each lane's device budget, fixed for the run before the first shot plans: 1/K of the device
  // memory given (--device-memory) or, where none is given, of what is free once every lane holds
  // its working set (less the propagator's margin). Fixed, because what is free later leaves out
  // the slots' fields each lane's pool keeps between shots: re-derived per shot, the second shot
  // of a lane would plan with less than its first.
  void share_budget(std::vector<Lane>& lanes) {
    const std::size_t total = o_.budgets.device_memory > 0 ? o_.budgets.device_memory : lanes[0].prop->device_budget();
    const std::size_t share = std::max<std::size_t>(total / lanes.size(), 1);
    for (Lane& lane : lanes) lane.prop->set_device_budget(share);
  }

  void retarget(Lane& lane, const EngineShot& shot, const ResidentModel<T>& model) {
    lane.prop->retarget(window(lane, shot, model));
  }

  void start_loop(Lane& lane, std::int64_t& ticket) {
    ticket = next_ticket_++;
    timings_[ticket].start.record(lane.prop->streams().compute);
  }
  void end_loop(Lane& lane, std::int64_t ticket) { timings_[ticket].end.record(lane.prop->streams().compute); }

  // The device's seconds in the time loop of the shot with `ticket` (waits until it has run).
  double time_loop_seconds(std::int64_t ticket) {
    auto it = timings_.find(ticket);
    if (it == timings_.end()) return 0;
    it->second.end.synchronize();
    const double s = 1e-3 * static_cast<double>(it->second.end.elapsed_ms_since(it->second.start));
    timings_.erase(it);
    return s;
  }

  TiledPart fold_gradient(Lane& lane, const EngineShot& shot, bool whole) {
    return fill_tiles(lane, shot, whole, lane.prop->adjoint().grad.template as<T>(), nullptr);
  }

  // The sum of u[1]^2 .. u[N]^2 in that order at each point: where the sweep can, step n's adds
  // u[n]^2 in passing (n >= 1) and a square-add after the loop the last; elsewhere a square-add
  // after every step. The same additions in the same order, so the same bits.
  void start_illumination(Lane& lane, const EngineShot& shot) {
    const std::size_t bytes = static_cast<std::size_t>(lane.problem.grid.interior_points()) * sizeof(double);
    const Stream& compute = lane.prop->streams().compute;
    if (lane.data.illumination.bytes() < bytes) {
      compute.synchronize();  // a fold may still read the old one
      lane.data.illumination = DeviceBuffer(bytes + bytes / 4, "the illumination");
    }
    REVWAVE_CUDA_CHECK(cudaMemsetAsync(lane.data.illumination.data(), 0, bytes, compute));
    lane.data.in_passing = lane.prop->illuminates_in_passing() && !o_.square_add_illumination;
    lane.data.place = place(lane, shot);
  }
  void before_step(Lane& lane, index_t n) {
    if (lane.data.in_passing && n > 0) lane.prop->illuminate_next_step(lane.data.illumination.template as<double>());
  }
  void after_step(Lane& lane, index_t n, index_t steps) {
    if (lane.data.in_passing && n + 1 != steps) return;
    SquareAdd<T> a{lane.data.place, nullptr, lane.data.illumination.template as<double>()};
    a.u = lane.prop->state().u.template as<T>();
    launch_square_add(a, lane.prop->streams().compute);
  }
  TiledPart fold_illumination(Lane& lane, const EngineShot& shot, bool whole) {
    return fill_tiles(lane, shot, whole, nullptr, lane.data.illumination.template as<double>());
  }

  void synchronize() { cudaDeviceSynchronize(); }

 private:
  struct Timing {
    Event start{true}, end{true};
  };

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

  ResidentWindow<T> window(const Lane& lane, const EngineShot& shot, const ResidentModel<T>& model) {
    ResidentWindow<T> w;
    w.whole_m = whole_m_.as<T>();
    w.place = place(lane, shot);
    const std::array<index_t, 3> first = shot.first;
    const Problem<T>* problem = &lane.problem;
    const ResidentModel<T>* resident = &model;
    w.a_at = [resident, problem, first](index_t idx) { return window_a_at(*problem, *resident, first, idx); };
    return w;
  }

  // The window's tiles filled on the sums' stream once the lane's compute stream has produced
  // `padded` (folded) or `interior`; the compute stream's next writes of them wait for the fill.
  TiledPart fill_tiles(Lane& lane, const EngineShot& shot, bool whole, const T* padded, const double* interior) {
    const Stream& compute = lane.prop->streams().compute;
    std::vector<TileEntry> entries;
    for (index_t tile : sums_.grid().touched(shot.first, shot.shape)) entries.push_back({tile, 0, whole ? 0 : 1});
    for (TileEntry& e : entries) e.block = sums_.acquire();
    TiledPart part(sums_, std::move(entries));
    lane.data.produced.record(compute);
    sums_stream_.wait(lane.data.produced);
    TileFill<T> a;
    a.w = place(lane, shot);
    a.tiles = sums_.upload_entries(part.entries());
    a.blocks = sums_.table();
    a.padded = padded;
    a.interior = interior;
    launch_tile_fill(a, sums_stream_);
    lane.data.consumed.record(sums_stream_);
    compute.wait(lane.data.consumed);
    return part;
  }

  EngineOptions o_;
  SelectDevice select_;  // this process's device, and no other: the only context it makes
  Stream sums_stream_;
  UploadRing ring_;
  DeviceTileBlocks sums_;
  DeviceBuffer whole_m_;  // on the device: every window's m is cut from it
  std::map<std::int64_t, Timing> timings_;
  std::int64_t next_ticket_ = 0;
};

}  // namespace

template <class T>
std::unique_ptr<ShotEngine<T>> make_cuda_shot_engine(const EngineOptions& options) {
  return std::make_unique<PropagatorShotEngine<T, CudaEngineSide>>(options);
}

template std::unique_ptr<ShotEngine<float>> make_cuda_shot_engine<float>(const EngineOptions&);
template std::unique_ptr<ShotEngine<double>> make_cuda_shot_engine<double>(const EngineOptions&);

}  // namespace revwave
