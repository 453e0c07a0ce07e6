// Surveys: the summation tree, the survey gradient against shots run alone, model windows
// (--aperture) and a Taylor test of the windowed survey objective, reading surveys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <random>

#include "revwave/core/errors.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_taylor.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace {

using namespace revwave;
using revwave::testing::small_case;
using revwave::testing::SmallCase;
namespace fs = std::filesystem;

TEST(SummationTree, AnyArrivalOrderGivesTheTreeSumBitForBit) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n : {1, 2, 3, 5, 8, 13, 33}) {
    std::vector<double> leaves(static_cast<std::size_t>(n));
    for (double& v : leaves) v = u(rng) * std::pow(10.0, std::uniform_int_distribution<int>(-8, 8)(rng));
    const double reference = tree_sum(leaves);
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    for (int trial = 0; trial < 20; ++trial) {
      std::shuffle(order.begin(), order.end(), rng);
      SummationTree tree(n, 2);
      for (std::int64_t s : order) {
        EXPECT_FALSE(tree.complete());
        tree.add(s, leaves[static_cast<std::size_t>(s)],
                 {leaves[static_cast<std::size_t>(s)], -2 * leaves[static_cast<std::size_t>(s)]});
      }
      ASSERT_TRUE(tree.complete());
      EXPECT_EQ(tree.value(), reference) << n;
      EXPECT_EQ(tree.vector()[0], reference) << n;
      EXPECT_EQ(tree.vector()[1], -2 * reference) << n;  // exact: scaling by 2 commutes with rounding
    }
  }
}

TEST(SummationTree, AssociationIsPairwiseNotLeftToRight) {
  // Left to right: ((1e16 + 1) - 1e16) + 1 = 1; the tree: (1e16 + 1) + (-1e16 + 1) = 0.
  const std::vector<double> v{1e16, 1.0, -1e16, 1.0};
  EXPECT_EQ(((v[0] + v[1]) + v[2]) + v[3], 1.0);
  EXPECT_EQ(tree_sum(v), 0.0);
  // Five leaves: ((0 + 1) + (2 + 3)) + 4.
  const std::vector<double> w{1e16, 1.0, 1.0, -1e16, 3.0};
  EXPECT_EQ(tree_sum(w), ((w[0] + w[1]) + (w[2] + w[3])) + w[4]);
}

TEST(SummationTree, AscendingArrivalHoldsFewPartialSums) {
  SummationTree tree(1000, 1);
  for (std::int64_t s = 0; s < 1000; ++s) tree.add(s, 1.0, {1.0});
  EXPECT_EQ(tree.value(), 1000.0);
  EXPECT_LE(tree.peak_held(), 11u);
  EXPECT_THROW(tree.add(3, 1.0, {1.0}), std::logic_error);
}

// Three shots on the small case: sources apart, the case's receiver line, data in the true model.
template <class T>
Survey three_shots(const SmallCase& c) {
  Survey s;
  const std::vector<Vec3> sources{{0.25 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0},
                                  {0.5 * c.grid.extent(0), 0.3 * c.grid.extent(1), 13.0},
                                  {0.8 * c.grid.extent(0), 0.6 * c.grid.extent(1), 23.0}};
  for (std::size_t k = 0; k < sources.size(); ++k) {
    SmallCase one = c;
    one.acq.sources = {sources[k]};
    Shot shot;
    shot.name = "shot " + std::to_string(k);
    shot.acquisition = one.acq;
    shot.time = c.time;
    const std::vector<T> d = revwave::testing::observed_in<T>(one, c.true_model);
    shot.data.assign(d.begin(), d.end());
    s.shots.push_back(shot);
  }
  return s;
}

TEST(SurveyGradient, EqualsTheSumOfShotsRunAlone) {
  const SmallCase c = small_case();
  const Survey survey = three_shots<double>(c);
  SurveyRunOptions o;
  o.strategy = revwave::testing::strategy("revolve", 7);
  SerialShotRunner runner;
  const SurveySum sum = survey_gradient<double>(c.grid, c.start_model, survey, o, runner);

  // Each shot alone, through the single-shot driver.
  std::vector<double> objectives;
  std::vector<std::vector<double>> grads;
  for (const Shot& shot : survey.shots) {
    const Problem<double> p = make_problem<double>(c.grid, c.start_model, shot.acquisition, shot.time);
    CpuPropagator<double> prop(p);
    const StrategyOptions full = revwave::testing::strategy("full");
    const GradientOutput g =
        run_gradient(prop, shot.data.data(), full, plan_strategy(full, p.time.steps, prop.field_bytes()));
    objectives.push_back(g.stats.objective);
    grads.push_back(g.gradient);
  }
  ASSERT_EQ(sum.shots.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_EQ(sum.shots[k].objective, objectives[k]);  // checkpointed == full, bitwise
  double norm = 0, diff = 0;
  for (std::size_t i = 0; i < sum.gradient.size(); ++i) {
    const double plain = grads[0][i] + grads[1][i] + grads[2][i];
    norm += plain * plain;
    diff += (sum.gradient[i] - plain) * (sum.gradient[i] - plain);
    ASSERT_EQ(sum.gradient[i], (grads[0][i] + grads[1][i]) + grads[2][i]) << i;  // the tree's association
  }
  EXPECT_GT(norm, 0);
  EXPECT_LE(std::sqrt(diff), 1e-14 * std::sqrt(norm));
  EXPECT_EQ(sum.objective, (objectives[0] + objectives[1]) + objectives[2]);
}

TEST(SurveyGradient, ApertureWiderThanTheModelIsTheWholeModelBitForBit) {
  const SmallCase c = small_case();
  const Survey survey = three_shots<float>(c);
  SurveyRunOptions whole;
  whole.strategy = revwave::testing::strategy("revolve", 5);
  SurveyRunOptions wide = whole;
  wide.aperture = 1e5;
  SurveyRunOptions narrow = whole;
  narrow.aperture = 30.0;
  SerialShotRunner runner;
  const SurveySum a = survey_gradient<float>(c.grid, c.start_model, survey, whole, runner);
  const SurveySum b = survey_gradient<float>(c.grid, c.start_model, survey, wide, runner);
  const SurveySum n = survey_gradient<float>(c.grid, c.start_model, survey, narrow, runner);
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.gradient, b.gradient);
  for (const ShotSummary& s : b.shots) EXPECT_EQ(s.window[3] * s.window[4] * s.window[5], c.grid.interior_points());
  // A narrow aperture really cuts: smaller windows, another objective.
  for (const ShotSummary& s : n.shots) EXPECT_LT(s.window[3] * s.window[4] * s.window[5], c.grid.interior_points());
  EXPECT_NE(a.objective, n.objective);
}

TEST(ModelWindow, CoversTheShotPlusApertureInsideTheGrid) {
  Grid g;
  g.shape = {30, 20, 10};
  g.spacing = 10;
  Acquisition acq;
  acq.sources = {{100.0, 50.0, 20.0}};
  acq.receivers = {{120.0, 50.0, 10.0}, {150.0, 60.0, 10.0}};
  const ModelWindow w = shot_window(g, acq, 25.0);
  EXPECT_EQ(w.first, (std::array<index_t, 3>{7, 2, 0}));   // 100 - 25 = 75 m -> point 7; 10 - 25 < 0 -> 0
  EXPECT_EQ(w.shape, (std::array<index_t, 3>{12, 8, 6}));  // to 175 m (18), 85 m (9), 45 m (5)
  const Acquisition local = window_acquisition(acq, g, w);
  EXPECT_EQ(local.sources[0], (Vec3{30.0, 30.0, 20.0}));
  std::vector<double> whole(static_cast<std::size_t>(g.interior_points()), 1.0),
      part(static_cast<std::size_t>(w.points()), 2.0);
  part[0] = 5.0;
  add_window_gradient(g, w, part, whole);
  EXPECT_EQ(whole[static_cast<std::size_t>((7 * 20 + 2) * 10 + 0)], 6.0);
  EXPECT_EQ(std::count(whole.begin(), whole.end(), 3.0), static_cast<std::ptrdiff_t>(w.points() - 1));
}

TEST(SurveyGradient, TaylorTestOfTheWindowedSurveyObjective) {
  const SmallCase c = small_case();
  const Survey survey = three_shots<double>(c);
  SurveyRunOptions o;
  o.strategy = revwave::testing::strategy("revolve", 6);
  o.aperture = 40.0;
  SerialShotRunner runner;
  const SurveySum g = survey_gradient<double>(c.grid, c.start_model, survey, o, runner);
  for (const ShotSummary& s : g.shots) ASSERT_LT(s.window[3] * s.window[4] * s.window[5], c.grid.interior_points());
  EXPECT_EQ(g.objective, survey_misfit<double>(c.grid, c.start_model, survey, o.aperture));
  // dm: towards the true model, 2% of max m at h = 1.
  const revwave::testing::SurveyTaylor t = revwave::testing::survey_taylor(c.grid, c.start_model, survey, o.aperture, g,
                                                                           revwave::testing::towards_true_model(c));
  for (std::size_t k = 0; k < t.h.size(); ++k)
    EXPECT_GT(t.remainder[k], 0) << t.h[k];  // every point fitted (log_log_slope leaves out a zero)
  EXPECT_GE(t.rate, 1.9);
  EXPECT_LE(t.rate, 2.2);
}

TEST(SurveyLayout, FixedAndMovingSpreads) {
  Grid g;
  g.shape = {11, 11, 6};
  g.spacing = 10;
  SurveyLayout l;
  l.sources = {{50, 50, 10}, {0, 20, 10}};
  l.receivers = {{40, 50, 5}, {60, 50, 5}, {50, 90, 5}};
  l.spread_centre = {50, 50, 0};
  l.f0 = 10;
  l.time = {0.001, 10};
  const Survey fixed = layout_survey(l, g);
  ASSERT_EQ(fixed.shots.size(), 2u);
  EXPECT_EQ(fixed.shots[1].acquisition.receivers, l.receivers);
  EXPECT_EQ(fixed.shots[1].acquisition.sources, (std::vector<Vec3>{{0, 20, 10}}));
  l.moving_spread = true;
  const Survey moving = layout_survey(l, g);
  EXPECT_EQ(moving.shots[0].acquisition.receivers, l.receivers);  // centred on the model: where laid out
  // Moved by (-50, -30): (-10, 20) leaves the model, (10, 20) and (0, 60) stay.
  EXPECT_EQ(moving.shots[1].acquisition.receivers, (std::vector<Vec3>{{10, 20, 5}, {0, 60, 5}}));
  l.sources = {{100, 0, 10}};  // the receiver at (0, 0) moves to (50, -50)
  l.receivers = {{0, 0, 5}};
  EXPECT_THROW(layout_survey(l, g), InputError);  // nothing left inside
}

class SurveyFiles : public revwave::testing::TempDirTest {
 protected:
  SurveyFiles() : TempDirTest("revwave_survey") {}
  static ShotRecordMeta meta(double x) {
    ShotRecordMeta m;
    m.dt = 0.001;
    m.nt = 3;
    m.f0 = 15;
    m.t0 = 0.1;
    m.sources = {{x, 10, 10}};
    m.receivers = {{0, 0, 5}, {20, 20, 5}};
    return m;
  }
};

TEST_F(SurveyFiles, DirectoriesListsAndSegyWithTheirWavelets) {
  fs::create_directories(dir_ / "recs");
  const std::vector<double> d(6, 0.25);
  write_shot_record(path("recs/b.npy"), meta(2), d);
  write_shot_record(path("recs/a.npy"), meta(1), d);
  write_shot_record(path("c.npy"), meta(3), d);
  const Survey s = read_survey({path("recs"), path("c.npy")});
  ASSERT_EQ(s.shots.size(), 3u);
  EXPECT_EQ(s.shots[0].acquisition.sources[0][0], 1.0);  // name order inside the directory
  EXPECT_EQ(s.shots[1].acquisition.sources[0][0], 2.0);
  EXPECT_EQ(s.shots[2].acquisition.sources[0][0], 3.0);
  EXPECT_EQ(s.shots[2].acquisition.f0, 15.0);
  EXPECT_EQ(s.shots[2].time.steps, 2);
  SurveyReadOptions contradict;
  contradict.f0 = 12;
  EXPECT_THROW(read_survey({path("c.npy")}, contradict), InputError);

  SegySurvey g;
  g.dt = 0.001;
  g.nt = 3;
  g.shots.push_back({0, {5, 5, 5}, {{0, 0, 5}}, {}, {1, 2, 3}});
  write_segy(path("s.sgy"), g);  // f0 = 0: no wavelet recorded
  EXPECT_THROW(read_survey({path("s.sgy")}), InputError);
  SurveyReadOptions f0;
  f0.f0 = 20;
  const Survey r = read_survey({path("s.sgy")}, f0);
  EXPECT_EQ(r.shots[0].acquisition.f0, 20.0);
  EXPECT_EQ(r.shots[0].acquisition.t0, 1.5 / 20.0);
  SurveyReadOptions sampled;
  sampled.wavelet = {0.0, 1.0, 0.0};
  EXPECT_EQ(read_survey({path("s.sgy")}, sampled).shots[0].wavelet, sampled.wavelet);
}

TEST_F(SurveyFiles, AReceiverOutsideTheModelIsNamedByShotAndTrace) {
  SegySurvey g;
  g.dt = 0.001;
  g.nt = 3;
  g.f0 = 10;
  g.shots.push_back({0, {5, 5, 5}, {{0, 0, 5}}, {}, {1, 2, 3}});
  g.shots.push_back({0, {5, 5, 5}, {{0, 0, 5}, {0, 500, 5}}, {}, {1, 2, 3, 4, 5, 6}});
  write_segy(path("s.sgy"), g);
  const Survey s = read_survey({path("s.sgy")});
  Grid grid;
  grid.shape = {10, 10, 10};
  grid.spacing = 10;
  try {
    check_survey(s, grid, homogeneous_model(grid.shape, 2000));
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("shot 1 (FieldRecord 2): trace 2, receiver 1 at (0, 500, 5) m lies outside"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
