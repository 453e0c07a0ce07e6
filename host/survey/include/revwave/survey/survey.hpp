// A survey: shots on one model grid, each with its sources, receivers, time axis, wavelet and data.
// J(m) = sum over shots of J_s(m); g = sum of g_s. Read from SEG-Y or from .npy + sidecar records.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "revwave/io/segy.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

struct Shot {
  std::string name;         // where it came from, for messages: "survey.sgy shot 3 (FieldRecord 4)"
  Acquisition acquisition;  // metres from the model's first interior point; f0, t0 of the Ricker wavelet
  TimeAxis time;            // of its data
  // Simulation steps per sample of its data: the run steps dt / substeps and resamples its traces to
  // the data's samples (revwave/misfit/record_resampling.hpp); 1: it steps the data's dt.
  index_t substeps = 1;
  std::vector<double> wavelet;  // a sampled source signature, nt samples; empty: the Ricker wavelet (f0, t0)
  std::vector<double> data;     // observed, (nt, nrec) C order; empty until modelled
  std::vector<std::int64_t> trace_numbers;  // SEG-Y: each receiver's trace in the file
};

struct Survey {
  std::vector<Shot> shots;
  std::string description;            // "survey.sgy: 8 shots grouped by FieldRecord", for reports
  std::vector<std::string> warnings;  // what its readers overrode (SEG-Y headers), one sentence each
};

struct SurveyReadOptions {
  std::array<double, 3> origin{0, 0, 0};  // SEG-Y: file coordinates of the model's first interior point
  double f0 = 0;                          // Ricker f0 for files that carry no wavelet (0: not given)
  std::vector<double> wavelet;            // a sampled signature for every shot (empty: not given)
  SegyReadOptions segy;                   // SEG-Y: header overrides (its origin is `origin` above)
  // --estimate-wavelet: the signature will be estimated from the data, so a file that carries no
  // wavelet needs no f0; its data's peak frequency stands in for it in the checks (a warning says so).
  bool estimate_wavelet = false;
};

// Reads each path in turn (a SEG-Y file, a .npy record with its sidecar, or a directory of such
// records taken in name order) and concatenates their shots. Where the source comes from: a
// sampled `wavelet` when given (every shot; it must have the shot's nt samples), else the file's own
// (sidecar, or the Ricker stamp of a SEG-Y file revwave wrote), else `f0`; a given f0 that contradicts
// the file's, or a file without any (unless the wavelet is estimated), is an InputError.
Survey read_survey(const std::vector<std::string>& paths, const SurveyReadOptions& options = {});

// Checks every shot against the model before any work: sources and receivers inside the grid (the
// message names the shot, the point and its SEG-Y trace), nt >= 2, data and wavelet sizes, the
// simulation's step stable for the model. InputError on the first violation.
void check_survey(const Survey& survey, const Grid& grid, const VelocityModel& model);

// The run's time axis for a shot: substeps steps of dt / substeps per sample of its data (and past
// the data's last sample with substeps > 1: record_resampling.hpp).
TimeAxis simulation_time(const Shot& shot);
// The same for data on `data`'s axis run in `substeps` steps a sample (a single record's too).
TimeAxis simulation_time(const TimeAxis& data, index_t substeps);
// Its sampled signature on those steps (band-limited interpolation; empty for the Ricker wavelet,
// which the run samples itself).
std::vector<double> simulation_wavelet(const Shot& shot);
// The fewest simulation steps per sample of dt that are stable for max_velocity: 1 when dt itself is
// (the data's dt is kept), else ceil(dt / default step), the default step 0.9 of the limit. A dt below
// 1e-6 of the limit, or one that would take a million steps, is an InputError naming `record`.
index_t stable_substeps(double dt, const Grid& grid, double max_velocity, double physics_factor,
                        const std::string& record);
// What the run's warnings say of records sampled every dt and simulated in `substeps` steps each.
std::string substeps_sentence(double dt, index_t substeps, double max_velocity);
// Gives every shot the substeps that make its run stable for max_velocity (an inversion's --vmax, or
// the model's fastest); one sentence per distinct choice for the run's warnings (none where every shot
// steps its data's dt).
std::vector<std::string> choose_substeps(Survey& survey, const Grid& grid, double max_velocity, double physics_factor);

// A survey on a fixed geometry: `sources` one shot each (or, with one_shot, all at once), receivers
// shared or moving with the source (`spread_offsets` added to each source's x, y: points outside the
// grid are dropped, a shot left without receivers is an InputError). No data yet.
struct SurveyLayout {
  std::vector<Vec3> sources;
  std::vector<Vec3> receivers;  // fixed spread
  bool moving_spread = false;   // receivers[i] - spread_centre + source (x, y only)
  Vec3 spread_centre{0, 0, 0};
  double f0 = 0, t0 = 0;
  std::vector<double> wavelet;
  TimeAxis time;
};
Survey layout_survey(const SurveyLayout& layout, const Grid& grid);

// The SEG-Y form of a survey whose every shot has one source and data (InputError otherwise); and
// a survey from a SEG-Y form (shots named after `path`).
SegySurvey to_segy(const Survey& survey);
void from_segy(const SegySurvey& segy, const std::string& path, Survey& out);

}  // namespace revwave
