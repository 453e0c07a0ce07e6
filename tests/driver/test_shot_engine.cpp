// The shot engine's pieces on the CPU: tiled partial sums against the dense tree, the fold into
// tiles against fold_to_interior, the window problem against make_problem, and the engine, reused
// across windows of every shape, against a propagator of its own per shot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/host_tile_blocks.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/numerics/fold_to_interior.hpp"
#include "revwave/survey/summation_tree.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::same_bits;
using testing::SmallCase;

struct Box {
  std::array<index_t, 3> first, shape;
};

// A window's values into the whole model as the dense sums had them: added into zeros (so -0.0
// becomes +0.0) unless the window is the whole model.
std::vector<double> dense_leaf(const std::array<index_t, 3>& whole, const Box& b, const std::vector<double>& v,
                               bool is_whole) {
  if (is_whole) return v;
  std::vector<double> out(static_cast<std::size_t>(whole[0] * whole[1] * whole[2]), 0.0);
  std::size_t i = 0;
  for (index_t x = 0; x < b.shape[0]; ++x)
    for (index_t y = 0; y < b.shape[1]; ++y)
      for (index_t z = 0; z < b.shape[2]; ++z)
        out[static_cast<std::size_t>(((b.first[0] + x) * whole[1] + b.first[1] + y) * whole[2] + b.first[2] + z)] +=
            v[i++];
  return out;
}

// A cube's tiles (8 x 8 x 8) and a plane's (ny = 1: 8 x 1 x 64, z long enough to cross them).
TEST(TiledSums, EqualTheDenseTreeBitForBitInAnyArrivalOrder) {
  for (const std::array<index_t, 3> whole : {std::array<index_t, 3>{19, 13, 11}, std::array<index_t, 3>{19, 1, 150}}) {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 12; ++trial) {
      const index_t n = 1 + trial % 9;
      std::vector<Box> boxes;
      std::vector<std::vector<double>> values;
      for (index_t s = 0; s < n; ++s) {
        Box b;
        const bool is_whole = (s + trial) % 5 == 0;
        for (int a = 0; a < 3; ++a) {
          b.shape[a] = is_whole || whole[a] == 1
                           ? whole[a]
                           : 2 + static_cast<index_t>(rng() % static_cast<std::uint64_t>(whole[a] - 2));
          b.first[a] =
              is_whole ? 0 : static_cast<index_t>(rng() % static_cast<std::uint64_t>(whole[a] - b.shape[a] + 1));
        }
        std::vector<double> v(static_cast<std::size_t>(b.shape[0] * b.shape[1] * b.shape[2]));
        std::uniform_real_distribution<double> u(-1, 1);
        for (double& x : v) {
          const auto r = rng() % 8;
          x = r == 0 ? -0.0 : (r == 1 ? 0.0 : u(rng));  // signed zeros too: the tree keeps their bits
        }
        boxes.push_back(b);
        values.push_back(std::move(v));
      }
      std::vector<index_t> order(static_cast<std::size_t>(n));
      std::iota(order.begin(), order.end(), index_t{0});
      std::shuffle(order.begin(), order.end(), rng);
      SummationTree dense(n, static_cast<std::size_t>(whole[0] * whole[1] * whole[2]));
      HostTileBlocks blocks(TileGrid{whole});
      BasicSummationTree<TiledPart> tiled(n, [](TiledPart& a, TiledPart&& b) { a.add(std::move(b)); });
      for (index_t s : order) {
        const Box& b = boxes[static_cast<std::size_t>(s)];
        const bool is_whole = b.shape == whole;
        dense.add(s, 1.0, dense_leaf(whole, b, values[static_cast<std::size_t>(s)], is_whole));
        tiled.add(s, 1.0,
                  window_to_tiles(blocks, b.first, b.shape, values[static_cast<std::size_t>(s)].data(), !is_whole));
      }
      ASSERT_TRUE(same_bits(tiled.payload().dense(), dense.vector())) << "trial " << trial << ", ny " << whole[1];
      EXPECT_EQ(tiled.peak_held(), dense.peak_held());
    }
  }
}

// A plane's tiles hold 512 of its points, as a cube's do: 8 x 1 x 64.
TEST(TiledSums, APlanesTilesAreFullBlocks) {
  const TileGrid plane{{20, 1, 150}};
  EXPECT_EQ(plane.edge(0) * plane.edge(1) * plane.edge(2), TileGrid::points);
  EXPECT_EQ(plane.edge(1), 1);
  EXPECT_EQ(plane.count(), 3 * 1 * 3);
  const TileGrid cube{{20, 9, 17}};
  EXPECT_EQ(cube.edge(1), 8);
  EXPECT_EQ(cube.count(), 3 * 2 * 3);
}

// touched() and touched_count() against the tiles of a box's points, counted one point at a time.
TEST(TiledSums, TheTilesABoxTouchesAreItsPointsTiles) {
  std::mt19937 rng(5);
  for (const TileGrid g : {TileGrid{{20, 9, 17}}, TileGrid{{30, 1, 150}}}) {
    for (int k = 0; k < 40; ++k) {
      std::array<index_t, 3> first{}, size{};
      for (int a = 0; a < 3; ++a) {
        first[a] = std::uniform_int_distribution<index_t>(0, g.shape[a] - 1)(rng);
        size[a] = std::uniform_int_distribution<index_t>(1, g.shape[a] - first[a])(rng);
      }
      std::set<index_t> ids;
      for (index_t x = first[0]; x < first[0] + size[0]; ++x)
        for (index_t y = first[1]; y < first[1] + size[1]; ++y)
          for (index_t z = first[2]; z < first[2] + size[2]; ++z)
            ids.insert(g.id(x / g.edge(0), y / g.edge(1), z / g.edge(2)));
      const std::vector<index_t> listed = g.touched(first, size);
      EXPECT_EQ(listed, std::vector<index_t>(ids.begin(), ids.end()));
      EXPECT_EQ(g.touched_count(first, size), static_cast<index_t>(ids.size()));
    }
  }
}

// Blocks whose chunk allocation fails part-way through a reservation: the chunks allocated before
// the failure are free, not lost.
class FailingBlocks final : public TileBlocks {
 public:
  FailingBlocks() : TileBlocks(TileGrid{{8, 8, 8}}) {}
  void add(const std::vector<BlockSum>&) override {}
  std::vector<double> dense(const std::vector<TileEntry>&) override { return {}; }
  void read(const std::vector<TileEntry>&, double*) override {}
  void write(const std::vector<TileEntry>&, const double*) override {}
  int calls = 0, fail_at = -1;

 protected:
  void allocate_chunk(std::size_t chunk) override {
    ++calls;
    if (static_cast<int>(chunk) == fail_at) throw std::runtime_error("out of memory");
  }
};

TEST(TiledSums, AReservationThatFailsKeepsWhatItAllocated) {
  FailingBlocks b;
  b.fail_at = 2;
  EXPECT_THROW(b.reserve(5 * TileBlocks::chunk_blocks), std::runtime_error);
  EXPECT_EQ(b.allocated(), 2 * TileBlocks::chunk_blocks);
  b.fail_at = -1;
  const int calls = b.calls;
  std::set<std::int32_t> got;
  for (std::size_t k = 0; k < 2 * TileBlocks::chunk_blocks; ++k) got.insert(b.acquire());
  EXPECT_EQ(b.calls, calls) << "the two chunks' blocks were free";
  EXPECT_EQ(got.size(), 2 * TileBlocks::chunk_blocks);
  EXPECT_EQ(*got.begin(), 0);
  EXPECT_EQ(b.peak_held(), 2 * TileBlocks::chunk_blocks);
  b.acquire();
  EXPECT_EQ(b.calls, calls + 1);
  EXPECT_EQ(b.allocated(), 3 * TileBlocks::chunk_blocks);
}

TEST(TiledSums, TravelAsValuesAndComeBackTheSame) {
  HostTileBlocks a(TileGrid{{20, 9, 17}}), b(TileGrid{{20, 9, 17}});
  std::vector<double> v(5 * 4 * 9);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.25 * static_cast<double>(i) - 3;
  TiledPart part = window_to_tiles(a, {7, 3, 6}, {5, 4, 9}, v.data(), true);
  std::vector<double> flat(part.values());
  a.read(part.entries(), flat.data());
  TiledPart copy = part_from_values(b, part.entries(), flat.data());
  EXPECT_TRUE(same_bits(copy.dense(), part.dense()));
}

template <class T>
class WindowedEngine : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(WindowedEngine, Precisions);

TYPED_TEST(WindowedEngine, FoldIntoTilesIsFoldToInteriorInTheWindow) {
  using T = TypeParam;
  struct Case {
    std::array<index_t, 3> whole, shape, first;
    bool free_surface;
  };
  // Layers on every face; none on top (a free surface); a plane (tiles of 8 x 1 x 64); rows of
  // one and two points (no point between a row's ends).
  for (const Case& k :
       {Case{{23, 18, 21}, {9, 18, 5}, {11, 0, 16}, false}, Case{{23, 18, 21}, {12, 7, 13}, {3, 9, 0}, true},
        Case{{30, 1, 70}, {17, 1, 66}, {5, 0, 2}, false}, Case{{23, 18, 21}, {9, 6, 1}, {2, 3, 7}, false},
        Case{{23, 18, 21}, {4, 6, 2}, {2, 3, 19}, true}}) {
    Grid whole = testing::small_grid(k.whole, 4, 4);
    whole.free_surface = k.free_surface;
    Grid g = whole;
    g.shape = k.shape;
    std::vector<T> padded(static_cast<std::size_t>(g.alloc_points()));
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    for (T& x : padded) x = static_cast<T>(u(rng));
    HostTileBlocks blocks(TileGrid{whole.shape});
    const TiledPart part = fold_to_tiles(blocks, g, k.first, padded.data(), true);
    const std::vector<double> folded = fold_to_interior(g, padded.data());
    EXPECT_TRUE(same_bits(part.dense(), dense_leaf(whole.shape, {k.first, g.shape}, folded, false)))
        << "window " << k.shape[0] << " x " << k.shape[1] << " x " << k.shape[2] << (k.free_surface ? ", surface" : "");
  }
}

TYPED_TEST(WindowedEngine, WindowProblemIsMakeProblemOnTheWindowsVelocities) {
  using T = TypeParam;
  const SmallCase c = testing::small_case(21, 17, 15, 30, 4);
  ResidentModel<T> model;
  make_resident(model, c.grid, c.true_model);
  Problem<T> reused;
  for (const Box& b : {Box{{0, 0, 0}, {21, 17, 15}}, Box{{4, 2, 0}, {9, 11, 15}}, Box{{12, 5, 3}, {9, 12, 12}}}) {
    Grid g = c.grid;
    g.shape = b.shape;
    VelocityModel cut{b.shape, {}};
    for (index_t x = 0; x < b.shape[0]; ++x)
      for (index_t y = 0; y < b.shape[1]; ++y)
        for (index_t z = 0; z < b.shape[2]; ++z)
          cut.velocity.push_back(c.true_model.at(b.first[0] + x, b.first[1] + y, b.first[2] + z));
    Acquisition acq = c.acq;
    acq.sources = {{0.5 * g.extent(0), 0.5 * g.extent(1), 0.3 * g.extent(2)}};
    acq.receivers = {{0, 0, 0}, {g.extent(0), 0.7 * g.extent(1), g.extent(2)}};
    const Problem<T> expected = make_problem<T>(g, cut, acq, c.time);
    fill_window_problem(reused, model, b.first, b.shape, acq, c.time, {});
    for (index_t i = 0; i < g.padded(0); ++i)
      for (index_t j = 0; j < g.padded(1); ++j)
        for (index_t k = 0; k < g.padded(2); ++k) {
          const index_t idx = g.index(i, j, k);
          ASSERT_EQ(reused.m.template as<T>()[idx], expected.m.template as<T>()[idx]) << i << " " << j << " " << k;
          if (i == j && j == k) {
            ASSERT_EQ(window_a_at(reused, model, b.first, idx), leapfrog_a_at(expected, idx));
          }
        }
    EXPECT_EQ(reused.kappa, expected.kappa);
    EXPECT_EQ(reused.weights, expected.weights);
    EXPECT_EQ(reused.wavelet, expected.wavelet);
    EXPECT_EQ(reused.src.index, expected.src.index);
    EXPECT_EQ(reused.rec.weight, expected.rec.weight);
    EXPECT_EQ(std::memcmp(&reused.coeffs, &expected.coeffs, sizeof expected.coeffs), 0);
  }
}

template <class T>
void reused_engine_gives_every_shot_its_own_bits(bool cpml);

// The CPU engine re-targeted across windows of different shapes (a large one first, so that the
// smaller ones find its values where their halos lie) gives each shot the bits of a propagator of
// its own, with a sponge and with a C-PML. The last window has the shape of the second one at
// another place: a C-PML's physics keeps its region there and must take the new m's divisors.
TYPED_TEST(WindowedEngine, CpuEngineReusedAcrossWindowsGivesEveryShotItsOwnBits) {
  for (const bool cpml : {false, true}) {
    SCOPED_TRACE(cpml ? "cpml" : "sponge");
    reused_engine_gives_every_shot_its_own_bits<TypeParam>(cpml);
  }
}

template <class T>
void reused_engine_gives_every_shot_its_own_bits(bool cpml) {
  SmallCase c = testing::small_case(21, 17, 15, 40, 4);
  c.grid.cpml = cpml;
  const std::vector<Box> boxes{{{0, 0, 0}, {21, 17, 15}},
                               {{3, 4, 1}, {10, 9, 14}},
                               {{9, 0, 0}, {12, 17, 15}},
                               {{3, 4, 1}, {10, 9, 14}},
                               {{8, 6, 0}, {10, 9, 14}}};
  EngineOptions eo;
  eo.grid = c.grid;
  for (const Box& b : boxes) eo.window_shapes.push_back(b.shape);
  eo.strategy = testing::strategy("revolve", 6);
  const auto engine = make_shot_engine<T>(Backend::cpu, eo);
  engine->set_model(c.start_model);
  ResidentModel<T> model;
  make_resident(model, c.grid, c.start_model);
  for (const Box& b : boxes) {
    Grid g = c.grid;
    g.shape = b.shape;
    EngineShot shot;
    shot.first = b.first;
    shot.shape = b.shape;
    shot.acquisition = c.acq;
    shot.acquisition.sources = {{0.5 * g.extent(0), 0.4 * g.extent(1), 0.2 * g.extent(2)}};
    shot.acquisition.receivers = {{0.1 * g.extent(0), 0.5 * g.extent(1), 0.7 * g.extent(2)},
                                  {g.extent(0), g.extent(1), 0.5 * g.extent(2)}};
    shot.time = c.time;
    Problem<T> p;
    fill_window_problem(p, model, b.first, b.shape, shot.acquisition, shot.time, {});
    const std::vector<T> d = testing::observed_in<T>(
        SmallCase{g, c.true_model, c.true_model, shot.acquisition, c.time},
        VelocityModel{g.shape, std::vector<double>(static_cast<std::size_t>(g.interior_points()), 1900.0)});
    const std::vector<double> observed(d.begin(), d.end());
    shot.observed = &observed;
    EngineGradient got = engine->gradient(shot, l2_misfit<T>(), {});
    const StrategyPlan plan = plan_strategy(eo.strategy, shot.time.steps, field_layout<T>(g));
    const GradientOutput want = run_on_backend(
        Backend::cpu, p, DeviceBudgets{}, GradientCall<T>{&l2_misfit<T>(), d.data(), &eo.strategy, &plan, {}, nullptr});
    EXPECT_EQ(got.stats.objective, want.stats.objective);
    EXPECT_EQ(got.stats.forward_steps, want.stats.forward_steps);
    const bool is_whole = b.shape == c.grid.shape;
    EXPECT_TRUE(same_bits(got.gradient.dense(), dense_leaf(c.grid.shape, b, want.gradient, is_whole)));
    EXPECT_GE(got.phases.time_loop, 0.0);
  }
}

}  // namespace
}  // namespace revwave
