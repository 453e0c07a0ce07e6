// The inversion's band problem on a survey: J and dJ/dc by the survey gradient (shot-parallel over
// the runner, summed on the root, broadcast so that every process steps alike), and the source-side
// illumination by a forward sweep per shot, on the run's shot engine (the device's, on a GPU).
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/inversion/inversion.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {

// The seconds of this process's wall time the shots of a sum spent in time loops: theirs summed over
// every process, shared out over the processes.
inline double time_loop_share(const SurveySum& sum) {
  double loops = 0;
  for (const ShotSummary& s : sum.shots) loops += s.phases.time_loop;
  return loops / static_cast<double>(std::max(sum.processes, 1));
}

// `survey` must hold every shot's observed data; it must outlive the returned functions, as must
// `runner`, `options` and `progress` (called between shots and time steps; it may throw RunCancelled).
// One shot engine serves every band, evaluation and illumination sweep; `time_loops` (if given)
// counts the seconds they spend in time loops (time_loop_share, on the root). `fixed`: the model's
// parameters besides the velocity (its density, epsilon and delta, Q; empty: none), known and fixed,
// carried by every model the inversion tries (its velocity is not read).
template <class T>
BandProblem survey_band_problem(const Grid& grid, const Survey& survey, const SurveyRunOptions& options,
                                ShotRunner& runner, const Progress& progress = {},
                                std::shared_ptr<double> time_loops = nullptr, VelocityModel fixed_parameters = {}) {
  const std::shared_ptr<ShotEngine<T>> engine = make_survey_engine<T>(grid, survey, options);
  if (!time_loops) time_loops = std::make_shared<double>(0.0);
  fixed_parameters.velocity.clear();
  auto fixed = std::make_shared<const VelocityModel>(std::move(fixed_parameters));
  return [&grid, &survey, &options, &runner, &progress, engine, time_loops, fixed](double cutoff) -> BandFunctions {
    auto banded = std::make_shared<Survey>(band_survey(survey, cutoff));
    const auto model_of = [&grid, fixed](const std::vector<double>& velocity) {
      VelocityModel m = *fixed;
      m.shape = grid.shape;
      m.velocity = velocity;
      return m;
    };
    VelocityObjective objective = [&grid, &options, &runner, &progress, engine, banded, model_of, time_loops](
                                      const std::vector<double>& c, std::vector<double>& gradient) {
      const VelocityModel m = model_of(c);
      SurveySum sum = survey_gradient<T>(*engine, grid, m, *banded, options, runner, progress);
      if (sum.root) *time_loops += time_loop_share(sum);
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
    Illumination illumination = [&grid, &options, &runner, &progress, engine, banded, model_of,
                                 time_loops](const std::vector<double>& c) {
      engine->set_model(model_of(c));
      const ShotTask task = [&](std::int64_t s, const Progress& steps) {
        ShotOutput out;
        const Shot& shot = banded->shots[static_cast<std::size_t>(s)];
        std::vector<double> wavelet;
        out.gradient =
            engine->illumination(engine_shot(grid, shot, options.aperture, wavelet), out.summary.phases, steps);
        return out;
      };
      reserve_tree_blocks(engine->sums(), grid, *banded, options.aperture, runner);
      SurveySum sum = runner.run(static_cast<std::int64_t>(banded->shots.size()), engine->sums(), task, progress);
      if (sum.root) *time_loops += time_loop_share(sum);
      std::vector<double> values = sum.root ? std::move(sum.gradient) : std::vector<double>{};
      runner.broadcast_from_root(values);
      return values;
    };
    return BandFunctions(std::move(objective), std::move(illumination), [time_loops] { return *time_loops; });
  };
}

}  // namespace revwave
