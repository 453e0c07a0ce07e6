// The CUDA backend's shot engine: a survey's gradient on one device-resident engine equals, bit for
// bit, the per-shot device path it replaced (a CudaPropagator per shot, its gradient read back and
// summed on the host), with one shot at a time on the device or several (its lanes, whose streams
// cudasim's race checker watches); its illumination is the CPU's sum of u^2.
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
  for (const auto& [aperture, at_once] : {std::pair{-1.0, 1}, {40.0, 1}, {40.0, 2}, {-1.0, 3}}) {
    SurveyRunOptions o;
    o.backend = Backend::cuda;
    o.strategy = strategy("revolve", 4);
    o.strategy.backend = Backend::cuda;
    o.aperture = aperture;
    o.budgets.shots_at_once = at_once;
    SerialShotRunner runner;
    const SurveySum sum = survey_gradient<T>(c.grid, c.start_model, survey, o, runner);
    const auto [objective, gradient] = testing::reference_survey_gradient<T>(c.grid, c.start_model, survey, o);
    const std::string where = "aperture " + std::to_string(aperture) + ", shots at once " + std::to_string(at_once);
    EXPECT_EQ(sum.objective, objective) << where;
    ASSERT_EQ(sum.gradient.size(), gradient.size());
    EXPECT_EQ(std::memcmp(sum.gradient.data(), gradient.data(), gradient.size() * sizeof(double)), 0) << where;
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

// The engine's illumination of every shot of `survey`, each read back after all were enqueued.
template <class T>
std::vector<std::vector<double>> engine_illumination(const Case& c, const Survey& survey, const SurveyRunOptions& o,
                                                     bool square_add) {
  EngineOptions eo;
  eo.grid = c.grid;
  for (const Shot& shot : survey.shots)
    eo.window_shapes.push_back(shot_window(c.grid, shot.acquisition, o.aperture).shape);
  eo.strategy = o.strategy;
  eo.budgets = o.budgets;
  eo.square_add_illumination = square_add;
  const auto engine = make_shot_engine<T>(Backend::cuda, eo);
  engine->set_model(c.start_model);
  std::vector<TiledPart> parts;
  for (const Shot& shot : survey.shots) {
    ShotPhases phases;
    parts.push_back(engine->illumination(engine_shot(c.grid, shot, o.aperture), phases, {}));
  }
  std::vector<std::vector<double>> out;
  for (const TiledPart& part : parts) out.push_back(part.dense());
  return out;
}

// Added in passing by the forward sweep (u[n]^2 as it reads u[n]), the sum is the square-add
// kernel's after every step bit for bit, and the CPU's within rounding; windows below a free
// surface (whose top layer is absent) and shots two at a time included.
TEST_F(CudaShotEngine, IlluminationOnTheDeviceIsTheCpusSumOfSquares) {
  using T = double;
  for (bool surface : {false, true}) {
    Case c = awkward_case(4, 25, {21, 19, 17});
    c.grid.free_surface = surface;
    const Survey survey = spread_survey<T>(c, 3);
    SurveyRunOptions o;
    o.backend = Backend::cuda;
    o.strategy = strategy("revolve", 4);
    o.strategy.backend = Backend::cuda;
    o.aperture = 30;
    for (int at_once : {1, 2}) {
      o.budgets.shots_at_once = at_once;
      const auto fused = engine_illumination<T>(c, survey, o, false);
      const auto plain = engine_illumination<T>(c, survey, o, true);
      for (std::size_t s = 0; s < survey.shots.size(); ++s) {
        const std::string where = "shot " + std::to_string(s) + ", surface " + std::to_string(surface) + ", at once " +
                                  std::to_string(at_once);
        const std::vector<double> want = shot_illumination<T>(c.grid, c.start_model, survey.shots[s], o.aperture);
        ASSERT_EQ(fused[s].size(), want.size());
        EXPECT_EQ(std::memcmp(fused[s].data(), plain[s].data(), want.size() * sizeof(double)), 0) << where;
        double peak = 0;
        for (double v : want) peak = std::max(peak, v);
        ASSERT_GT(peak, 0.0);
        for (std::size_t i = 0; i < want.size(); ++i)
          ASSERT_NEAR(fused[s][i], want[i], 1e-9 * peak) << where << ", point " << i;
      }
    }
  }
}

}  // namespace
}  // namespace revwave
