// The inversion's band problem on a survey: J and dJ/dc by the survey gradient (shot-parallel over
// the runner, summed on the root, broadcast so that every process steps alike), and the source-side
// illumination by a forward sweep per shot.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/inversion/inversion.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {

// sum over steps n = 1..N of u[n]^2 at the interior points of the whole grid, for one shot, on the
// CPU propagator (the CUDA backend has no such hook: the illumination sweep runs on the CPU).
template <class T>
std::vector<double> shot_illumination(const Grid& grid, const VelocityModel& model, const Shot& shot, double aperture) {
  const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
  const Problem<T> p = shot_problem<T>(grid, model, shot, w);
  CpuPropagator<T> prop(p);
  std::vector<double> local(static_cast<std::size_t>(p.grid.interior_points()), 0.0);
  prop.reset_forward();
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.add_squared_interior(local);
  }
  if (w.shape == grid.shape) return local;
  std::vector<double> whole(static_cast<std::size_t>(grid.interior_points()), 0.0);
  add_window_gradient(grid, w, local, whole);
  return whole;
}

// `survey` must hold every shot's observed data; it must outlive the returned functions, as must
// `runner` and `options`. `density`: the model's (empty: constant), known and fixed, carried by every
// model the inversion tries.
template <class T>
BandProblem survey_band_problem(const Grid& grid, const Survey& survey, const SurveyRunOptions& options, ShotRunner& runner,
                                std::vector<double> density = {}) {
  auto fixed = std::make_shared<const std::vector<double>>(std::move(density));
  return [&grid, &survey, &options, &runner, fixed](double cutoff) {
    auto banded = std::make_shared<Survey>(band_survey(survey, cutoff));
    const auto model_of = [&grid, fixed](const std::vector<double>& velocity) {
      VelocityModel m{grid.shape, velocity, *fixed};
      return m;
    };
    VelocityObjective objective = [&grid, &options, &runner, banded, model_of](const std::vector<double>& c,
                                                                               std::vector<double>& gradient) {
      const VelocityModel m = model_of(c);
      SurveySum sum = survey_gradient<T>(grid, m, *banded, options, runner);
      std::vector<double> packed;
      if (sum.root) {
        packed.reserve(sum.gradient.size() + 1);
        packed.push_back(sum.objective);
        packed.insert(packed.end(), sum.gradient.begin(), sum.gradient.end());
      }
      runner.broadcast_from_root(packed);
      const std::vector<double> dj_dm(packed.begin() + 1, packed.end());
      gradient = velocity_gradient(c, dj_dm);
      return packed.front();
    };
    Illumination illumination = [&grid, &options, &runner, banded, model_of](const std::vector<double>& c) {
      const VelocityModel m = model_of(c);
      const ShotTask task = [&](std::int64_t s, const Progress&) {
        ShotOutput out;
        out.summary.shot = s;
        out.gradient = shot_illumination<T>(grid, m, banded->shots[static_cast<std::size_t>(s)], options.aperture);
        return out;
      };
      SurveySum sum = runner.run(static_cast<std::int64_t>(banded->shots.size()),
                                 static_cast<std::size_t>(grid.interior_points()), task);
      std::vector<double> values = sum.root ? std::move(sum.gradient) : std::vector<double>{};
      runner.broadcast_from_root(values);
      return values;
    };
    return std::make_pair(std::move(objective), std::move(illumination));
  };
}

}  // namespace revwave
