#include "revwave/inversion/inversion_state.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "revwave/core/errors.hpp"
#include "revwave/inversion/fingerprint.hpp"
#include "revwave/io/atomic_file.hpp"

namespace revwave {

std::string to_string(BandEnd reason) {
  switch (reason) {
    case BandEnd::running: return "running";
    case BandEnd::iterations: return "iterations";
    case BandEnd::relative_decrease: return "relative_decrease";
    case BandEnd::line_search_failed: return "line_search_failed";
    case BandEnd::stationary: return "stationary";
  }
  return "unknown";
}

// ---- the state file: "revwave-inversion-state 3\n", a JSON line of the scalars and vector sizes, the
// vectors as little-endian doubles in the order the JSON lists them, and last the XXH3-64 checksum of
// every byte before it (8 bytes, little-endian): a flipped bit anywhere is found before anything is used.
// Format 2 (revwave 0.2.0) is the same with an FNV-1a 64 checksum, a byte at a time: read, and
// rewritten as 3 by the next save. At 256^3 with 5 curvature pairs a state is about 1.9 GB: FNV-1a
// took seconds over it on every save and resume, XXH3 a small fraction of the write.
namespace {

constexpr const char* state_magic = "revwave-inversion-state 3";
constexpr const char* format2_magic = "revwave-inversion-state 2";
constexpr const char* old_magic = "revwave-inversion-state 1";

void put(std::string& out, const std::vector<double>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// Reads the payload in order; every size was checked against the bytes there before.
class Payload {
 public:
  Payload(const std::string& bytes, std::size_t at) : bytes_(bytes), at_(at) {}
  std::vector<double> take(std::size_t n) {
    std::vector<double> v(n);
    if (n == 0) return v;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(double));
    at_ += n * sizeof(double);
    return v;
  }

 private:
  const std::string& bytes_;
  std::size_t at_;
};

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw IoError(path + ": the inversion state is invalid: " + why +
                " (the run directory's state.bin was changed or damaged: "
                "resume from a copy, or start the inversion again)");
}

// A count from the header: an integer in [lo, hi].
std::int64_t count(const nlohmann::json& j, const char* key, std::int64_t lo, std::int64_t hi,
                   const std::string& path) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_integer()) bad(path, std::string("'") + key + "' is not an integer");
  const std::int64_t n = v.get<std::int64_t>();
  if (n < lo || n > hi)
    bad(path, std::string("'") + key + "' is " + std::to_string(n) + ", outside [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
  return n;
}

BandEnd band_end_of(std::int64_t code, bool may_run, const std::string& path) {
  if (code < 0 || code > static_cast<int>(BandEnd::stationary) || (code == 0 && !may_run)) {
    bad(path, "a band's end reason " + std::to_string(code) + " is none of revwave's");
  }
  return static_cast<BandEnd>(code);
}

bool all_finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

// The scalars of the header, each in its range, and the invariants between them.
void read_scalars(const nlohmann::json& j, const std::string& path, InversionState& s) {
  constexpr std::int64_t big = 2147483647;
  if (!j.at("fingerprint").is_string()) bad(path, "'fingerprint' is not a string");
  s.fingerprint = j.at("fingerprint").get<std::string>();
  s.band = static_cast<int>(count(j, "band", 0, big, path));
  s.band_iteration = static_cast<int>(count(j, "band_iteration", 0, big, path));
  s.iteration = static_cast<int>(count(j, "iteration", 0, big, path));
  if (!j.at("band_started").is_boolean()) bad(path, "'band_started' is not a boolean");
  s.band_started = j.at("band_started").get<bool>();
  s.band_end = band_end_of(count(j, "band_end", 0, 4, path), true, path);
  if (!j.at("ended").is_array()) bad(path, "'ended' is not a list");
  for (const nlohmann::json& e : j.at("ended")) {
    if (!e.is_number_integer()) bad(path, "'ended' holds a value that is not an integer");
    s.ended.push_back(band_end_of(e.get<std::int64_t>(), false, path));
  }
  if (static_cast<std::int64_t>(s.ended.size()) != s.band) {
    bad(path, "it is at band " + std::to_string(s.band + 1) + " with " + std::to_string(s.ended.size()) +
                  " bands ended before it");
  }
  if (s.band_iteration > s.iteration)
    bad(path, "band iterations " + std::to_string(s.band_iteration) + " exceed the iterations in all");
  s.optimizer.iteration = static_cast<int>(count(j, "optimizer_iteration", 0, big, path));
  s.optimizer.evaluations = static_cast<int>(count(j, "evaluations", 0, big, path));
}

}  // namespace

std::string encode_inversion_state(const InversionState& s) {
  nlohmann::json j;
  j["fingerprint"] = s.fingerprint;
  j["band"] = s.band;
  j["band_iteration"] = s.band_iteration;
  j["iteration"] = s.iteration;
  j["band_started"] = s.band_started;
  j["band_end"] = static_cast<int>(s.band_end);
  j["ended"] = nlohmann::json::array();
  for (BandEnd e : s.ended) j["ended"].push_back(static_cast<int>(e));
  j["optimizer_iteration"] = s.optimizer.iteration;
  j["evaluations"] = s.optimizer.evaluations;
  j["memory_capacity"] = s.optimizer.memory.capacity();
  j["pairs"] = s.optimizer.memory.size();
  j["n"] = s.model.size();
  j["x"] = s.optimizer.x.size();
  j["diagonal"] = s.diagonal.size();
  std::string out = std::string(state_magic) + "\n" + j.dump() + "\n";
  put(out, {s.optimizer.f});
  put(out, s.model);
  put(out, s.optimizer.x);
  put(out, s.optimizer.g);
  put(out, s.diagonal);
  for (const CurvaturePair& p : s.optimizer.memory.pairs()) {
    put(out, p.s);
    put(out, p.y);
  }
  const std::uint64_t sum = state_checksum(out.data(), out.size());
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>((sum >> (8 * b)) & 0xff));
  return out;
}

InversionState decode_inversion_state(const std::string& bytes, const std::string& path) {
  const std::size_t line = bytes.find('\n');
  const std::string magic = bytes.substr(0, line == std::string::npos ? 0 : line);
  if (magic == old_magic) bad(path, "it was written by an older revwave, without a checksum");
  if (magic != state_magic && magic != format2_magic) throw IoError(path + ": not a revwave inversion state");
  const int format = magic == state_magic ? 3 : 2;
  if (bytes.size() < line + 1 + 8) bad(path, "it is truncated");
  std::uint64_t stored = 0;
  for (int b = 0; b < 8; ++b)
    stored |= std::uint64_t(static_cast<unsigned char>(bytes[bytes.size() - 8 + b])) << (8 * b);
  if (state_checksum(bytes.data(), bytes.size() - 8, format) != stored)
    bad(path, "its checksum does not match its contents");
  const std::size_t end = bytes.find('\n', line + 1);
  if (end == std::string::npos) bad(path, "its header has no end");
  InversionState s;
  s.format = format;
  try {
    const nlohmann::json j = nlohmann::json::parse(bytes.substr(line + 1, end - line - 1));
    read_scalars(j, path, s);
    // Sizes: checked against each other and against the bytes there, before anything is allocated.
    const std::uint64_t payload = bytes.size() - 8 - (end + 1);
    const auto n = static_cast<std::uint64_t>(count(j, "n", 1, std::int64_t(1) << 40, path));
    const auto nx = static_cast<std::uint64_t>(count(j, "x", 0, std::int64_t(1) << 40, path));
    const auto nd = static_cast<std::uint64_t>(count(j, "diagonal", 0, std::int64_t(1) << 40, path));
    const auto capacity = count(j, "memory_capacity", 1, 100, path);
    const auto pairs = static_cast<std::uint64_t>(count(j, "pairs", 0, capacity, path));
    if ((nx != 0 && nx != n) || (nd != 0 && nd != n))
      bad(path, "its vectors' sizes disagree with the model's " + std::to_string(n));
    if (s.band_started && nx == 0) bad(path, "a band that runs has no optimiser state");
    if (nx == 0 && pairs > 0) bad(path, "curvature pairs without an iterate");
    if (payload != 8 * (1 + n + 2 * nx + nd + 2 * pairs * nx)) bad(path, "its size does not match its header");
    Payload p(bytes, end + 1);
    s.optimizer.f = p.take(1).front();
    s.model = p.take(n);
    s.optimizer.x = p.take(nx);
    s.optimizer.g = p.take(nx);
    s.diagonal = p.take(nd);
    std::deque<CurvaturePair> saved;
    for (std::uint64_t k = 0; k < pairs; ++k) {
      CurvaturePair c;
      c.s = p.take(nx);
      c.y = p.take(nx);
      if (!all_finite(c.s) || !all_finite(c.y)) bad(path, "curvature pair " + std::to_string(k) + " is not finite");
      saved.push_back(std::move(c));
    }
    if (!all_finite(s.model) || !all_finite(s.optimizer.x) || !all_finite(s.optimizer.g) || !all_finite(s.diagonal) ||
        (nx > 0 && !std::isfinite(s.optimizer.f))) {
      bad(path, "it holds a value that is not finite");
    }
    for (double d : s.diagonal)
      if (!(d > 0)) bad(path, "its preconditioner holds a value that is not positive");
    s.optimizer.memory = LbfgsMemory(static_cast<int>(capacity));
    s.optimizer.memory.assign(std::move(saved));
  } catch (const nlohmann::json::exception& e) {
    bad(path, std::string("its header cannot be read (") + e.what() + ")");
  }
  return s;
}

std::uint64_t state_checksum(const char* bytes, std::size_t size, int format) {
  return format == 2 ? fnv1a(bytes, size) : xxh3(bytes, size);
}

void save_inversion_state(const std::string& path, const InversionState& s) {
  const std::string bytes = encode_inversion_state(s);
  write_file_atomically(path,
                        [&](std::ostream& os) { os.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

InversionState load_inversion_state(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw IoError(path + ": cannot open the inversion state (" + std::strerror(errno) + ")");
  const std::string bytes{std::istreambuf_iterator<char>(is), std::istreambuf_iterator<char>()};
  return decode_inversion_state(bytes, path);
}

}  // namespace revwave
