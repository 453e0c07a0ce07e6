#include "revwave/numerics/vti/vti_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

// The largest eigenvalue of [[a E, sqrt(a) S], [sqrt(a) S, 1]], a = D - 1.
double pair_eigenvalue(double a, double e, double s) {
  const double tr = a * e + 1.0;
  const double diff = a * e - 1.0;
  return 0.5 * (tr + std::sqrt(diff * diff + 4.0 * a * s * s));
}

}  // namespace

void validate_vti(const VelocityModel& model) {
  const std::size_t n = model.velocity.size();
  if (model.epsilon.size() != n || model.delta.size() != n) {
    throw InputError("epsilon has " + std::to_string(model.epsilon.size()) + " values and delta " +
                     std::to_string(model.delta.size()) + ", the model's shape needs " + std::to_string(n) +
                     " each: give both (a constant fills the model)");
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double e = model.epsilon[i], d = model.delta[i];
    std::ostringstream os;
    os.precision(9);
    if (!(std::isfinite(e) && std::abs(e) <= max_thomsen)) {
      os << "epsilon " << e << " at " << point_text(model, i) << " is invalid: epsilon must be finite and within +-"
         << max_thomsen;
    } else if (!(std::isfinite(d) && std::abs(d) <= max_thomsen && d > -0.5)) {
      os << "delta " << d << " at " << point_text(model, i)
         << " is invalid: delta must be finite, above -0.5 and at most " << max_thomsen;
    } else if (e < d) {
      os << "epsilon " << e << " < delta " << d << " at " << point_text(model, i)
         << ": the pseudo-acoustic VTI equation is unstable where epsilon < delta; give epsilon >= delta";
    } else {
      continue;
    }
    throw InputError(os.str());
  }
}

template <class T>
VtiFields make_vti_fields(const Grid& grid, const std::vector<double>& epsilon, const std::vector<double>& delta) {
  VtiFields f;
  f.c1 = padded_interior_values<T>(grid, epsilon, [](double e) { return 2.0 * e; });
  f.c2 = padded_interior_values<T>(grid, delta, [](double d) { return std::sqrt(1.0 + 2.0 * d) - 1.0; });
  return f;
}

template <class T>
VtiFields make_vti_fields(const Grid& grid, const VelocityModel& model) {
  validate_vti(model);
  return make_vti_fields<T>(grid, model.epsilon, model.delta);
}

double vti_dt_factor(const Grid& grid, const VelocityModel& model) {
  if (!model.has_anisotropy()) return 1.0;
  validate_vti(model);
  const double dims = grid.dimensions();
  double worst = 0;  // max lambda, whatever the velocity there: the factor holds for any velocity up to
                     // the bound's (an inversion moves them up to --vmax)
  for (std::size_t i = 0; i < model.velocity.size(); ++i) {
    const double e = 1.0 + 2.0 * model.epsilon[i], s = std::sqrt(1.0 + 2.0 * model.delta[i]);
    worst = std::max(worst, pair_eigenvalue(dims - 1.0, e, s));
  }
  if (!(worst > 0)) return 1.0;
  return std::min(1.0, std::sqrt(dims / worst));
}

template VtiFields make_vti_fields<float>(const Grid&, const VelocityModel&);
template VtiFields make_vti_fields<double>(const Grid&, const VelocityModel&);
template VtiFields make_vti_fields<float>(const Grid&, const std::vector<double>&, const std::vector<double>&);
template VtiFields make_vti_fields<double>(const Grid&, const std::vector<double>&, const std::vector<double>&);

}  // namespace revwave
