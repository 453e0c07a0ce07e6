// The survey paths of `revwave gradient` and `revwave forward`: many shots, SEG-Y, MPI.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "gradient_job.hpp"
#include "revwave/core/run_clock.hpp"
#include "survey_options.hpp"

namespace revwave::app {

// What `revwave gradient` writes (revwave/setup/run_files.hpp).
using revwave::gradient_outputs;

// Whether a gradient run goes the survey way: a SEG-Y file, a directory or several records, a
// source grid, --aperture, or mpirun.
bool gradient_is_survey(const GradientJobOptions& job, const SurveyOptions& survey);
template <class T>
void run_survey_gradient(GradientJobOptions& job, const Presentation& view, const SurveyOptions& survey,
                         const std::string& out, const std::string& png, const CLI::App& cmd, RunClock& clock);

// Whether a forward run models a survey (every source a shot): --src-grid, a moving spread, a SEG-Y
// output, a directory (a name ending in /), or several --src with an output that is not one .npy record.
bool forward_is_survey(const ProblemOptions& problem, const SurveyOptions& survey, const std::string& out);
// The record a one-shot forward run writes: `out`, with .npy added when it has no ending (InputError
// for an ending that is none of revwave's).
std::string record_path(const std::string& out);
template <class T>
void run_survey_forward(const ProblemOptions& problem, const Presentation& view, const SurveyOptions& survey,
                        const std::string& out, const CLI::App& cmd, RunClock& clock);

}  // namespace revwave::app
