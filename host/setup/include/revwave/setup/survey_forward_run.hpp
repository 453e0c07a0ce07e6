// A survey's shot records from a run's options (`revwave forward --src-grid ...`,
// `revwave.forward_survey`): every source a shot, modelled shot after shot, and written as one
// SEG-Y file, one record or a new directory of records; with the fields of its JSON summary.
#pragma once
#include <array>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "revwave/core/progress.hpp"
#include "revwave/setup/run_files.hpp"
#include "revwave/setup/survey_setup.hpp"

namespace revwave {

// Where the records go, by the output's name: none (kept in memory), FILE.sgy / FILE.segy, FILE.npy
// (one shot) or a new directory (a name without an ending, or ending in /); any other ending is an
// InputError naming these.
enum class SurveyFormat { none, segy, record, directory };
SurveyFormat survey_format(const std::string& out);
bool is_npy_path(const std::string& path);  // ends in .npy (any case)

struct SurveyForwardRun {
  BackendChoice backend;
  ProblemSetup setup;
  TimeAxis time;
  Survey survey;                   // every shot with its data, checked finite
  std::array<double, 3> origin{};  // SEG-Y: file coordinates of the model's first interior point
  SurveyFormat format = SurveyFormat::none;
  double step_seconds = 0;            // the time loops
  std::vector<GridLayout> layouts;    // where --src-grid and --rec-grid put their points
  std::vector<std::string> warnings;  // revwave/setup/plausibility.hpp
};

// Sets the survey up for `out`'s format (SEG-Y keeps whole microseconds: the default dt is rounded
// down to one, a given one must be one; the shots are modelled at the positions the file will hold)
// and models every shot. `shots_done` counts shots. Before anything is computed, `out` (and its
// sidecar, for one record) with `more_outputs` (the CLI's configuration) is checked against the
// run's inputs with `more_inputs` (check_run_outputs), and a directory of records must be new.
template <class T>
SurveyForwardRun run_survey_forward_job(const ProblemOptions& o, const SurveyOptions& so, const std::string& out,
                                        const Progress& shots_done = {},
                                        const std::vector<NamedPath>& more_outputs = {},
                                        const std::vector<NamedPath>& more_inputs = {});

// Writes the records to `out` in its format, in the run's precision, together with what
// `also_write` writes (the CLI's configuration): all of it appears, or none. A directory is built
// under a temporary name and renamed when complete; it must not exist.
void write_survey_records(const SurveyForwardRun& run, const std::string& out, Precision precision,
                          const std::function<void()>& also_write = {});

// The fields of `revwave forward --json` over a survey that describe the run (not its files, nor
// the total time).
nlohmann::json survey_forward_summary(const SurveyForwardRun& run, const SurveyOptions& so, Precision precision);

}  // namespace revwave
