// --estimate-wavelet (gradient, invert; revwave.gradient(estimate_wavelet=True)): one source
// signature for the whole run, the least-squares fit of the observed data by the modelled response
// to a unit impulse (revwave/misfit/wavelet_estimate.hpp), computed in the starting model before the
// gradient and used for every shot. One signature per survey, not per shot: a survey's shots share
// one source, and the estimate is better determined from all of its traces.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/host_tile_blocks.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/misfit/wavelet_estimate.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {

// The signature [1, 0, 0, ...] of nt samples.
std::vector<double> unit_impulse(index_t nt);
// A survey's shots must share one time axis for one signature (InputError naming the first that differs).
void check_one_time_axis(const Survey& survey);

// One shot's spectral sums: its impulse response in `p`'s model against its observed data (nt x nrec
// of T, at the data's samples). The problem's wavelet is the impulse while it runs, and its own again
// afterwards. With `substeps` simulation steps per data sample the response is the one a shot's run
// gives a signature (interpolated to its steps, its traces resampled to the data's samples): the
// data-rate impulse at record sample L (resampling_half_width), so that its interpolation lies whole
// after the run's start, run L record samples longer and its first L samples dropped.
template <class T>
std::vector<double> shot_wavelet_sums(Problem<T>& p, const T* observed, Backend backend, const DeviceBudgets& budgets,
                                      index_t substeps = 1) {
  const index_t nt = record_samples(p.time.nt(), substeps);
  const index_t lead = substeps == 1 ? 0 : resampling_half_width;
  std::vector<double> impulse = unit_impulse(nt + lead);
  if (lead > 0) std::rotate(impulse.begin(), impulse.end() - lead, impulse.end());  // the 1 at sample `lead`
  impulse = interpolate_signature(impulse, substeps);
  std::vector<T> own(impulse.begin(), impulse.end());
  const TimeAxis time = p.time;
  p.time.steps = static_cast<index_t>(impulse.size()) - 1;
  std::swap(own, p.wavelet);
  ShotData<T> g;
  try {
    g = run_on_backend(backend, p, budgets, ForwardCall<T>{});
  } catch (...) {
    std::swap(own, p.wavelet);
    p.time = time;
    throw;
  }
  std::swap(own, p.wavelet);
  p.time = time;
  const index_t nrec = p.rec.count;
  std::vector<double> gd(static_cast<std::size_t>(nt * nrec));
  if (substeps == 1) {
    gd.assign(g.traces.begin(), g.traces.end());
  } else {
    std::vector<T> resampled(static_cast<std::size_t>((nt + lead) * nrec));
    resample_to_records(g.traces.data(), static_cast<index_t>(impulse.size()), nrec, substeps, resampled.data());
    gd.assign(resampled.begin() + lead * nrec, resampled.end());
  }
  const std::vector<double> d(observed, observed + gd.size());
  return wavelet_spectral_sums(gd.data(), d.data(), nt, nrec);
}

// The signature of one record (its problem and observed data).
template <class T>
std::vector<double> estimate_record_wavelet(Problem<T>& p, const T* observed, Backend backend,
                                            const DeviceBudgets& budgets, index_t substeps = 1) {
  return wavelet_from_sums(shot_wavelet_sums(p, observed, backend, budgets, substeps),
                           record_samples(p.time.nt(), substeps));
}

// The signature of a survey whose every shot holds its data: each shot's sums where the runner runs
// it (on the shot's window, as its gradient runs), added on the fixed tree and broadcast, so every
// process ends with the same bits for any number of processes. Collective over the runner. The
// runner sums tile parts: a shot's sums are one row of tiles (a 1 x 1 x length "model" that every
// part covers whole, so each addition is the dense tree's a + b).
template <class T>
std::vector<double> estimate_survey_wavelet(const Grid& grid, const VelocityModel& model, const Survey& survey,
                                            const SurveyRunOptions& o, ShotRunner& runner) {
  check_one_time_axis(survey);
  const index_t nt = survey.shots.front().time.nt();
  const std::array<index_t, 3> row{1, 1, static_cast<index_t>(wavelet_sum_blocks) * (nt + 1)};
  HostTileBlocks blocks(TileGrid{row});
  const ShotTask task = [&](std::int64_t s, const Progress&) {
    const Shot& shot = survey.shots[static_cast<std::size_t>(s)];
    if (shot.data.empty()) throw InputError(shot.name + ": --estimate-wavelet needs the shot's observed data");
    Problem<T> p = shot_problem<T>(grid, model, shot, shot_window(grid, shot.acquisition, o.aperture));
    const std::vector<T> observed(shot.data.begin(), shot.data.end());
    ShotOutput out;
    const std::vector<double> sums = shot_wavelet_sums(p, observed.data(), o.backend, o.budgets, shot.substeps);
    out.gradient = window_to_tiles(blocks, {0, 0, 0}, row, sums.data(), false);
    return out;
  };
  SurveySum sum = runner.run(static_cast<std::int64_t>(survey.shots.size()), blocks, task);
  std::vector<double> sums = sum.root ? std::move(sum.gradient) : std::vector<double>{};
  runner.broadcast_from_root(sums);
  return wavelet_from_sums(sums, nt);
}

// Every shot of `survey` takes `wavelet` as its signature.
void use_wavelet(Survey& survey, const std::vector<double>& wavelet);

}  // namespace revwave
