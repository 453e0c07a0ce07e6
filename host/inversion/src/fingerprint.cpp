#include "revwave/inversion/fingerprint.hpp"

#include <cstdio>

namespace revwave {

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::string inversion_fingerprint(const Grid& g, const VelocityModel& start, const Survey& survey,
                                  const InversionSettings& s, double aperture, const std::string& precision) {
  std::uint64_t h = fnv1a(g.shape.data(), sizeof g.shape);
  const double scalars[] = {g.spacing,
                            double(g.nbl),
                            double(g.space_order),
                            s.vmin,
                            s.vmax,
                            double(s.lbfgs_memory),
                            s.tolerance,
                            s.first_step,
                            double(s.max_evaluations),
                            double(s.illumination),
                            s.smooth,
                            aperture};
  h = fnv1a(scalars, sizeof scalars, h);
  h = fnv1a(precision.data(), precision.size(), h);
  h = fnv1a(s.bands.data(), s.bands.size() * sizeof(double), h);
  h = fnv1a(s.weights.data(), s.weights.size() * sizeof(double), h);
  h = fnv1a(start.velocity.data(), start.velocity.size() * sizeof(double), h);
  h = fnv1a(start.density.data(), start.density.size() * sizeof(double), h);  // no bytes without a density
  for (const Shot& shot : survey.shots) {
    const double t[] = {shot.time.dt, double(shot.time.steps), shot.acquisition.f0, shot.acquisition.t0};
    h = fnv1a(t, sizeof t, h);
    for (const auto& p : shot.acquisition.sources) h = fnv1a(p.data(), sizeof(double) * 3, h);
    for (const auto& p : shot.acquisition.receivers) h = fnv1a(p.data(), sizeof(double) * 3, h);
    h = fnv1a(shot.wavelet.data(), shot.wavelet.size() * sizeof(double), h);
    h = fnv1a(shot.data.data(), shot.data.size() * sizeof(double), h);
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace revwave
