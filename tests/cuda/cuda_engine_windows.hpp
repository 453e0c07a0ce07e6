// The device's shot engine against a propagator per shot, for the physics that a window carries
// (the free surface, a density, the C-PML, the plane): three shots of one case with --aperture 40
// windows, two reaching z = 0 and one below it, modelled in the true model on the device; the
// revolve survey gradient must be the bits of make_problem's window problem on a propagator of its
// own. On a plane (ny = 1) every point lies at y = 0. The engine's sum goes to sum_out when given.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_support.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_reference.hpp"

namespace revwave::cuda_testing {

template <class T>
void expect_engine_windows_are_the_per_shot_bits(const Case& c, const std::string& what, SurveySum* sum_out = nullptr) {
  const double dy = c.grid.shape[1] == 1 ? 0.0 : 10.0;  // a receiver off the shot's line, where y exists
  Survey survey;
  const double depths[] = {12.0, 25.0, 200.0};
  for (int k = 0; k < 3; ++k) {
    Shot shot;
    shot.name = "shot " + std::to_string(k);
    shot.acquisition = c.acq;
    const double x = (0.2 + 0.3 * k) * c.grid.extent(0), y = 0.5 * c.grid.extent(1);
    shot.acquisition.sources = {{x, y, depths[k]}};
    shot.acquisition.receivers = {{x + 20, y, depths[k] + 10}, {x - 10, y + dy, depths[k] - 8}};
    shot.time = c.time;
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, shot.acquisition, c.time);
    const std::vector<T> d = cuda_forward(truth, DeviceBudgets{}).traces;
    shot.data.assign(d.begin(), d.end());
    survey.shots.push_back(shot);
  }
  SurveyRunOptions o;
  o.backend = Backend::cuda;
  o.strategy = strategy("revolve", 4);
  o.strategy.backend = Backend::cuda;
  o.aperture = 40.0;
  SerialShotRunner runner;
  const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
  ASSERT_EQ(sum.shots.size(), 3u) << what;
  EXPECT_EQ(sum.shots[0].window[2], 0) << what;
  EXPECT_GT(sum.shots[2].window[2], 0) << what;
  const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
  EXPECT_EQ(sum.objective, objective) << what;
  ASSERT_EQ(sum.gradient.size(), gradient.size()) << what;
  EXPECT_EQ(std::memcmp(sum.gradient.data(), gradient.data(), gradient.size() * sizeof(double)), 0) << what;
  if (sum_out != nullptr) *sum_out = sum;
}

}  // namespace revwave::cuda_testing
