#include "revwave/inversion/bands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/numerics/lowpass.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {
namespace {

// ZeroPhaseLowpass::apply_all, traces shared out over threads: each trace is filtered alone, so the
// values are the same whatever the thread count.
void filter_traces(const ZeroPhaseLowpass& filter, std::vector<double>& d, std::size_t nt, std::size_t traces) {
  const auto n = static_cast<std::int64_t>(traces);
#pragma omp parallel if (n > 8)
  {
    std::vector<double> column(nt);
#pragma omp for schedule(static)
    for (std::int64_t r = 0; r < n; ++r) {
      const auto t = static_cast<std::size_t>(r);
      for (std::size_t k = 0; k < nt; ++k) column[k] = d[k * traces + t];
      filter.apply(column.data(), nt);
      for (std::size_t k = 0; k < nt; ++k) d[k * traces + t] = column[k];
    }
  }
}

}  // namespace

namespace {

void check_cutoff(const Shot& shot, double cutoff) {
  const double nyquist = 0.5 / shot.time.dt;
  if (!(cutoff > 0 && cutoff < nyquist)) {
    throw InputError("--bands: cut-off " + number_text(cutoff) + " Hz is invalid for " + shot.name +
                     ": it must lie in (0, " + number_text(nyquist) +
                     ") Hz, below the Nyquist frequency of dt = " + number_text(shot.time.dt) + " s");
  }
  const double record = shot.time.dt * double(shot.time.steps);
  if (cutoff * record < 1) {
    throw InputError("--bands: cut-off " + number_text(cutoff) + " Hz is invalid for " + shot.name + ": its period " +
                     number_text(1 / cutoff) + " s is longer than the record (" + number_text(record) +
                     " s), which then holds nothing of the band: a cut-off must be at least " +
                     number_text(1 / record) + " Hz");
  }
}

}  // namespace

index_t band_lead(const Shot& shot, double cutoff) {
  check_cutoff(shot, cutoff);
  // cutoff * record >= 1: the lead is at most three records (and a sample), far from overflowing.
  return static_cast<index_t>(std::ceil(band_lead_periods / (cutoff * shot.time.dt)));
}

void check_bands(const Survey& survey, const std::vector<double>& cutoffs) {
  for (double cutoff : cutoffs) {
    std::size_t bytes = 0;
    for (const Shot& shot : survey.shots) {
      const auto samples = static_cast<std::size_t>(band_lead(shot, cutoff) + shot.time.nt());
      const std::size_t traces = shot.acquisition.receivers.size() + 1;  // the data and the wavelet
      bytes = checked_sum(bytes, checked_bytes({samples, traces, sizeof(double)}, "--bands " + number_text(cutoff)),
                          "--bands");
    }
    require_memory(bytes, "the survey low-passed at " + number_text(cutoff) +
                              " Hz (--bands, each shot's record lengthened by "
                              "three periods of the cut-off)");
  }
}

Survey band_survey(const Survey& survey, double cutoff) {
  if (cutoff == 0) return survey;
  Survey out = survey;
  for (Shot& shot : out.shots) {
    const auto lead = static_cast<std::size_t>(band_lead(shot, cutoff));
    const ZeroPhaseLowpass filter(cutoff, shot.time.dt, 4);
    const auto nt = static_cast<std::size_t>(shot.time.nt());
    if (shot.wavelet.empty())
      shot.wavelet = ricker_samples(shot.acquisition.f0, shot.acquisition.t0, shot.time.dt, shot.time.nt());
    std::vector<double> w(lead + nt, 0.0);
    std::copy(shot.wavelet.begin(), shot.wavelet.end(), w.begin() + static_cast<std::ptrdiff_t>(lead));
    filter.apply(w.data(), w.size());
    shot.wavelet = std::move(w);
    const std::size_t traces = shot.data.size() / nt;
    std::vector<double> d((lead + nt) * traces, 0.0);
    std::copy(shot.data.begin(), shot.data.end(), d.begin() + static_cast<std::ptrdiff_t>(lead * traces));
    filter_traces(filter, d, lead + nt, traces);
    if (!shot.data.empty()) shot.data = std::move(d);
    shot.time.steps += static_cast<index_t>(lead);
    shot.name += " (low-passed at " + number_text(cutoff) + " Hz)";
  }
  return out;
}

}  // namespace revwave
