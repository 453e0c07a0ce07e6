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
std::vector<double> shot_illumination(const Grid& grid, const VelocityModel& model, const Shot& shot, double aperture,
                                      const Progress& progress = {}) {
  const ModelWindow w = shot_window(grid, shot.acquisition, aperture);
  const Problem<T> p = shot_problem<T>(grid, model, shot, w);
  CpuPropagator<T> prop(p);
  std::vector<double> local(static_cast<std::size_t>(p.grid.interior_points()), 0.0);
  prop.reset_forward();
  for (index_t n = 0; n < p.time.steps; ++n) {
    prop.forward_step(n);
    prop.add_squared_interior(local);
    if (progress) progress(n + 1, p.time.steps);
  }
  if (w.shape == grid.shape) return local;
  std::vector<double> whole(static_cast<std::size_t>(grid.interior_points()), 0.0);
  add_window_gradient(grid, w, local, whole);
  return whole;
}

// `survey` must hold every shot's observed data; it must outlive the returned functions, as must
// `runner`, `options` and `progress` (called between shots and time steps; it may throw RunCancelled).
template <class T>
BandProblem survey_band_problem(const Grid& grid, const Survey& survey, const SurveyRunOptions& options, ShotRunner& runner,
                                const Progress& progress = {}) {
  return [&grid, &survey, &options, &runner, &progress](double cutoff) {
    auto banded = std::make_shared<Survey>(band_survey(survey, cutoff));
    const auto model_of = [&grid](const std::vector<double>& velocity) {
      VelocityModel m{grid.shape, velocity};
      return m;
    };
    VelocityObjective objective = [&grid, &options, &runner, &progress, banded, model_of](const std::vector<double>& c,
                                                                                          std::vector<double>& gradient) {
      const VelocityModel m = model_of(c);
      SurveySum sum = survey_gradient<T>(grid, m, *banded, options, runner, progress);
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
    Illumination illumination = [&grid, &options, &runner, &progress, banded, model_of](const std::vector<double>& c) {
      const VelocityModel m = model_of(c);
      const ShotTask task = [&](std::int64_t s, const Progress& steps) {
        ShotOutput out;
        out.summary.shot = s;
        out.gradient = shot_illumination<T>(grid, m, banded->shots[static_cast<std::size_t>(s)], options.aperture, steps);
        return out;
      };
      SurveySum sum = runner.run(static_cast<std::int64_t>(banded->shots.size()),
                                 static_cast<std::size_t>(grid.interior_points()), task, progress);
      std::vector<double> values = sum.root ? std::move(sum.gradient) : std::vector<double>{};
      runner.broadcast_from_root(values);
      return values;
    };
    return std::make_pair(std::move(objective), std::move(illumination));
  };
}

}  // namespace revwave
