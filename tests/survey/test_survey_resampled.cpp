// Records at their own sample interval (record_resampling.hpp): a survey sampled at 2.5 default
// steps, which no stable run can step, run in 3 steps per sample and compared through the
// band-limited resampling. Against independent truth: the run's own samples at every step, a Taylor
// test of the whole resampled objective, and full's bits for every strategy.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_taylor.hpp"
#include "test_helpers.hpp"

namespace {

using namespace revwave;
using revwave::testing::small_case;
using revwave::testing::SmallCase;

// Two shots of the small case whose records are sampled every 2.5 default steps (data rate 20
// samples), their data modelled in `truth` at the substeps choose_substeps gives.
Survey coarse_survey(const SmallCase& c, const VelocityModel& truth) {
  Survey s;
  const std::vector<Vec3> sources{{0.3 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0},
                                  {0.7 * c.grid.extent(0), 0.4 * c.grid.extent(1), 13.0}};
  for (std::size_t k = 0; k < sources.size(); ++k) {
    Shot shot;
    shot.name = "coarse shot " + std::to_string(k);
    shot.acquisition = c.acq;
    shot.acquisition.sources = {sources[k]};
    shot.time.dt = 2.5 * c.time.dt;
    shot.time.steps = 20;
    s.shots.push_back(shot);
  }
  const double vmax = std::max(max_velocity(truth), max_velocity(c.start_model));
  choose_substeps(s, c.grid, vmax, 1.0);
  for (Shot& shot : s.shots) shot.data = model_shot_data<double>(c.grid, truth, shot, Backend::cpu, {});
  return s;
}

TEST(ResampledSurvey, TheRecordsDtIsRunInStableSubsteps) {
  const SmallCase c = small_case();
  Survey s;
  Shot shot;
  shot.name = "shot";
  shot.acquisition = c.acq;
  shot.time.dt = 2.5 * c.time.dt;
  shot.time.steps = 20;
  s.shots.push_back(shot);
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  s.shots[0].data.assign(static_cast<std::size_t>(21 * c.acq.receivers.size()), 0.0);
  // Unresampled, the records' dt is unstable: refused, as before.
  EXPECT_THROW(check_survey(s, c.grid, c.start_model), InputError);
  const std::vector<std::string> said = choose_substeps(s, c.grid, vmax, 1.0);
  EXPECT_EQ(s.shots[0].substeps, 3);  // 2.5 default steps of 0.9 of the limit
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("3 steps of"), std::string::npos) << said[0];
  EXPECT_EQ(simulation_time(s.shots[0]).steps, (20 + resampling_half_width) * 3);  // on past the record's end
  EXPECT_DOUBLE_EQ(simulation_time(s.shots[0]).dt, 2.5 * c.time.dt / 3);
  EXPECT_NO_THROW(check_survey(s, c.grid, c.start_model));
  // A stable dt keeps its run: no substeps, nothing said.
  Survey fine = s;
  fine.shots[0].time = c.time;
  EXPECT_TRUE(choose_substeps(fine, c.grid, vmax, 1.0).empty());
  EXPECT_EQ(fine.shots[0].substeps, 1);
  // A sample interval a million times finer than the stable step (ns typed for s) is refused in the
  // words of the shot's dt, not later in those of m / dt^2; just above that bound it runs.
  Survey slip = fine;
  const double limit = max_stable_dt(c.grid, vmax);
  slip.shots[0].time.dt = limit * 0.9e-6;
  const std::string m = revwave::testing::message_of([&] { choose_substeps(slip, c.grid, vmax, 1.0); });
  EXPECT_NE(m.find("shot: dt "), std::string::npos) << m;
  EXPECT_NE(m.find("times finer than the largest stable step"), std::string::npos) << m;
  slip.shots[0].time.dt = limit * 1.1e-6;
  EXPECT_NO_THROW(choose_substeps(slip, c.grid, vmax, 1.0));
  EXPECT_EQ(slip.shots[0].substeps, 1);
}

// One run, recorded two ways: at the records' dt through its 3 substeps (resampled), and at every one
// of its steps. The resampled record must be the run's every third sample to the low-pass's error in
// its pass band (the 15 Hz wavelet lies far inside it): a time shift of one step, a gain or a lost
// sample would show as a difference of several per cent.
TEST(ResampledSurvey, TheResampledRecordIsTheRunsOwnSamples) {
  const SmallCase c = small_case();
  Shot coarse;
  coarse.name = "coarse";
  coarse.acquisition = c.acq;
  coarse.time.dt = 2.5 * c.time.dt;
  coarse.time.steps = 50;  // past the wavelet's peak (t0 = 0.1 s)
  coarse.substeps = 3;
  Shot fine = coarse;
  fine.time = simulation_time(coarse);  // the same steps, recorded at each
  fine.substeps = 1;
  const std::vector<double> resampled = model_shot_data<double>(c.grid, c.true_model, coarse, Backend::cpu, {});
  const std::vector<double> every = model_shot_data<double>(c.grid, c.true_model, fine, Backend::cpu, {});
  const std::size_t nrec = c.acq.receivers.size();
  ASSERT_EQ(resampled.size(), 51 * nrec);
  ASSERT_EQ(every.size(), static_cast<std::size_t>(simulation_time(coarse).nt()) * nrec);
  double worst = 0, peak = 0;
  for (std::size_t n = 0; n < 51; ++n) {
    for (std::size_t r = 0; r < nrec; ++r) {
      peak = std::max(peak, std::abs(every[3 * n * nrec + r]));
      worst = std::max(worst, std::abs(resampled[n * nrec + r] - every[3 * n * nrec + r]));
    }
  }
  ASSERT_GT(peak, 0);
  EXPECT_LT(worst, 1e-3 * peak) << worst << " of " << peak;
}

TEST(ResampledSurvey, TaylorTestOfTheResampledObjective) {
  const SmallCase c = small_case();
  const Survey survey = coarse_survey(c, c.true_model);
  ASSERT_EQ(survey.shots[0].substeps, 3);
  SurveyRunOptions o;
  o.strategy = revwave::testing::strategy("full");
  SerialShotRunner runner;
  const SurveySum g = survey_gradient<double>(c.grid, c.start_model, survey, o, runner);
  EXPECT_EQ(g.shots[0].steps, (20 + resampling_half_width) * 3);
  EXPECT_EQ(g.objective, survey_misfit<double>(c.grid, c.start_model, survey, -1));
  const revwave::testing::SurveyTaylor t =
      revwave::testing::survey_taylor(c.grid, c.start_model, survey, -1, g, revwave::testing::towards_true_model(c));
  for (std::size_t k = 0; k < t.h.size(); ++k) EXPECT_GT(t.remainder[k], 0) << t.h[k];
  EXPECT_GE(t.rate, 1.9);
  EXPECT_LE(t.rate, 2.2);
}

TEST(ResampledSurvey, EveryStrategyEqualsFullBitForBit) {
  const SmallCase c = small_case();
  const Survey survey = coarse_survey(c, c.true_model);
  SerialShotRunner runner;
  SurveyRunOptions o;
  o.strategy = revwave::testing::strategy("full");
  const SurveySum full = survey_gradient<float>(c.grid, c.start_model, survey, o, runner);
  for (const std::string& name : {std::string("revolve"), std::string("online")}) {
    o.strategy = revwave::testing::strategy(name, 5);
    const SurveySum other = survey_gradient<float>(c.grid, c.start_model, survey, o, runner);
    EXPECT_EQ(other.objective, full.objective) << name;
    EXPECT_TRUE(revwave::testing::same_bits(other.gradient, full.gradient)) << name;
  }
}

}  // namespace
