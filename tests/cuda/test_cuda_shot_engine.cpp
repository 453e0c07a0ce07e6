// The CUDA backend's shot engine: a survey's gradient on one device-resident engine equals, bit for
// bit, the per-shot device path it replaced (a CudaPropagator per shot, its gradient read back and
// summed on the host), with one shot at a time on the device or several (its lanes, whose streams
// cudasim's race checker watches); its illumination is the CPU's sum of u^2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cuda_test_support.hpp"
#include "device_state_io.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/driver/backend_registry.hpp"
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
    const std::vector<T> d = cuda_forward(truth, DeviceBudgets{}).traces;
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

// Shots go to the engine's lanes in turn (one lane: every shot on it), each with the same schedule
// (the same window and steps). cudasim's CLI suite checks the budget's share where it binds.
TEST_F(CudaShotEngine, ShotsTakeTheLanesInTurn) {
  using T = float;
  const Case c = awkward_case(4, 30, {19, 17, 15});
  const Survey survey = spread_survey<T>(c, 5);
  for (int at_once : {1, 2, 3}) {
    SurveyRunOptions o;
    o.backend = Backend::cuda;
    o.strategy = strategy("revolve", 4);
    o.strategy.backend = Backend::cuda;
    o.budgets.shots_at_once = at_once;
    const auto engine = make_survey_engine<T>(c.grid, survey, o);
    engine->set_model(c.start_model);
    std::vector<EngineGradient> runs;
    for (const Shot& shot : survey.shots)
      runs.push_back(engine->gradient(engine_shot(c.grid, shot, -1), o.misfit.get<T>(), {}));
    for (std::size_t s = 0; s < runs.size(); ++s) {
      EXPECT_EQ(runs[s].lane, static_cast<int>(s % static_cast<std::size_t>(at_once)))
          << "shot " << s << ", at once " << at_once;
      EXPECT_EQ(runs[s].stats.forward_steps, runs[0].stats.forward_steps) << "shot " << s << ", at once " << at_once;
    }
  }
}

// The propagator's sum in passing itself: after illuminate_next_step, the next forward step adds
// u[n]^2 (the state it steps from) at every interior point and at no other, the sum's earlier
// values kept (add_square); with a free surface too, where the interior starts at the top row.
TEST_F(CudaShotEngine, AForwardStepAddsTheSquareOfTheStateItStepsFrom) {
  using T = double;
  for (bool surface : {false, true}) {
    Case c = awkward_case(4, 10, {13, 11, 9});
    c.grid.free_surface = surface;
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CudaPropagator<T> prop(p);
    ASSERT_TRUE(prop.illuminates_in_passing());
    const std::vector<T> u = random_field<T>(p.grid, 3), up = random_field<T>(p.grid, 4);
    upload_state(prop, u, up);
    const std::size_t n = static_cast<std::size_t>(p.grid.interior_points());
    std::vector<double> before(n);
    for (std::size_t i = 0; i < n; ++i) before[i] = 0.25 + 1e-3 * static_cast<double>(i % 97);
    DeviceBuffer sum(n * sizeof(double));
    sum.upload(before.data(), n * sizeof(double));
    prop.illuminate_next_step(sum.as<double>());
    prop.forward_step(0);
    prop.forward_step(1);  // no sum asked: none added
    std::vector<double> got(n);
    prop.streams().compute.synchronize();
    REVWAVE_CUDA_CHECK(cudaMemcpy(got.data(), sum.data(), n * sizeof(double), cudaMemcpyDeviceToHost));
    const Grid& g = p.grid;
    std::size_t t = 0;
    for (index_t x = 0; x < g.shape[0]; ++x)
      for (index_t y = 0; y < g.shape[1]; ++y)
        for (index_t z = 0; z < g.shape[2]; ++z, ++t) {
          const double v = static_cast<double>(u[static_cast<std::size_t>(g.interior_index(x, y, z))]);
          ASSERT_EQ(got[t], add_square(before[t], v))
              << "surface " << surface << ", point " << x << "," << y << "," << z;
        }
  }
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
        const std::vector<double> want =
            revwave::testing::shot_illumination<T>(c.grid, c.start_model, survey.shots[s], o.aperture);
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
