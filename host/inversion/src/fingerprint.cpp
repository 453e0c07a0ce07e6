#include "revwave/inversion/fingerprint.hpp"

#include <cstdio>

#define XXH_INLINE_ALL  // header-only: nothing to link, nothing for a downstream project to find
#include <xxhash.h>

namespace revwave {

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t xxh3(const void* data, std::size_t bytes) { return XXH3_64bits(data, bytes); }

struct Hasher::Xxh3 {
  XXH3_state_t state;
};

Hasher::Hasher(HashKind kind) : kind_(kind) {
  if (kind_ == HashKind::xxh3) {
    xxh3_ = std::make_unique<Xxh3>();
    XXH3_64bits_reset(&xxh3_->state);
  }
}

Hasher::~Hasher() = default;

void Hasher::add(const void* data, std::size_t bytes) {
  if (bytes == 0) return;  // an empty vector's data() may be null
  if (kind_ == HashKind::fnv1a)
    fnv_ = fnv1a(data, bytes, fnv_);
  else
    XXH3_64bits_update(&xxh3_->state, data, bytes);
}

std::uint64_t Hasher::value() const { return kind_ == HashKind::fnv1a ? fnv_ : XXH3_64bits_digest(&xxh3_->state); }

std::string inversion_fingerprint(const Grid& g, const VelocityModel& start, const Survey& survey,
                                  const InversionSettings& s, double aperture, const std::string& precision,
                                  HashKind kind) {
  Hasher h(kind);
  h.add(g.shape.data(), sizeof g.shape);
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
  h.add(scalars, sizeof scalars);
  h.add(precision.data(), precision.size());
  // A free surface changes the physics; without one the fingerprint is what it was.
  if (g.free_surface) h.add("free-surface", 12);
  // So does the C-PML (a resume that names another boundary is refused); the sponge adds nothing.
  if (g.cpml) h.add("cpml", 4);
  h.add(s.bands.data(), s.bands.size() * sizeof(double));
  h.add(s.weights.data(), s.weights.size() * sizeof(double));
  h.add(start.velocity.data(), start.velocity.size() * sizeof(double));
  h.add(start.density.data(), start.density.size() * sizeof(double));  // no bytes without a density
  // And the other fixed parameters: epsilon and delta (VTI), Q and its frequencies (none: no bytes).
  h.add(start.epsilon.data(), start.epsilon.size() * sizeof(double));
  h.add(start.delta.data(), start.delta.size() * sizeof(double));
  if (start.has_attenuation()) {
    h.add(start.q.data(), start.q.size() * sizeof(double));
    const double f[] = {start.q_frequency, start.q_f0};
    h.add(f, sizeof f);
  }
  for (const Shot& shot : survey.shots) {
    const double t[] = {shot.time.dt, double(shot.time.steps), shot.acquisition.f0, shot.acquisition.t0};
    h.add(t, sizeof t);
    for (const auto& p : shot.acquisition.sources) h.add(p.data(), sizeof(double) * 3);
    for (const auto& p : shot.acquisition.receivers) h.add(p.data(), sizeof(double) * 3);
    h.add(shot.wavelet.data(), shot.wavelet.size() * sizeof(double));
    h.add(shot.data.data(), shot.data.size() * sizeof(double));
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h.value()));
  return text;
}

}  // namespace revwave
