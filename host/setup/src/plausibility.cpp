#include "revwave/setup/plausibility.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {
namespace {

bool slowness_representable(double c, Precision precision) {
  const double m = 1.0 / (c * c);
  const double big =
      precision == Precision::float32 ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
  return std::isfinite(m) && m < big;
}

// Four significant digits: enough for a sentence about sampling.
std::string short_text(double v) {
  std::ostringstream os;
  os.precision(4);
  os << v;
  return os.str();
}

const char* units_hint() {
  return "velocities are in m/s (a model in km/s needs multiplying by 1000; one in ft/s by 0.3048)";
}

// Grid points per shortest wavelength that a Laplacian of this order needs for little dispersion:
// 10 for second order, 5 for fourth, 4 for sixth, 3 from eighth (the usual finite-difference rules
// of thumb, at the frequency where the source's spectrum is down to 1%).
double points_needed(int space_order) {
  return space_order <= 2 ? 10.0 : space_order <= 4 ? 5.0 : space_order <= 6 ? 4.0 : 3.0;
}

// |W(f)| of sampled values by a direct sum (the run's own samples, once per run).
double amplitude(const std::vector<double>& w, double dt, double f) {
  std::complex<double> s = 0;
  for (std::size_t n = 0; n < w.size(); ++n) s += w[n] * std::polar(1.0, -2.0 * M_PI * f * dt * double(n));
  return std::abs(s);
}

double sampled_highest_frequency(const std::vector<double>& w, double dt) {
  const std::size_t bins = std::min<std::size_t>(w.size() / 2 + 1, 2048);
  const double nyquist = 0.5 / dt;
  std::vector<double> a(bins);
  double peak = 0;
  for (std::size_t k = 0; k < bins; ++k) {
    a[k] = amplitude(w, dt, nyquist * double(k) / double(bins - 1 ? bins - 1 : 1));
    peak = std::max(peak, a[k]);
  }
  for (std::size_t k = bins; k-- > 0;) {
    if (a[k] >= 0.01 * peak) return nyquist * double(k) / double(bins - 1 ? bins - 1 : 1);
  }
  return 0;
}

// When the source peaks: t0 for a Ricker wavelet, the largest |sample| of a sampled one.
double peak_time(const SourceSpectrum& s, double dt) {
  if (s.samples.empty()) return s.t0;
  std::size_t at = 0;
  for (std::size_t n = 0; n < s.samples.size(); ++n)
    if (std::abs(s.samples[n]) > std::abs(s.samples[at])) at = n;
  return double(at) * dt;
}

}  // namespace

void check_velocity_floor(double velocity, const std::string& option, Precision precision) {
  if (!(velocity < velocity_floor) || !slowness_representable(velocity, precision)) return;
  throw InputError(option + " " + number_text(velocity) + " m/s is below " + number_text(velocity_floor) +
                   " m/s, slower than sound in air or any soil or rock: " + units_hint());
}

void check_velocity_floor(const VelocityModel& model, const std::string& name, Precision precision) {
  if (!model.velocity.empty()) check_velocity_floor(model, min_velocity(model), name, precision);
}

void check_velocity_floor(const VelocityModel& model, double c, const std::string& name, Precision precision) {
  if (!(c < velocity_floor) || !slowness_representable(c, precision)) return;
  // The first point of the slowest velocity, looked for only to name it.
  const auto slowest =
      static_cast<std::size_t>(std::find(model.velocity.begin(), model.velocity.end(), c) - model.velocity.begin());
  const index_t k = static_cast<index_t>(slowest), ny = model.shape[1], nz = model.shape[2];
  throw InputError(name + ": velocity " + number_text(c) + " m/s at point (" + std::to_string(k / (ny * nz)) + ", " +
                   std::to_string((k / nz) % ny) + ", " + std::to_string(k % nz) + ") is below " +
                   number_text(velocity_floor) + " m/s, slower than sound in air or any soil or rock: " + units_hint());
}

double highest_frequency(const SourceSpectrum& source, double dt) {
  if (!source.samples.empty()) return sampled_highest_frequency(source.samples, dt);
  return 2.76 * source.f0;  // (f/f0)^2 exp(1 - (f/f0)^2) = 0.01
}

std::vector<std::string> sampling_warnings(const Grid& grid, double slowest, const SourceSpectrum& source,
                                           const TimeAxis& time, const std::string& where) {
  std::vector<std::string> out;
  // --nbl 0 is a legitimate run (a rigid box), but one a user asking for --boundary cpml or sponge
  // would not expect to get: say so, since the boundary's kind then changes nothing.
  if (grid.nbl == 0) {
    out.push_back(where + "--nbl 0 gives no absorbing layer: every face" +
                  (grid.free_surface ? " but the free surface" : "") +
                  " reflects as a rigid wall, whichever --boundary is named (--nbl 10 is the default)");
  }
  const double fmax = highest_frequency(source, time.dt);
  const std::string wavelet = source.samples.empty() ? "the Ricker wavelet of f0 " + short_text(source.f0) + " Hz"
                                                     : "the sampled source signature";
  if (fmax > 0) {
    const double points = slowest / fmax / grid.spacing, needed = points_needed(grid.space_order);
    if (points < needed) {
      out.push_back(where + "the grid under-samples " + wavelet + ": " + short_text(points) +
                    " points per shortest wavelength (" + short_text(slowest) + " m/s at " + short_text(fmax) +
                    " Hz, spacing " + short_text(grid.spacing) + " m), space order " +
                    std::to_string(grid.space_order) + " needs " + short_text(needed) +
                    ": the waves will disperse (finer --spacing, or " +
                    (source.samples.empty() ? "lower --f0)" : "a signature low-passed below that frequency)"));
    }
    const double nyquist = 0.5 / time.dt;
    if (nyquist < fmax) {
      out.push_back(where + "the time step " + short_text(time.dt) + " s aliases " + wavelet +
                    ": its Nyquist frequency " + short_text(nyquist) + " Hz is below the wavelet's highest frequency " +
                    short_text(fmax) + " Hz (smaller --dt)");
    }
  }
  const double tn = time.dt * double(time.steps), peak = peak_time(source, time.dt);
  if (tn < peak) {
    out.push_back(where + "the record ends at " + short_text(tn) + " s, before " + wavelet + " peaks at " +
                  short_text(peak) + " s: no wave reaches a receiver in full (longer --tn)");
  }
  // The other end: a Ricker wavelet that peaked before the record began (a record's t0 < 0) and has
  // all but passed by t = 0 injects next to nothing, and the traces and the gradient are about zero.
  if (source.samples.empty() && peak < 0) {
    double largest = 0;
    for (index_t n = 0; n < time.steps; ++n)
      largest = std::max(largest, std::abs(ricker_value(double(n) * time.dt, source.f0, source.t0)));
    if (largest < 1e-3) {
      out.push_back(where + wavelet + " peaks at " + short_text(peak) + " s, before the record begins at 0 s: " +
                    (largest == 0 ? std::string("nothing of it is left in the record")
                                  : "what is left of it is at most " + short_text(largest) + " of its peak") +
                    ", so the source injects next to nothing (t0 is the peak's time, 1.5 / f0 by default)");
    }
  }
  return out;
}

std::vector<std::string> surface_receiver_warnings(const Grid& grid, const std::vector<Vec3>& receivers) {
  if (!grid.free_surface) return {};
  std::size_t count = 0, first = 0;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    if (!(receivers[r][2] <= 0)) continue;
    if (count++ == 0) first = r;
  }
  if (count == 0) return {};
  const Vec3& p = receivers[first];
  return {"receiver " + std::to_string(first) + " at (" + short_text(p[0]) + ", " + short_text(p[1]) + ", " +
          short_text(p[2]) + ") m" +
          (count > 1 ? " and " + std::to_string(count - 1) + " more lie" : std::string(" lies")) +
          " on the free surface z = 0, where the pressure is zero: " + (count > 1 ? "they record" : "it records") +
          " zeros (place receivers below it, z > 0)"};
}

std::vector<std::string> survey_warnings(const Grid& grid, double slowest, const Survey& survey) {
  std::vector<std::string> out = survey.warnings;
  for (const Shot& shot : survey.shots) add_warnings(out, surface_receiver_warnings(grid, shot.acquisition.receivers));
  const Shot* previous = nullptr;
  for (const Shot& shot : survey.shots) {
    // Shots usually share their time axis and source: look at each kind once.
    if (previous != nullptr && previous->time.dt == shot.time.dt && previous->time.steps == shot.time.steps &&
        previous->acquisition.f0 == shot.acquisition.f0 && previous->acquisition.t0 == shot.acquisition.t0 &&
        previous->wavelet == shot.wavelet) {
      continue;
    }
    previous = &shot;
    add_warnings(
        out, sampling_warnings(grid, slowest, SourceSpectrum{shot.acquisition.f0, shot.acquisition.t0, shot.wavelet},
                               shot.time));
  }
  return out;
}

void add_warnings(std::vector<std::string>& all, const std::vector<std::string>& more) {
  for (const std::string& w : more)
    if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
}

}  // namespace revwave
