// The survey gradient on the shot engine: the bits of the per-shot path it replaced (a propagator
// per shot, whole-model vectors on the dense tree), and partial sums that stay the size of the
// windows however large the model.
#include <gtest/gtest.h>

#include <cstring>

#include "revwave/driver/host_tile_blocks.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_reference.hpp"
#include "test_helpers.hpp"
#include "visco_case.hpp"
#include "vti_case.hpp"

namespace revwave {
namespace {

using testing::SmallCase;

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Shots spread over the model, so that their windows differ in shape and position.
template <class T>
Survey spread_shots(const SmallCase& c, int count) {
  Survey s;
  for (int k = 0; k < count; ++k) {
    Shot shot;
    shot.name = "shot " + std::to_string(k);
    shot.acquisition = c.acq;
    const double fx = (k % 3) / 2.0, fy = ((k / 3) % 2) * 0.8 + 0.1;
    shot.acquisition.sources = {{fx * c.grid.extent(0), fy * c.grid.extent(1), 13.0}};
    shot.acquisition.receivers = {{fx * c.grid.extent(0), 0.5 * c.grid.extent(1), 21.0},
                                  {0.5 * c.grid.extent(0), fy * c.grid.extent(1), 11.0}};
    shot.time = c.time;
    SmallCase one = c;
    one.acq = shot.acquisition;
    const std::vector<T> d = testing::observed_in<T>(one, c.true_model);
    shot.data.assign(d.begin(), d.end());
    s.shots.push_back(shot);
  }
  return s;
}

template <class T>
class SurveyOnTheEngine : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SurveyOnTheEngine, Precisions);

TYPED_TEST(SurveyOnTheEngine, IsThePerShotPathBitForBit) {
  using T = TypeParam;
  const SmallCase c = testing::small_case(23, 19, 17, 40, 4);
  const Survey survey = spread_shots<T>(c, 5);
  for (double aperture : {-1.0, 30.0, 60.0}) {
    for (const char* name : {"revolve", "full"}) {
      SurveyRunOptions o;
      o.strategy = testing::strategy(name, std::string(name) == "full" ? 0 : 5);
      o.aperture = aperture;
      SerialShotRunner runner;
      const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
      const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
      EXPECT_EQ(sum.objective, objective) << name << " aperture " << aperture;
      EXPECT_TRUE(same_bits(sum.gradient, gradient)) << name << " aperture " << aperture;
      for (const ShotSummary& s : sum.shots) {
        EXPECT_GT(s.phases.time_loop, 0.0);
        EXPECT_GE(s.phases.setup, 0.0);
        EXPECT_LE(s.phases.outside_loop() + s.phases.time_loop, s.seconds + s.phases.idle + s.phases.accumulate + 1e-3);
      }
    }
  }
}

// A model with a physics' parameters (c's start model): the re-targeted engine gives every shot,
// with and without --aperture windows (which cut the parameters as they cut the velocity), the bits
// of a propagator of its own on make_problem's window; and the parameters reached the shots (the
// same survey in `without`, the model lacking them, has another J).
template <class T>
void expect_engine_is_the_per_shot_path(const SmallCase& c, const VelocityModel& without) {
  const Survey survey = spread_shots<T>(c, 4);
  for (double aperture : {-1.0, 30.0, 60.0}) {
    SurveyRunOptions o;
    o.strategy = testing::strategy("revolve", 5);
    o.aperture = aperture;
    SerialShotRunner runner;
    const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
    EXPECT_EQ(sum.objective, objective) << "aperture " << aperture;
    EXPECT_TRUE(same_bits(sum.gradient, gradient)) << "aperture " << aperture;
    EXPECT_NE(survey_gradient<T>(c.grid, without, survey, o, runner).objective, sum.objective)
        << "aperture " << aperture;
  }
}

// A VTI model: each window carries its epsilon and delta, the pair's second field in its fields' tails.
TYPED_TEST(SurveyOnTheEngine, VtiIsThePerShotPathBitForBit) {
  const SmallCase c = testing::vti_case(23, 19, 17, 40, 4);
  VelocityModel iso = c.start_model;
  iso.epsilon.clear();
  iso.delta.clear();
  expect_engine_is_the_per_shot_path<TypeParam>(c, iso);
}

// A visco-acoustic model: each window carries its Q (fill_window_problem fits its memory variables'
// coefficients point by point, as make_problem does).
TYPED_TEST(SurveyOnTheEngine, AttenuationIsThePerShotPathBitForBit) {
  const SmallCase c = testing::visco_case(23, 19, 17, 40, 4);
  VelocityModel elastic = c.start_model;
  elastic.q.clear();
  expect_engine_is_the_per_shot_path<TypeParam>(c, elastic);
}

// Every misfit a run can choose (the seam in host/misfit) reaches the engine's shots: J and g are
// the per-shot path's bits under correlation and envelope as under L2, and differ from L2's.
TYPED_TEST(SurveyOnTheEngine, EveryMisfitIsThePerShotPathBitForBit) {
  using T = TypeParam;
  const SmallCase c = testing::small_case(21, 17, 15, 30, 4);
  const Survey survey = spread_shots<T>(c, 3);
  SurveyRunOptions l2;
  l2.strategy = testing::strategy("revolve", 4);
  l2.aperture = 30;
  SerialShotRunner runner;
  const SurveySum base = survey_gradient<T>(c.grid, c.start_model, survey, l2, runner);
  for (MisfitKind kind : {MisfitKind::correlation, MisfitKind::envelope}) {
    SurveyRunOptions o = l2;
    o.misfit.kind = kind;
    const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
    EXPECT_EQ(sum.objective, objective) << to_string(kind);
    EXPECT_TRUE(same_bits(sum.gradient, gradient)) << to_string(kind);
    EXPECT_NE(sum.objective, base.objective) << to_string(kind);
  }
}

// One engine for several gradients in different models (an inversion's evaluations): each the
// bits of a fresh run.
TYPED_TEST(SurveyOnTheEngine, OneEngineServesEveryEvaluation) {
  using T = TypeParam;
  const SmallCase c = testing::small_case(21, 17, 15, 30, 4);
  const Survey survey = spread_shots<T>(c, 4);
  SurveyRunOptions o;
  o.strategy = testing::strategy("revolve", 4);
  o.aperture = 40;
  const auto engine = make_survey_engine<T>(c.grid, survey, o);
  SerialShotRunner runner;
  for (const VelocityModel* m : {&c.start_model, &c.true_model, &c.start_model}) {
    const SurveySum sum = survey_gradient<T>(*engine, c.grid, *m, survey, o, runner);
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, *m, survey, o);
    EXPECT_EQ(sum.objective, objective);
    EXPECT_TRUE(same_bits(sum.gradient, gradient));
  }
}

// Shot k: a 15 Hz source at (x, y, 30 m), one receiver 20 m along x at 10 m depth, every sample `datum`.
Shot point_shot(const SmallCase& c, int k, double x, double y, double datum) {
  Shot shot;
  shot.name = "shot " + std::to_string(k);
  shot.acquisition.f0 = 15;
  shot.acquisition.t0 = 0.1;
  shot.acquisition.sources = {{x, y, 30.0}};
  shot.acquisition.receivers = {{x + 20.0, y, 10.0}};
  shot.time = c.time;
  shot.data.assign(static_cast<std::size_t>(shot.time.nt()), datum);
  return shot;
}

// Small windows in a model a thousand times their size: the partial sums hold tiles of the windows only.
TEST(SurveyOnTheEngineSums, StayTheSizeOfTheWindows) {
  SmallCase c = testing::case_on({400, 300, 14}, 4, 4, 20);
  c.true_model = homogeneous_model(c.grid.shape, 2000);
  c.start_model = homogeneous_model(c.grid.shape, 1900);
  c.time.dt = default_dt(c.grid, 2000);
  Survey survey;
  for (int k = 0; k < 6; ++k) survey.shots.push_back(point_shot(c, k, 100.0 + 250.0 * k, 600.0, 0.0));
  SurveyRunOptions o;
  o.strategy = testing::strategy("revolve", 3);
  o.aperture = 40;
  const auto engine = make_survey_engine<float>(c.grid, survey, o);
  SerialShotRunner runner;
  const SurveySum sum = survey_gradient<float>(*engine, c.grid, c.start_model, survey, o, runner);
  const auto [objective, gradient] = testing::reference_survey_gradient<float>(c.grid, c.start_model, survey, o);
  EXPECT_TRUE(same_bits(sum.gradient, gradient));
  const auto& blocks = dynamic_cast<const HostTileBlocks&>(engine->sums());
  const TileGrid& tiles = blocks.grid();
  const std::size_t window_tiles = tiles.touched({0, 0, 0}, {12, 12, 14}).size() + 20;  // one window, generously
  EXPECT_LE(blocks.allocated(), std::max<std::size_t>(256, 4 * window_tiles));          // a chunk at least
  EXPECT_LT(blocks.allocated(), static_cast<std::size_t>(tiles.count()) / 4);
}

// Overlapping windows, seven shots (a tree with an unpaired leaf): the blocks reserved before the
// first shot are what the tree holds at most, exactly, and no shot allocates more.
TEST(SurveyOnTheEngineSums, TheReservationIsWhatTheTreeHoldsAndNoShotAllocates) {
  SmallCase c = testing::case_on({120, 64, 32}, 4, 4, 20);
  c.start_model = homogeneous_model(c.grid.shape, 1900);
  c.time.dt = default_dt(c.grid, 1900);
  Survey survey;
  for (int k = 0; k < 7; ++k)
    survey.shots.push_back(point_shot(c, k, 200.0 + 130.0 * k, 250.0 + 60.0 * (k % 3), 1e-3 * k));
  SurveyRunOptions o;
  o.strategy = testing::strategy("revolve", 3);
  o.aperture = 150;
  const auto engine = make_survey_engine<float>(c.grid, survey, o);
  auto& blocks = dynamic_cast<HostTileBlocks&>(engine->sums());
  std::vector<std::vector<index_t>> tiles;
  for (const Shot& shot : survey.shots) {
    const ModelWindow w = shot_window(c.grid, shot.acquisition, o.aperture);
    tiles.push_back(blocks.grid().touched(w.first, w.shape));
  }
  const std::size_t peak = tree_peak_blocks(static_cast<index_t>(tiles.size()),
                                            [&](index_t s) { return tiles[static_cast<std::size_t>(s)]; });
  SerialShotRunner runner;
  reserve_tree_blocks(blocks, c.grid, survey, o.aperture, runner);
  const std::size_t reserved = blocks.allocated();
  EXPECT_GE(reserved, peak);
  EXPECT_LT(reserved, peak + TileBlocks::chunk_blocks);
  const SurveySum sum = survey_gradient<float>(*engine, c.grid, c.start_model, survey, o, runner);
  EXPECT_EQ(blocks.peak_held(), peak);
  EXPECT_EQ(blocks.allocated(), reserved);
  // The windows overlap: the peak is below the parts' blocks together, above the largest one's.
  std::size_t all = 0, largest = 0;
  for (const auto& t : tiles) all += t.size(), largest = std::max(largest, t.size());
  EXPECT_LT(peak, all);
  EXPECT_GT(peak, largest);
  EXPECT_GT(peak, TileBlocks::chunk_blocks) << "more than one chunk, so that rounding up hides no error";
  const auto [objective, gradient] = testing::reference_survey_gradient<float>(c.grid, c.start_model, survey, o);
  EXPECT_TRUE(same_bits(sum.gradient, gradient));
  // A second survey gradient on the same engine finds its blocks free.
  survey_gradient<float>(*engine, c.grid, c.start_model, survey, o, runner);
  EXPECT_EQ(blocks.allocated(), reserved);
}

}  // namespace
}  // namespace revwave
