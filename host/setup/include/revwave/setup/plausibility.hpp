// Whether a run's numbers describe a physical problem. Velocities below a floor are refused (a
// model in km/s is the usual cause); a grid too coarse for the wavelet, a time step that aliases it
// and records that end before the wavelet's peak are run, each with one warning sentence, which the
// front ends print on stderr (Python: warnings.warn) and list in their JSON as "warnings".
#pragma once
#include <string>
#include <vector>

#include "revwave/core/choices.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// 100 m/s: slower than sound in air (343 m/s) and than any P-wave speed reported for soils (loose dry
// sand, about 150 m/s), yet ten times faster than any velocity written in km/s (at most about 8).
inline constexpr double velocity_floor = 100.0;  // m/s

// InputError naming the slowest point of `model` (`name`: "--model FILE", "the true model") when it
// is below the floor, with the hint about units. A velocity whose slowness 1/c^2 is not even a number
// of `precision` is left to the stencil's range check, which names that.
void check_velocity_floor(const VelocityModel& model, const std::string& name, Precision precision);
// The same where the model's slowest velocity `slowest` is known (a non-empty model).
void check_velocity_floor(const VelocityModel& model, double slowest, const std::string& name, Precision precision);
// The same for one velocity given as an option ("--velocity", "--vmin").
void check_velocity_floor(double velocity, const std::string& option, Precision precision);

// The source as far as sampling is concerned: a Ricker wavelet of peak frequency f0 delayed by t0,
// or sampled values (then f0 is unused).
struct SourceSpectrum {
  double f0 = 0, t0 = 0;
  std::vector<double> samples;  // on the run's time axis
};

// The highest frequency of the source: where its amplitude spectrum falls below 1% of its peak for
// good (2.76 f0 for a Ricker wavelet).
double highest_frequency(const SourceSpectrum& source, double dt);

// One sentence per problem: no absorbing layer (--nbl 0), fewer grid points per shortest wavelength (slowest velocity over the
// highest frequency) than the space order needs, a Nyquist frequency below the highest frequency, a
// record that ends before the source's peak. `where` prefixes each ("shot 3: "), empty for one shot.
std::vector<std::string> sampling_warnings(const Grid& grid, double slowest, const SourceSpectrum& source,
                                           const TimeAxis& time, const std::string& where = "");

// The same over a survey's shots (each with its own time axis and source), each sentence once, and
// the survey's own (what its SEG-Y reader overrode).
std::vector<std::string> survey_warnings(const Grid& grid, double slowest, const Survey& survey);

// Under a free surface the pressure at z = 0 is zero: a receiver there (or above) records zeros, and
// its residual adds nothing to a gradient. Not refused (a surface receiver is a legitimate, if
// silent, position), said: one sentence naming the first and how many. Empty without a free surface.
std::vector<std::string> surface_receiver_warnings(const Grid& grid, const std::vector<Vec3>& receivers);

// Appends `more` to `all`, each sentence once (a survey's shots usually share their warnings).
void add_warnings(std::vector<std::string>& all, const std::vector<std::string>& more);

}  // namespace revwave
