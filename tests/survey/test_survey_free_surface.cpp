// --free-surface in surveys: an --aperture window that reaches z = 0 keeps the surface, one below it
// has a layer on top, and the shot engine's windowed gradient agrees with the windowed objective
// (bit for bit) and with its Taylor expansion.
#include <gtest/gtest.h>

#include <cmath>

#include "revwave/driver/verification.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_taylor.hpp"
#include "test_helpers.hpp"

namespace {

using namespace revwave;
using revwave::testing::SmallCase;

// Shots of the small case at the given depths, data modelled in the true model on the whole grid.
Survey shots_at(const SmallCase& c, const std::vector<double>& depths) {
  Survey s;
  for (std::size_t k = 0; k < depths.size(); ++k) {
    SmallCase one = c;
    one.acq.sources = {{(0.25 + 0.25 * double(k)) * c.grid.extent(0), 0.5 * c.grid.extent(1), depths[k]}};
    one.acq.receivers = {{0.5 * c.grid.extent(0), 0.4 * c.grid.extent(1), depths[k] + 10},
                         {0.6 * c.grid.extent(0), 0.5 * c.grid.extent(1), depths[k] - 5}};
    Shot shot;
    shot.name = "shot " + std::to_string(k);
    shot.acquisition = one.acq;
    shot.time = c.time;
    const std::vector<double> d = revwave::testing::observed_in<double>(one, c.true_model);
    shot.data.assign(d.begin(), d.end());
    s.shots.push_back(shot);
  }
  return s;
}

TEST(FreeSurfaceWindow, AWindowKeepsTheSurfaceOnlyWhereItReachesZeroDepth) {
  Grid g;
  g.shape = {30, 20, 30};
  g.spacing = 10;
  g.nbl = 4;
  g.free_surface = true;
  Acquisition acq;
  acq.sources = {{100.0, 50.0, 20.0}};
  acq.receivers = {{120.0, 50.0, 10.0}};
  const ModelWindow top = shot_window(g, acq, 25.0);
  ASSERT_EQ(top.first[2], 0);
  EXPECT_TRUE(window_grid(g, top).free_surface);
  EXPECT_EQ(window_grid(g, top).layer_lo(2), 0);
  acq.sources = {{100.0, 50.0, 200.0}};
  acq.receivers = {{120.0, 50.0, 210.0}};
  const ModelWindow deep = shot_window(g, acq, 25.0);
  ASSERT_GT(deep.first[2], 0);
  EXPECT_FALSE(window_grid(g, deep).free_surface);
  EXPECT_EQ(window_grid(g, deep).layer_lo(2), g.nbl);
}

TEST(FreeSurfaceWindow, WindowedGradientsMatchTheWindowedObjective) {
  SmallCase c = revwave::testing::small_case(19, 17, 24, 60, 4);
  c.grid.free_surface = true;
  // The first two windows reach z = 0 (the surface kept), the third starts below it (a layer on top).
  const Survey survey = shots_at(c, {13.0, 23.0, 150.0});
  SurveyRunOptions o;
  o.strategy = revwave::testing::strategy("revolve", 6);
  o.aperture = 30.0;
  SerialShotRunner runner;
  const SurveySum g = survey_gradient<double>(c.grid, c.start_model, survey, o, runner);
  ASSERT_EQ(g.shots.size(), 3u);
  EXPECT_EQ(g.shots[0].window[2], 0);
  EXPECT_GT(g.shots[2].window[2], 0);
  // The engine (resident model, windows cut per shot) and the misfit (a problem per window) agree.
  EXPECT_EQ(g.objective, survey_misfit<double>(c.grid, c.start_model, survey, o.aperture));
  SmallCase no_surface = c;
  no_surface.grid.free_surface = false;
  EXPECT_NE(g.objective, survey_misfit<double>(no_surface.grid, c.start_model, survey, o.aperture));
  // Taylor: towards the true model, 2% of max m at h = 1; the second-order remainder falls as h^2.
  const revwave::testing::SurveyTaylor t = revwave::testing::survey_taylor(c.grid, c.start_model, survey, o.aperture, g,
                                                                           revwave::testing::towards_true_model(c));
  EXPECT_GE(t.rate, 1.9);
  EXPECT_LE(t.rate, 2.2);
}

}  // namespace
