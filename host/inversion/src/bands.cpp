#include "revwave/inversion/bands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
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

Survey band_survey(const Survey& survey, double cutoff) {
  if (cutoff == 0) return survey;
  Survey out = survey;
  for (Shot& shot : out.shots) {
    const double nyquist = 0.5 / shot.time.dt;
    if (!(cutoff > 0 && cutoff < nyquist)) {
      throw InputError("--bands: cut-off " + number_text(cutoff) + " Hz is invalid for " + shot.name +
                       ": it must lie in (0, " + number_text(nyquist) + ") Hz, below the Nyquist frequency of dt = " +
                       number_text(shot.time.dt) + " s");
    }
    const ZeroPhaseLowpass filter(cutoff, shot.time.dt, 4);
    const auto nt = static_cast<std::size_t>(shot.time.nt());
    const auto lead = static_cast<std::size_t>(std::ceil(band_lead_periods / (cutoff * shot.time.dt)));
    if (shot.wavelet.empty()) shot.wavelet = ricker_samples(shot.acquisition.f0, shot.acquisition.t0, shot.time.dt, shot.time.nt());
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
