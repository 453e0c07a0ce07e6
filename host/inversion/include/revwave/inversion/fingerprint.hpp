// What an inversion inverts, as 16 hex digits: a resumed run must be the run that began.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "revwave/inversion/inversion_settings.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// A 64-bit FNV-1a hash of bytes, for fingerprints.
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 14695981039346656037ull);

// The grid, the settings, the aperture (m) and precision, the starting model, and every shot's time
// axis, wavelet, geometry and data, hashed bit for bit.
std::string inversion_fingerprint(const Grid& grid, const VelocityModel& start, const Survey& survey,
                                  const InversionSettings& settings, double aperture, const std::string& precision);

}  // namespace revwave
