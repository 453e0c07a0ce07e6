// Everything an inversion needs to continue exactly where it stopped, and its file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "revwave/optim/projected_lbfgs.hpp"

namespace revwave {

enum class BandEnd { running, iterations, relative_decrease, line_search_failed, stationary };
std::string to_string(BandEnd reason);

struct InversionState {
  int format = 4;             // of the file it was read from: 2 (revwave 0.2.0: FNV-1a), 3 or 4 (XXH3); written as 4
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

// The state as files (format 4, see inversion_state.cpp): `state.bin` (bit-exact doubles and a
// checksum of every byte) and the vector files it names in `state.d/` beside it (each curvature pair
// and the band's preconditioner, named by the hash of their bytes, written once). A save writes the
// vector files state.d lacks, then state.bin, each atomically (fsync, rename; inside an
// OutputTransaction all are renamed at its commit, in that order), and returns the names state.bin
// holds; remove_unused_state_files then removes the others, once the save is in place.
std::vector<std::string> save_inversion_state(const std::string& path, const InversionState& state);
void remove_unused_state_files(const std::string& path, const std::vector<std::string>& kept);
// Read back with checks: every file's checksum, every count in its range, the sizes against each
// other and against the files, every value finite. A state that fails one is an IoError naming
// `path` and the rule; nothing of it is used. Formats 3 and 2 (one file) are read too.
InversionState load_inversion_state(const std::string& path);

// The same as bytes (the tests' and fuzzers' way in): state.bin's bytes and its vector files' by name.
struct StateFiles {
  std::string state;
  std::map<std::string, std::string> vectors;
};
// A vector file's bytes by its name (16 hex digits); nothing where there is none.
using VectorFileReader = std::function<std::optional<std::string>(const std::string& name)>;
StateFiles encode_inversion_state(const InversionState& state);
InversionState decode_inversion_state(const std::string& bytes, const std::string& path,
                                      const VectorFileReader& read = {});
InversionState decode_inversion_state(const StateFiles& files, const std::string& path);
// The checksum a state file of `format` ends with, over the bytes before it.
std::uint64_t state_checksum(const char* bytes, std::size_t size, int format = 3);

}  // namespace revwave
