#include "revwave/setup/wavelet_estimation.hpp"

#include "revwave/core/checks.hpp"

namespace revwave {

std::vector<double> unit_impulse(index_t nt) {
  std::vector<double> w(static_cast<std::size_t>(nt), 0.0);
  w.front() = 1.0;
  return w;
}

void check_one_time_axis(const Survey& survey) {
  const Shot& first = survey.shots.front();
  for (const Shot& shot : survey.shots) {
    if (shot.time.nt() != first.time.nt() || shot.time.dt != first.time.dt) {
      throw InputError("--estimate-wavelet estimates one signature for the survey: " + shot.name +
                       " has nt = " + std::to_string(shot.time.nt()) + ", dt = " + number_text(shot.time.dt) +
                       " s where " + first.name + " has nt = " + std::to_string(first.time.nt()) +
                       ", dt = " + number_text(first.time.dt) + " s");
    }
  }
}

void use_wavelet(Survey& survey, const std::vector<double>& wavelet) {
  for (Shot& shot : survey.shots) shot.wavelet = wavelet;
}

}  // namespace revwave
