// The CUDA backend's shot engine: a survey's gradient on one device-resident engine equals, bit for
// bit, the per-shot device path it replaced (a CudaPropagator per shot, its gradient read back and
// summed on the host); its illumination is the CPU's sum of u^2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cuda_test_support.hpp"
#include "revwave/inversion/survey_objective.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "survey_reference.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaShotEngine : public CudaTest {};

// Shots over the model whose windows differ in shape and position.
template <class T>
Survey spread_survey(const Case& c, int count) {
  Survey s;
  for (int k = 0; k < count; ++k) {
    Shot shot;
    shot.name = "shot " + std::to_string(k);
    shot.acquisition = c.acq;
    const double fx = (k % 3) / 2.0, fy = (k % 2) * 0.7 + 0.15;
    shot.acquisition.sources = {{fx * c.grid.extent(0), fy * c.grid.extent(1), 12.0}};
    shot.acquisition.receivers = {{fx * c.grid.extent(0), 0.5 * c.grid.extent(1), 20.0},
                                  {0.5 * c.grid.extent(0), fy * c.grid.extent(1), 9.0}};
    shot.time = c.time;
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, shot.acquisition, c.time);
    const std::vector<T> d = cuda_forward(truth, CudaBudgets{}).traces;
    shot.data.assign(d.begin(), d.end());
    s.shots.push_back(shot);
  }
  return s;
}

template <class T>
void survey_matches_the_per_shot_path() {
  const Case c = awkward_case(4, 30, {29, 23, 19});
  const Survey survey = spread_survey<T>(c, 5);
  for (double aperture : {-1.0, 40.0}) {
    SurveyRunOptions o;
    o.backend = Backend::cuda;
    o.strategy = strategy("revolve", 4);
    o.strategy.backend = Backend::cuda;
    o.aperture = aperture;
    SerialShotRunner runner;
    const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
    EXPECT_EQ(sum.objective, objective) << "aperture " << aperture;
    ASSERT_EQ(sum.gradient.size(), gradient.size());
    EXPECT_EQ(std::memcmp(sum.gradient.data(), gradient.data(), gradient.size() * sizeof(double)), 0)
        << "aperture " << aperture;
    for (const ShotSummary& s : sum.shots) {
      EXPECT_GT(s.phases.time_loop, 0.0);  // the device's, from its events
      EXPECT_EQ(s.time_loop_ticket, -1);
    }
  }
}

TEST_F(CudaShotEngine, SurveyGradientIsThePerShotDevicePathBitForBit) {
  survey_matches_the_per_shot_path<float>();
  survey_matches_the_per_shot_path<double>();
}

TEST_F(CudaShotEngine, IlluminationOnTheDeviceIsTheCpusSumOfSquares) {
  using T = double;
  const Case c = awkward_case(4, 25, {21, 19, 17});
  const Survey survey = spread_survey<T>(c, 3);
  SurveyRunOptions o;
  o.backend = Backend::cuda;
  o.strategy = strategy("revolve", 4);
  o.strategy.backend = Backend::cuda;
  o.aperture = 30;
  const auto engine = make_survey_engine<T>(c.grid, survey, o);
  engine->set_model(c.start_model);
  for (const Shot& shot : survey.shots) {
    ShotPhases phases;
    const TiledPart part = engine->illumination(engine_shot(c.grid, shot, o.aperture), phases, {});
    const std::vector<double> got = part.dense();
    const std::vector<double> want = shot_illumination<T>(c.grid, c.start_model, shot, o.aperture);
    double peak = 0;
    for (double v : want) peak = std::max(peak, v);
    ASSERT_GT(peak, 0.0);
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-9 * peak) << i;
  }
}

}  // namespace
}  // namespace revwave
