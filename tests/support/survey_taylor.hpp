// A Taylor test of a survey's objective: J(m + h dm) by forward modelling alone (survey_misfit, on
// the same windows) at h = 1, 1/2, ..., 1/32 against J(m) and <g, dm> of a survey gradient, and the
// rate at which the second-order remainder falls (2 where g is J's gradient).
#pragma once
#include <cmath>
#include <vector>

#include "revwave/driver/verification.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave::testing {

struct SurveyTaylor {
  std::vector<double> h, remainder;  // |J(m + h dm) - J(m) - h <g, dm>|
  double rate = 0;                   // log-log slope of the remainder in h
};

inline SurveyTaylor survey_taylor(const Grid& grid, const VelocityModel& model, const Survey& survey, double aperture,
                                  const SurveySum& g, const std::vector<double>& dm) {
  double directional = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) directional += g.gradient[i] * dm[i];
  SurveyTaylor t;
  double h = 1.0;
  for (int k = 0; k <= 5; ++k, h *= 0.5) {
    const double j = survey_misfit<double>(grid, perturbed_model(model, dm, h), survey, aperture);
    t.h.push_back(h);
    t.remainder.push_back(std::abs(j - g.objective - h * directional));
  }
  t.rate = log_log_slope(t.h, t.remainder);
  return t;
}

}  // namespace revwave::testing
