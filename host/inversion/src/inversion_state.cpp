#include "revwave/inversion/inversion_state.hpp"

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <istream>
#include <nlohmann/json.hpp>

#include "revwave/core/errors.hpp"
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

// ---- the state file: "revwave-inversion-state 1\n", a JSON line of the scalars and vector sizes,
// then the vectors as little-endian doubles in the order the JSON lists them.
namespace {

constexpr const char* state_magic = "revwave-inversion-state 1";

void put(std::ostream& os, const std::vector<double>& v) {
  os.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
}

std::vector<double> take(std::istream& is, std::size_t n, const std::string& path) {
  std::vector<double> v(n);
  is.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(double)));
  if (static_cast<std::size_t>(is.gcount()) != n * sizeof(double)) throw IoError(path + ": the inversion state is truncated");
  return v;
}

}  // namespace

void save_inversion_state(const std::string& path, const InversionState& s) {
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
  const std::vector<double> f{s.optimizer.f};
  write_file_atomically(path, [&](std::ostream& os) {
    os << state_magic << "\n" << j.dump() << "\n";
    put(os, f);
    put(os, s.model);
    put(os, s.optimizer.x);
    put(os, s.optimizer.g);
    put(os, s.diagonal);
    for (const CurvaturePair& p : s.optimizer.memory.pairs()) {
      put(os, p.s);
      put(os, p.y);
    }
  });
}

InversionState load_inversion_state(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw IoError(path + ": cannot open the inversion state (" + std::strerror(errno) + ")");
  std::string magic, header;
  std::getline(is, magic);
  if (magic != state_magic) throw IoError(path + ": not a revwave inversion state");
  std::getline(is, header);
  InversionState s;
  try {
    const nlohmann::json j = nlohmann::json::parse(header);
    s.fingerprint = j.at("fingerprint").get<std::string>();
    s.band = j.at("band").get<int>();
    s.band_iteration = j.at("band_iteration").get<int>();
    s.iteration = j.at("iteration").get<int>();
    s.band_started = j.at("band_started").get<bool>();
    s.band_end = static_cast<BandEnd>(j.at("band_end").get<int>());
    for (int e : j.at("ended")) s.ended.push_back(static_cast<BandEnd>(e));
    s.optimizer.iteration = j.at("optimizer_iteration").get<int>();
    s.optimizer.evaluations = j.at("evaluations").get<int>();
    s.optimizer.memory = LbfgsMemory(j.at("memory_capacity").get<int>());
    const auto n = j.at("n").get<std::size_t>(), nx = j.at("x").get<std::size_t>(), nd = j.at("diagonal").get<std::size_t>();
    const int pairs = j.at("pairs").get<int>();
    s.optimizer.f = take(is, 1, path).front();
    s.model = take(is, n, path);
    s.optimizer.x = take(is, nx, path);
    s.optimizer.g = take(is, nx, path);
    s.diagonal = take(is, nd, path);
    std::deque<CurvaturePair> saved;
    for (int k = 0; k < pairs; ++k) {
      CurvaturePair p;
      p.s = take(is, nx, path);
      p.y = take(is, nx, path);
      saved.push_back(std::move(p));
    }
    s.optimizer.memory.assign(std::move(saved));
  } catch (const nlohmann::json::exception& e) {
    throw IoError(path + ": the inversion state's header is invalid (" + e.what() + ")");
  }
  if (is.peek() != std::char_traits<char>::eof()) throw IoError(path + ": the inversion state has trailing bytes");
  return s;
}

}  // namespace revwave
