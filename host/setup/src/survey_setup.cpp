#include "revwave/setup/survey_setup.hpp"

#include "revwave/setup/option_text.hpp"

#include <cmath>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/sparse_points.hpp"

namespace revwave {
namespace {

void check_wavelet(const std::vector<double>& samples, const std::string& name) {
  if (samples.size() < 2) throw InputError(name + ": a source signature is a 1-D array of at least 2 samples");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i])) throw InputError(name + ": sample " + std::to_string(i) + " is not finite");
  }
  if (all_zero(samples)) {
    throw InputError(name + ": every one of its " + std::to_string(samples.size()) +
                     " samples is zero: a silent source gives zero traces and a zero gradient");
  }
}

// The sampled signature of --wavelet or of the bindings' array; empty when neither.
std::vector<double> given_wavelet(const SurveyOptions& o) {
  if (o.wavelet_samples) {
    check_wavelet(*o.wavelet_samples, "wavelet");
    return *o.wavelet_samples;
  }
  if (!o.wavelet.empty()) return read_wavelet(o.wavelet);
  return {};
}

// Records in memory as a survey, each shot named observed[i].
Survey records_survey(const std::vector<ShotRecord>& records) {
  Survey survey;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ShotRecord& r = records[i];
    Shot shot;
    shot.name = "observed[" + std::to_string(i) + "]";
    shot.acquisition.sources = r.meta.sources;
    shot.acquisition.receivers = r.meta.receivers;
    shot.acquisition.f0 = r.meta.f0;
    shot.acquisition.t0 = r.meta.t0;
    shot.time.dt = r.meta.dt;
    shot.time.steps = r.meta.nt - 1;
    shot.data = r.traces;
    survey.shots.push_back(std::move(shot));
  }
  survey.description = std::to_string(records.size()) + " records given in memory";
  if (survey.shots.empty()) throw InputError("observed: a survey needs at least one shot");
  return survey;
}

}  // namespace

std::array<double, 3> origin_of(const SurveyOptions& o) { return o.origin.value_or(Vec3{0, 0, 0}); }

void refuse_unused_survey_options(const std::vector<std::string>& observed, bool records_given,
                                  const SurveyOptions& o) {
  const bool segy = std::any_of(observed.begin(), observed.end(), [](const std::string& p) { return is_segy_path(p); });
  const bool data = records_given || !observed.empty();
  if (data && o.spread != "fixed") {
    throw InputError("--spread " + o.spread +
                     " lays out a modelled survey's receivers: the observed data bring their own geometry (leave "
                     "--spread out)");
  }
  if (segy) return;
  const SegyReadOptions d;
  const char* given = o.segy.endian != d.endian                         ? "--segy-endian"
                      : o.segy.samples != d.samples                     ? "--segy-samples"
                      : o.segy.units != d.units                         ? "--segy-units"
                      : o.segy.coordinate_scalar != d.coordinate_scalar ? "--segy-coordinate-scalar"
                      : o.segy.elevation_scalar != d.elevation_scalar   ? "--segy-elevation-scalar"
                                                                        : nullptr;
  const std::string what = data ? "the observed data are no SEG-Y file" : "no --observed is given";
  if (given != nullptr) {
    throw InputError(std::string(given) + " applies to SEG-Y --observed files, and " + what + ": leave it out");
  }
  if (o.origin) {
    throw InputError("--origin " + point_text(*o.origin) +
                     " gives the file coordinates of SEG-Y --observed files, and " + what + ": leave it out");
  }
}

std::vector<double> read_wavelet(const std::string& path) {
  const NpyArray a = read_npy(path);
  if (a.shape.size() != 1 || a.shape[0] < 2)
    throw InputError("--wavelet " + path + ": a source signature is a 1-D array of at least 2 samples");
  check_wavelet(a.data, "--wavelet " + path);
  return a.data;
}

void check_aperture(double aperture) {
  if (aperture != -1 && !(std::isfinite(aperture) && aperture >= 0)) {
    throw InputError("--aperture " + number_text(aperture) + " m is invalid: it must be finite and >= 0");
  }
}

void check_aperture_fits(double aperture, const Grid& grid) {
  if (aperture < 0) return;
  const double diagonal =
      std::sqrt(grid.extent(0) * grid.extent(0) + grid.extent(1) * grid.extent(1) + grid.extent(2) * grid.extent(2));
  if (aperture > diagonal) {
    throw InputError("--aperture " + number_text(aperture) +
                     " m is invalid: it must be at most the model's diagonal, " + number_text(diagonal) +
                     " m (a wider aperture gives every shot the whole model: leave --aperture out)");
  }
}

SurveyLayout make_layout(const SurveyOptions& o, const ProblemSetup& setup, const TimeAxis& time, bool sources_given) {
  SurveyLayout l;
  const Grid& g = setup.grid;
  if (o.src_grid && sources_given) {
    throw InputError("--src-grid " + o.src_grid->text() +
                     " and --src both place the survey's sources: give one (--src-grid a shot at each grid "
                     "point, --src a shot at each point)");
  }
  if (o.src_grid) {
    l.sources = grid_layout("--src-grid", *o.src_grid, g).points();
    check_sources_below_free_surface(g, l.sources, "--src-grid source");
    trilinear_points(g, l.sources, "--src-grid source");
  } else {
    l.sources = setup.acquisition.sources;
  }
  l.receivers = setup.acquisition.receivers;
  if (o.spread != "fixed" && o.spread != "moving") {
    throw InputError("--spread " + o.spread + " is invalid: it must be one of fixed, moving");
  }
  l.moving_spread = o.spread == "moving";
  l.spread_centre = {0.5 * g.extent(0), 0.5 * g.extent(1), 0};
  l.f0 = setup.acquisition.f0;
  l.t0 = setup.acquisition.t0;
  l.wavelet = given_wavelet(o);
  l.time = time;
  return l;
}

std::vector<GridLayout> survey_layouts(const SurveyOptions& o, const ProblemSetup& setup) {
  std::vector<GridLayout> layouts;
  if (o.src_grid) layouts.push_back(grid_layout("--src-grid", *o.src_grid, setup.grid));
  layouts.insert(layouts.end(), setup.layouts.begin(), setup.layouts.end());
  return layouts;
}

ObservedSurvey read_observed_survey(const ProblemOptions& problem, bool f0_given,
                                    const std::vector<std::string>& observed, const SurveyOptions& o,
                                    bool estimate_wavelet) {
  if (o.src_grid) throw InputError("--src-grid lays out a modelled survey: the observed data bring their own geometry");
  ObservedSurvey r;
  r.setup = make_survey_setup(problem);
  centre_attenuation_band(problem, r.setup.model, "observed records");
  if (o.observed_records) {
    if (f0_given) throw InputError("--f0: the records carry their wavelets: leave --f0 out");
    r.survey = records_survey(*o.observed_records);
    const std::vector<double> wavelet = given_wavelet(o);  // a sampled signature for every shot, if given
    if (!wavelet.empty()) {
      for (Shot& shot : r.survey.shots) shot.wavelet = wavelet;
    }
    return r;
  }
  SurveyReadOptions ro;
  ro.origin = origin_of(o);
  ro.segy = o.segy;
  if (f0_given) ro.f0 = problem.f0;
  ro.wavelet = given_wavelet(o);
  ro.estimate_wavelet = estimate_wavelet;
  r.survey = read_survey(observed, ro);
  return r;
}

}  // namespace revwave
