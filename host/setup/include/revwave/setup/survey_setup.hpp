// A survey's set-up from a run's options, shared by the command line and the Python package: its
// shots laid out on the problem's grid (a source grid, a moving spread, a sampled wavelet) or read
// from observed data (SEG-Y, directories of records, records in memory).
#pragma once
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "revwave/io/shot_record.hpp"
#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/plausibility.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// The survey options of forward, gradient and invert (the CLI's long options).
struct SurveyOptions {
  std::optional<Vec3> origin;  // SEG-Y file coordinates (m) of the model's first interior point (unset: 0)
  std::string wavelet;         // sampled source signature, .npy of nt samples
  std::optional<std::vector<double>> wavelet_samples;  // the same given in memory (the bindings')
  std::optional<PointGrid> src_grid;                   // NX x NY sources over the x-y extent, every one a shot
  std::string spread = "fixed";                        // fixed, or moving with the source
  double aperture = -1;                                // m; < 0: every shot on the whole model
  // Observed records given in memory (the bindings') instead of --observed paths.
  std::shared_ptr<const std::vector<ShotRecord>> observed_records;
  SegyReadOptions segy;  // --segy-endian, --segy-samples, --segy-units, --segy-*-scalar (its origin: --origin)
};

// --origin, or (0, 0, 0).
std::array<double, 3> origin_of(const SurveyOptions& o);
// The signature in `path`: a 1-D .npy of at least 2 finite samples.
std::vector<double> read_wavelet(const std::string& path);
// Refuses a survey option the run would ignore (InputError naming it): the --segy-* reading options
// and --origin where no --observed file is SEG-Y (`observed`: the --observed paths; records given in
// memory are none), and a moving --spread beside observed data, which bring their own geometry.
void refuse_unused_survey_options(const std::vector<std::string>& observed, bool records_given, const SurveyOptions& o);
// --aperture: a finite distance >= 0, or -1 (not given).
void check_aperture(double aperture);
// --aperture at most the model's diagonal (a wider one is the whole model for every shot, and its window
// arithmetic would overflow): InputError naming it.
void check_aperture_fits(double aperture, const Grid& grid);
// Every source of the layout, one shot each: --src-grid (at cell centres), else the sources of `setup`
// (--src or the default). --src-grid beside given sources (`sources_given`) is an InputError: one
// of them would be dropped.
SurveyLayout make_layout(const SurveyOptions& o, const ProblemSetup& setup, const TimeAxis& time, bool sources_given);
// Where --src-grid and --rec-grid put their points, for the run's report.
std::vector<GridLayout> survey_layouts(const SurveyOptions& o, const ProblemSetup& setup);

// A survey read from observed data (the `observed` paths, or the records in memory) on the grid and
// model of `problem`, whose own --src/--rec options are ignored (the data bring their geometry);
// --f0 only where it was given; with `estimate_wavelet` a file without a wavelet needs none (its
// data's peak frequency stands in for the checks, SurveyReadOptions::estimate_wavelet).
struct ObservedSurvey {
  ProblemSetup setup;
  Survey survey;
};
ObservedSurvey read_observed_survey(const ProblemOptions& problem, bool f0_given,
                                    const std::vector<std::string>& observed, const SurveyOptions& o,
                                    bool estimate_wavelet = false);

// A survey run's inputs: the grid, the starting model and the survey, with the true model where the
// data are to be modelled.
struct SurveyInputs {
  Grid grid;
  VelocityModel model;
  Survey survey;  // with observed data, or without (modelled in `truth` where each shot runs)
  VelocityModel truth;
  bool has_truth = false;
  std::vector<GridLayout> layouts;    // where --src-grid and --rec-grid put their points
  std::vector<std::string> warnings;  // the survey's readers' and revwave/setup/plausibility.hpp's
};

// The observed data read (--observed, or records in memory), else a survey laid out on the problem
// (--src-grid, --src, --rec...) whose data the true model will give: --true-model, the bindings' true
// model or the built-in one (prepare_gradient_job's rules). For modelled data without --dt, a
// `stable_for` velocity > 0 makes the default time step stable for it too (an inversion may reach it);
// for observed data it chooses the simulation's substeps with the model's velocities (choose_substeps).
template <class T>
SurveyInputs survey_inputs(const GradientJobOptions& o, const SurveyOptions& so, double stable_for = 0) {
  SurveyInputs in;
  if (!o.observed.empty() || so.observed_records) {
    ObservedSurvey read = read_observed_survey(o.problem, o.f0_given, o.observed, so, o.estimate_wavelet);
    in.grid = read.setup.grid;
    in.model = std::move(read.setup.model);
    in.survey = std::move(read.survey);
    in.warnings = survey_warnings(in.grid, min_velocity(in.model), in.survey);
    // The records keep their sample interval; where it is no stable step for the fastest velocity
    // the run may meet, the run takes several steps per sample and resamples (record_resampling.hpp).
    const double fastest = std::max(stable_for, max_velocity(in.model));
    add_warnings(in.warnings, choose_substeps(in.survey, in.grid, fastest, physics_dt_factor(in.grid, in.model)));
    for (const Shot& shot : in.survey.shots)
      refuse_many_record_steps(o.problem, shot.name, shot.time, shot.substeps, fastest);
    return in;
  }
  GradientJob<T> single = prepare_gradient_job<T>(o);
  in.grid = single.start.grid;
  in.model = single.start.model;
  in.truth = single.truth;
  in.has_truth = true;
  TimeAxis time = single.time;
  if (stable_for > 0 && !o.problem.dt) {
    time =
        make_time(o.problem, single.start.grid, std::max({stable_for, max_velocity(in.truth), max_velocity(in.model)}),
                  physics_dt_factor(in.grid, in.model));
  }
  in.survey = layout_survey(make_layout(so, single.start, time, o.problem.sources.has_value()), in.grid);
  in.survey.description = "modelled in the true model, " + in.survey.description;
  in.layouts = survey_layouts(so, single.start);
  in.warnings = survey_warnings(in.grid, std::min(min_velocity(in.model), min_velocity(in.truth)), in.survey);
  return in;
}

}  // namespace revwave
