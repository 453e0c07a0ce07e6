// The CPU backend's side of the shot engine (propagator_shot_engine.hpp): one lane, a CpuPropagator
// sized for the largest window and re-targeted to each shot, each window's m filled on the host
// from the resident model, and the gradient folded straight from the propagator's field into host
// tile blocks.
#include "revwave/driver/cpu_checkpoints.hpp"
#include "revwave/driver/host_tile_blocks.hpp"
#include "revwave/driver/propagator_shot_engine.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {
namespace {

template <class T>
class CpuEngineSide {
 public:
  using Propagator = CpuPropagator<T>;
  struct LaneData {
    std::vector<double> illumination;  // the window's interior points
  };
  using Lane = EngineLane<T, CpuEngineSide>;
  static constexpr bool host_fills_m = true;
  static std::size_t lane_count(const EngineOptions&) { return 1; }

  explicit CpuEngineSide(const EngineOptions& o) : sums_(TileGrid{o.grid.shape}) {}

  TileBlocks& sums() { return sums_; }
  void set_model(const ResidentModel<T>&, std::vector<Lane>&) {}

  std::unique_ptr<Propagator> make(Lane& lane, const EngineShot&, const ResidentModel<T>&, std::size_t capacity) {
    auto prop = std::make_unique<Propagator>(lane.problem, capacity);
    prop->keep_fields(true);
    prop->defer_interior_gradient(true);
    return prop;
  }
  void share_budget(std::vector<Lane>&) {}
  void retarget(Lane& lane, const EngineShot&, const ResidentModel<T>&) { lane.prop->retarget(); }

  void start_loop(Lane&, std::int64_t&) {}
  void end_loop(Lane&, std::int64_t) {}
  double time_loop_seconds(std::int64_t) { return 0; }

  TiledPart fold_gradient(Lane& lane, const EngineShot& shot, bool whole) {
    return fold_to_tiles(sums_, lane.problem.grid, shot.first, lane.prop->gradient_field(), !whole);
  }

  void start_illumination(Lane& lane, const EngineShot&) {
    lane.data.illumination.assign(static_cast<std::size_t>(lane.problem.grid.interior_points()), 0.0);
  }
  void before_step(Lane&, index_t) {}
  void after_step(Lane& lane, index_t, index_t) { lane.prop->add_squared_interior(lane.data.illumination); }
  TiledPart fold_illumination(Lane& lane, const EngineShot& shot, bool whole) {
    return window_to_tiles(sums_, shot.first, shot.shape, lane.data.illumination.data(), !whole);
  }

  void synchronize() {}

 private:
  HostTileBlocks sums_;
};

}  // namespace

template <class T>
std::unique_ptr<ShotEngine<T>> make_cpu_shot_engine(const EngineOptions& options) {
  return std::make_unique<PropagatorShotEngine<T, CpuEngineSide>>(options);
}

template std::unique_ptr<ShotEngine<float>> make_cpu_shot_engine<float>(const EngineOptions&);
template std::unique_ptr<ShotEngine<double>> make_cpu_shot_engine<double>(const EngineOptions&);

}  // namespace revwave
