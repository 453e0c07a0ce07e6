// The shot engine with a density (surveys' --aperture windows): a window's problem carries the
// density's coefficients of make_problem on the window's model (window_model cuts velocity and
// density alike), and the CPU engine, re-targeted across windows, gives each shot the bits of a
// propagator of its own built by make_problem on that window.
#include <gtest/gtest.h>

#include <cstring>

#include "density_case.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/window_problem.hpp"
#include "revwave/survey/model_window.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using testing::density_case;
using testing::same_bits;
using testing::SmallCase;

ModelWindow window(const std::array<index_t, 3>& first, const std::array<index_t, 3>& shape) {
  ModelWindow w;
  w.first = first;
  w.shape = shape;
  return w;
}

template <class T>
class DensityEngine : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DensityEngine, Precisions);

TYPED_TEST(DensityEngine, WindowProblemCarriesTheWindowsDensity) {
  using T = TypeParam;
  const SmallCase c = density_case(15, 13, 14, 20, 4);
  ResidentModel<T> model;
  make_resident(model, c.grid, c.true_model);
  Problem<T> reused;
  for (const ModelWindow& w :
       {window({0, 0, 0}, {15, 13, 14}), window({4, 2, 0}, {9, 11, 14}), window({6, 5, 3}, {9, 8, 11})}) {
    Grid g = c.grid;
    g.shape = w.shape;
    Acquisition acq = c.acq;
    acq.sources = {{0.5 * g.extent(0), 0.5 * g.extent(1), 0.3 * g.extent(2)}};
    acq.receivers = {{0, 0, 0}};
    const Problem<T> expected = make_problem<T>(g, window_model(c.true_model, w), acq, c.time);
    fill_window_problem(reused, model, w.first, w.shape, acq, c.time, {});
    ASSERT_TRUE(expected.density.has_value());
    ASSERT_TRUE(reused.density.has_value());
    const std::size_t bytes = g.template field_bytes<T>();
    ASSERT_GE(reused.density->s.bytes(), bytes);
    EXPECT_EQ(std::memcmp(reused.density->s.data(), expected.density->s.data(), bytes), 0);
    EXPECT_EQ(std::memcmp(reused.density->t.data(), expected.density->t.data(), bytes), 0);
    for (int a = 0; a < 3; ++a)
      EXPECT_EQ(std::memcmp(reused.density->b[a].data(), expected.density->b[a].data(), bytes), 0) << "B, axis " << a;
    EXPECT_EQ(reused.density->reference, expected.density->reference);
    EXPECT_EQ(reused.density->stagger, expected.density->stagger);
  }
  // A model without a density leaves none behind in the reused problem.
  make_resident(model, c.grid, homogeneous_model(c.grid.shape, 2000));
  fill_window_problem(reused, model, {0, 0, 0}, c.grid.shape, c.acq, c.time, {});
  EXPECT_FALSE(reused.density.has_value());
}

// The CPU engine, set once to the start model, gives each window the J and dJ/dm of make_problem on
// the window's model, placed into the whole model.
template <class T>
void check_engine_windows(const SmallCase& c, const std::vector<ModelWindow>& windows) {
  EngineOptions eo;
  eo.grid = c.grid;
  for (const ModelWindow& w : windows) eo.window_shapes.push_back(w.shape);
  eo.strategy = testing::strategy("revolve", 6);
  const auto engine = make_shot_engine<T>(Backend::cpu, eo);
  engine->set_model(c.start_model);
  for (const ModelWindow& w : windows) {
    const Grid g = window_grid(c.grid, w);  // below a free surface, a layer on top
    EngineShot shot;
    shot.first = w.first;
    shot.shape = w.shape;
    shot.acquisition = c.acq;
    shot.acquisition.sources = {{0.5 * g.extent(0), 0.4 * g.extent(1), 0.2 * g.extent(2)}};
    shot.acquisition.receivers = {{0.1 * g.extent(0), 0.5 * g.extent(1), 0.7 * g.extent(2)},
                                  {g.extent(0), g.extent(1), 0.5 * g.extent(2)}};
    shot.time = c.time;
    const VelocityModel cut = window_model(c.start_model, w);
    ASSERT_FALSE(cut.density.empty());
    const std::vector<T> d =
        testing::observed_in<T>(SmallCase{g, cut, cut, shot.acquisition, c.time}, homogeneous_model(g.shape, 1900.0));
    const std::vector<double> observed(d.begin(), d.end());
    shot.observed = &observed;
    const EngineGradient got = engine->gradient(shot, l2_misfit<T>(), {});
    const Problem<T> p = make_problem<T>(g, cut, shot.acquisition, shot.time);
    const StrategyPlan plan = plan_strategy(eo.strategy, shot.time.steps, field_layout<T>(g));
    const GradientOutput want = run_on_backend(
        Backend::cpu, p, DeviceBudgets{}, GradientCall<T>{&l2_misfit<T>(), d.data(), &eo.strategy, &plan, {}, nullptr});
    EXPECT_EQ(got.stats.objective, want.stats.objective);
    std::vector<double> leaf(got.gradient.dense().size(), 0.0);
    const std::array<index_t, 3>& whole = c.grid.shape;
    const bool is_whole = w.shape == whole;
    std::size_t i = 0;
    for (index_t x = 0; x < w.shape[0]; ++x)
      for (index_t y = 0; y < w.shape[1]; ++y)
        for (index_t z = 0; z < w.shape[2]; ++z, ++i) {
          const auto at =
              static_cast<std::size_t>(((w.first[0] + x) * whole[1] + w.first[1] + y) * whole[2] + w.first[2] + z);
          leaf[at] = is_whole ? want.gradient[i] : leaf[at] + want.gradient[i];
        }
    EXPECT_TRUE(same_bits(got.gradient.dense(), leaf))
        << "window at " << w.first[0] << "," << w.first[1] << "," << w.first[2];
  }
}

// Large window first, so that the smaller ones reuse its fields; with and without a free surface
// (a window that starts below it has a layer on top: window_grid).
TYPED_TEST(DensityEngine, CpuEngineGivesEveryWindowTheBitsOfItsOwnDensityProblem) {
  using T = TypeParam;
  for (bool surface : {false, true}) {
    SCOPED_TRACE(surface ? "free surface" : "absorbing top");
    SmallCase c = density_case(15, 13, 14, 40, 4);
    c.grid.free_surface = surface;
    check_engine_windows<T>(
        c, {window({0, 0, 0}, {15, 13, 14}), window({3, 4, 1}, {10, 9, 13}), window({5, 0, 0}, {10, 13, 14})});
  }
  // A window below the surface has a layer on top: with nbl 10 its rows (13 + 20 + 2 points) take
  // 64 elements where the whole model's (14 + 10 + 2) take 32, so the engine's fields must be sized
  // for it although the whole model is the larger window.
  SmallCase c = density_case(15, 13, 14, 40, 4);
  c.grid.free_surface = true;
  c.grid.nbl = 10;
  check_engine_windows<T>(c, {window({0, 0, 0}, {15, 13, 14}), window({0, 0, 1}, {15, 13, 13})});
}

}  // namespace
}  // namespace revwave
