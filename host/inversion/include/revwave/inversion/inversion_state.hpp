// Everything an inversion needs to continue exactly where it stopped, and its file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {

enum class BandEnd { running, iterations, relative_decrease, line_search_failed, stationary };
std::string to_string(BandEnd reason);

struct InversionState {
  int format = 3;             // of the file it was read from: 2 (revwave 0.2.0: FNV-1a) or 3 (XXH3); written as 3
  std::string fingerprint;    // what the run inverts (grid, data, start, settings), hashed as `format` says:
                              // resume refuses another
  int band = 0;               // the band running (or next, after the last one ended)
  int band_iteration = 0;     // iterations completed in this band
  int iteration = 0;          // iterations completed in all
  bool band_started = false;  // `optimizer` and `diagonal` belong to this band (else to the band that ended last,
                              // so that more --iterations can take it further)
  BandEnd band_end = BandEnd::running;
  std::vector<BandEnd> ended;  // how each finished band ended
  OptimizerState optimizer;
  std::vector<double> diagonal;  // D of this band (empty: none)
  std::vector<double> model;     // the latest velocity (between bands: the next band's start)
};

// The state as one binary file (bit-exact doubles and a checksum of every byte), written atomically;
// read back with checks: the checksum, every count in its range, the sizes against each other and
// against the file, every value finite. A state that fails one is an IoError naming `path` and the
// rule; nothing of it is used.
void save_inversion_state(const std::string& path, const InversionState& state);
InversionState load_inversion_state(const std::string& path);
// The same as bytes (the fuzzers' way in): encode, and decode with every check.
std::string encode_inversion_state(const InversionState& state);
InversionState decode_inversion_state(const std::string& bytes, const std::string& path);
// The checksum a state file of `format` ends with, over the bytes before it.
std::uint64_t state_checksum(const char* bytes, std::size_t size, int format = 3);

}  // namespace revwave
