// What an inversion inverts, as 16 hex digits: a resumed run must be the run that began.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "revwave/inversion/inversion_settings.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave {

// The 64-bit hashes of fingerprints and state files. xxh3 (XXH3-64 of xxHash, several GB/s) since
// state format 3; fnv1a (64-bit FNV-1a, a byte at a time) for the states of format 2 that revwave
// 0.2.0 wrote, read and resumed as they were.
enum class HashKind { xxh3, fnv1a };

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 14695981039346656037ull);
std::uint64_t xxh3(const void* data, std::size_t bytes);

// A hash over pieces added in order (the pieces' boundaries do not matter).
class Hasher {
 public:
  explicit Hasher(HashKind kind);
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  void add(const void* data, std::size_t bytes);
  std::uint64_t value() const;

 private:
  HashKind kind_;
  std::uint64_t fnv_ = 14695981039346656037ull;
  struct Xxh3;
  std::unique_ptr<Xxh3> xxh3_;
};

// The grid, the settings, the aperture (m) and precision, the starting model, and every shot's time
// axis, wavelet, geometry and data, hashed bit for bit.
std::string inversion_fingerprint(const Grid& grid, const VelocityModel& start, const Survey& survey,
                                  const InversionSettings& settings, double aperture, const std::string& precision,
                                  HashKind kind = HashKind::xxh3);

}  // namespace revwave
