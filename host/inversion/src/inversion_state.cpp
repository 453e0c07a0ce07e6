#include "revwave/inversion/inversion_state.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

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

// ---- the state files. Format 4 (written now): `state.bin` is "revwave-inversion-state 4\n", a JSON
// line of the counters, the vector sizes and the names of the vector files, then f, the model (left
// out when it is x bit for bit, as it is after every iteration), x and g as little-endian doubles,
// and last the XXH3-64 checksum of every byte before it (8 bytes, little-endian). Each curvature
// pair and the band's preconditioner are files of their own in `state.d/` beside it, written once:
// "revwave-inversion-vectors 1\n", a JSON line {"vectors", "n"}, the doubles, and their XXH3-64,
// whose 16 hex digits are the file's name. A pair lives for `memory` iterations and a preconditioner
// for a band, so a save after an iteration writes x, g and the newest pair (4 vectors of the
// model's size; 5 with a band's new preconditioner) where format 3 wrote the model, x, g, D and
// every pair (14 with 5 pairs: about 1.9 GB at 256^3).
// Formats 3 (revwave 0.3: one file, the same header without file names, then f, model, x, g, D and
// the pairs) and 2 (revwave 0.2.0: format 3 sealed with FNV-1a, a byte at a time) are read, and
// rewritten as 4 by the next save.
namespace {

constexpr const char* state_magic = "revwave-inversion-state 4";
constexpr const char* format3_magic = "revwave-inversion-state 3";
constexpr const char* format2_magic = "revwave-inversion-state 2";
constexpr const char* old_magic = "revwave-inversion-state 1";
constexpr const char* vectors_magic = "revwave-inversion-vectors 1";

// Bytes out to a stream, or only hashed (which names a vector file before it is written). A vector
// file's bytes are hashed once, when it is named: `hashing` false writes them without hashing again.
class Emitter {
 public:
  explicit Emitter(std::ostream* os, bool hashing = true) : hash_(HashKind::xxh3), os_(os), hashing_(hashing) {}
  void put(const void* data, std::size_t bytes) {
    if (bytes == 0) return;  // an empty vector's data() may be null
    if (hashing_) hash_.add(data, bytes);
    if (os_ != nullptr) os_->write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  }
  void put(const std::string& text) { put(text.data(), text.size()); }
  void put(const std::vector<double>& v) { put(v.data(), v.size() * sizeof(double)); }
  std::uint64_t sum() const { return hash_.value(); }  // of everything put
  // Appends the checksum that ends every file (8 bytes, little-endian).
  void seal(std::uint64_t sum) {
    char b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<char>((sum >> (8 * k)) & 0xff);
    if (os_ != nullptr) os_->write(b, 8);
  }

 private:
  Hasher hash_;
  std::ostream* os_;
  bool hashing_;
};

std::uint64_t stored_checksum(const std::string& bytes) {
  std::uint64_t stored = 0;
  for (int b = 0; b < 8; ++b)
    stored |= std::uint64_t(static_cast<unsigned char>(bytes[bytes.size() - 8 + b])) << (8 * b);
  return stored;
}

std::string hex16(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

bool is_vector_file_name(const std::string& name) {
  return name.size() == 16 &&
         std::all_of(name.begin(), name.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A vector file's vectors (a curvature pair's s and y, or a preconditioner), named by their hash.
struct VectorFile {
  std::vector<const std::vector<double>*> vectors;
  std::uint64_t sum = 0;  // the XXH3-64 of its bytes before the checksum
  std::string name;       // hex16(sum)
};

void emit_vectors(Emitter& e, const VectorFile& f) {
  nlohmann::json j;
  j["vectors"] = f.vectors.size();
  j["n"] = f.vectors.front()->size();
  e.put(std::string(vectors_magic) + "\n" + j.dump() + "\n");
  for (const std::vector<double>* v : f.vectors) e.put(*v);
}

VectorFile vector_file(std::vector<const std::vector<double>*> vectors) {
  VectorFile f{std::move(vectors), 0, {}};
  Emitter hashed(nullptr);
  emit_vectors(hashed, f);
  f.sum = hashed.sum();
  f.name = hex16(f.sum);
  return f;
}

// A vector file's bytes, sealed with the hash that named it.
void write_vector_file(std::ostream& os, const VectorFile& f) {
  Emitter e(&os, false);
  emit_vectors(e, f);
  e.seal(f.sum);
}

// What a save writes: state.bin's parts, and the vector files it names.
struct StateLayout {
  bool model_is_x = false;
  std::vector<VectorFile> files;  // the preconditioner first (when there is one), then the pairs, oldest first
  bool has_diagonal = false;
};

StateLayout layout_of(const InversionState& s) {
  StateLayout l;
  const std::vector<double>& x = s.optimizer.x;
  l.model_is_x =
      !x.empty() && x.size() == s.model.size() && std::memcmp(x.data(), s.model.data(), x.size() * sizeof(double)) == 0;
  l.has_diagonal = !s.diagonal.empty();
  if (l.has_diagonal) l.files.push_back(vector_file({&s.diagonal}));
  for (const CurvaturePair& p : s.optimizer.memory.pairs()) l.files.push_back(vector_file({&p.s, &p.y}));
  return l;
}

void emit_state(Emitter& e, const InversionState& s, const StateLayout& l) {
  nlohmann::json j;
  j["fingerprint"] = s.fingerprint;
  j["band"] = s.band;
  j["band_iteration"] = s.band_iteration;
  j["iteration"] = s.iteration;
  j["band_started"] = s.band_started;
  j["band_end"] = static_cast<int>(s.band_end);
  j["ended"] = nlohmann::json::array();
  for (BandEnd b : s.ended) j["ended"].push_back(static_cast<int>(b));
  j["optimizer_iteration"] = s.optimizer.iteration;
  j["evaluations"] = s.optimizer.evaluations;
  j["memory_capacity"] = s.optimizer.memory.capacity();
  j["pairs"] = s.optimizer.memory.size();
  j["n"] = s.model.size();
  j["x"] = s.optimizer.x.size();
  j["diagonal"] = s.diagonal.size();
  j["model_is_x"] = l.model_is_x;
  j["diagonal_file"] = l.has_diagonal ? l.files.front().name : "";
  j["pair_files"] = nlohmann::json::array();
  for (std::size_t k = l.has_diagonal ? 1 : 0; k < l.files.size(); ++k) j["pair_files"].push_back(l.files[k].name);
  e.put(std::string(state_magic) + "\n" + j.dump() + "\n");
  e.put(&s.optimizer.f, sizeof(double));
  if (!l.model_is_x) e.put(s.model);
  e.put(s.optimizer.x);
  e.put(s.optimizer.g);
}

void write_state_file(std::ostream& os, const InversionState& s, const StateLayout& l) {
  Emitter e(&os);
  emit_state(e, s, l);
  e.seal(e.sum());
}

std::string vector_dir(const std::string& state_path) {
  return (std::filesystem::path(state_path).parent_path() / "state.d").string();
}

std::string vector_path(const std::string& state_path, const std::string& name) {
  return vector_dir(state_path) + "/" + name + ".bin";
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

// A vector file's vectors, checked against its checksum, its name and what the state says it holds.
std::vector<std::vector<double>> read_vectors(const std::optional<std::string>& file, const std::string& name,
                                              std::size_t vectors, std::size_t n, const std::string& path,
                                              const std::string& what) {
  const std::string where = what + " (state.d/" + name + ".bin)";
  if (!file) bad(path, where + " is missing");
  const std::string& bytes = *file;
  const std::size_t line = bytes.find('\n');
  if (line == std::string::npos || bytes.compare(0, line, vectors_magic) != 0)
    bad(path, where + " is not a revwave vector file");
  if (bytes.size() < line + 1 + 8) bad(path, where + ": its checksum does not match its contents");
  const std::uint64_t stored = stored_checksum(bytes);
  if (xxh3(bytes.data(), bytes.size() - 8) != stored) bad(path, where + ": its checksum does not match its contents");
  if (hex16(stored) != name)
    bad(path, where + " is not the file the state names (its checksum is " + hex16(stored) + ")");
  const std::size_t end = bytes.find('\n', line + 1);
  if (end == std::string::npos) bad(path, where + ": its header has no end");
  const nlohmann::json j = nlohmann::json::parse(bytes.substr(line + 1, end - line - 1));
  if (static_cast<std::size_t>(count(j, "vectors", 1, 2, path)) != vectors ||
      static_cast<std::size_t>(count(j, "n", 0, std::int64_t(1) << 40, path)) != n) {
    bad(path, where + " holds other vectors than the state says");
  }
  if (bytes.size() - 8 - (end + 1) != 8 * vectors * n) bad(path, where + ": its size does not match its header");
  Payload p(bytes, end + 1);
  std::vector<std::vector<double>> out;
  for (std::size_t k = 0; k < vectors; ++k) out.push_back(p.take(n));
  return out;
}

// The names of format 4's vector files from its header, each checked (they become paths).
std::string file_name(const nlohmann::json& v, const std::string& path) {
  if (!v.is_string() || !is_vector_file_name(v.get<std::string>()))
    bad(path, "it names a vector file " + v.dump() + " that is not 16 hex digits");
  return v.get<std::string>();
}

}  // namespace

StateFiles encode_inversion_state(const InversionState& s) {
  const StateLayout l = layout_of(s);
  StateFiles out;
  for (const VectorFile& f : l.files) {
    std::ostringstream os;
    write_vector_file(os, f);
    out.vectors[f.name] = os.str();
  }
  std::ostringstream os;
  write_state_file(os, s, l);
  out.state = os.str();
  return out;
}

InversionState decode_inversion_state(const std::string& bytes, const std::string& path, const VectorFileReader& read) {
  const std::size_t line = bytes.find('\n');
  const std::string magic = bytes.substr(0, line == std::string::npos ? 0 : line);
  if (magic == old_magic) bad(path, "it was written by an older revwave, without a checksum");
  if (magic != state_magic && magic != format3_magic && magic != format2_magic)
    throw IoError(path + ": not a revwave inversion state");
  const int format = magic == state_magic ? 4 : magic == format3_magic ? 3 : 2;
  if (bytes.size() < line + 1 + 8) bad(path, "it is truncated");
  if (state_checksum(bytes.data(), bytes.size() - 8, format) != stored_checksum(bytes))
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
    Payload p(bytes, end + 1);
    std::deque<CurvaturePair> saved;
    if (format == 4) {
      if (!j.at("model_is_x").is_boolean()) bad(path, "'model_is_x' is not a boolean");
      const bool model_is_x = j.at("model_is_x").get<bool>();
      if (model_is_x && nx != n) bad(path, "its model is its iterate, and it has none");
      if (payload != 8 * (1 + (model_is_x ? 0 : n) + 2 * nx)) bad(path, "its size does not match its header");
      const nlohmann::json& names = j.at("pair_files");
      if (!names.is_array() || names.size() != pairs)
        bad(path, "it names " + std::to_string(names.is_array() ? names.size() : 0) + " curvature pair files for " +
                      std::to_string(pairs) + " pairs");
      const nlohmann::json& diagonal = j.at("diagonal_file");
      if (!diagonal.is_string() || diagonal.get<std::string>().empty() != (nd == 0))
        bad(path, "its preconditioner file " + diagonal.dump() + " disagrees with its size " + std::to_string(nd));
      s.optimizer.f = p.take(1).front();
      if (!model_is_x) s.model = p.take(n);
      s.optimizer.x = p.take(nx);
      s.optimizer.g = p.take(nx);
      if (model_is_x) s.model = s.optimizer.x;
      const auto fetch = [&](const std::string& name) { return read ? read(name) : std::nullopt; };
      if (nd > 0) {
        const std::string name = file_name(diagonal, path);
        s.diagonal = std::move(read_vectors(fetch(name), name, 1, nd, path, "its preconditioner").front());
      }
      for (std::uint64_t k = 0; k < pairs; ++k) {
        const std::string name = file_name(names[k], path);
        std::vector<std::vector<double>> v =
            read_vectors(fetch(name), name, 2, nx, path, "its curvature pair " + std::to_string(k));
        saved.push_back(CurvaturePair{std::move(v[0]), std::move(v[1])});
      }
    } else {
      if (payload != 8 * (1 + n + 2 * nx + nd + 2 * pairs * nx)) bad(path, "its size does not match its header");
      s.optimizer.f = p.take(1).front();
      s.model = p.take(n);
      s.optimizer.x = p.take(nx);
      s.optimizer.g = p.take(nx);
      s.diagonal = p.take(nd);
      for (std::uint64_t k = 0; k < pairs; ++k) {
        CurvaturePair c;
        c.s = p.take(nx);
        c.y = p.take(nx);
        saved.push_back(std::move(c));
      }
    }
    for (std::size_t k = 0; k < saved.size(); ++k) {
      if (!all_finite(saved[k].s) || !all_finite(saved[k].y))
        bad(path, "curvature pair " + std::to_string(k) + " is not finite");
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

InversionState decode_inversion_state(const StateFiles& files, const std::string& path) {
  return decode_inversion_state(files.state, path, [&](const std::string& name) -> std::optional<std::string> {
    const auto it = files.vectors.find(name);
    if (it == files.vectors.end()) return std::nullopt;
    return it->second;
  });
}

std::uint64_t state_checksum(const char* bytes, std::size_t size, int format) {
  return format == 2 ? fnv1a(bytes, size) : xxh3(bytes, size);
}

std::vector<std::string> save_inversion_state(const std::string& path, const InversionState& s) {
  const StateLayout l = layout_of(s);
  std::vector<std::string> names;
  if (!l.files.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(vector_dir(path), ec);
    if (ec || !std::filesystem::is_directory(vector_dir(path), ec))
      throw IoError(vector_dir(path) + ": cannot make the directory of the inversion's vector files (" +
                    (ec ? ec.message() : std::string("a file of that name is there")) + ")");
  }
  for (const VectorFile& f : l.files) {
    names.push_back(f.name);
    const std::string file = vector_path(path, f.name);
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) continue;  // an earlier save's: the name is the hash of its bytes
    write_file_atomically(file, [&](std::ostream& os) { write_vector_file(os, f); });
  }
  write_file_atomically(path, [&](std::ostream& os) { write_state_file(os, s, l); });
  return names;
}

void remove_unused_state_files(const std::string& path, const std::vector<std::string>& kept) {
  // Best effort: what cannot be listed or removed now goes at the next save. Temporaries that a
  // killed save left are removed too (no save of this process is under way).
  std::error_code ec;
  std::vector<std::filesystem::path> unused;
  std::filesystem::directory_iterator it(vector_dir(path), ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::filesystem::path& p = it->path();
    const std::string file = p.filename().string();
    const std::string name = p.stem().string();
    const bool vector_file = p.extension() == ".bin" && is_vector_file_name(name);
    if ((vector_file && std::find(kept.begin(), kept.end(), name) == kept.end()) ||
        (file.find(".bin.tmp.") == 16 && is_vector_file_name(file.substr(0, 16)))) {
      unused.push_back(p);
    }
  }
  for (const std::filesystem::path& p : unused) std::filesystem::remove(p, ec);
}

InversionState load_inversion_state(const std::string& path) {
  const auto slurp = [](const std::string& file) -> std::optional<std::string> {
    std::ifstream is(file, std::ios::binary);
    if (!is) return std::nullopt;
    return std::string{std::istreambuf_iterator<char>(is), std::istreambuf_iterator<char>()};
  };
  const std::optional<std::string> bytes = slurp(path);
  if (!bytes) throw IoError(path + ": cannot open the inversion state (" + std::strerror(errno) + ")");
  return decode_inversion_state(*bytes, path, [&](const std::string& name) { return slurp(vector_path(path, name)); });
}

}  // namespace revwave
