#include "harnesses.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gradient_job.hpp"
#include "problem_options.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/inversion/fingerprint.hpp"
#include "revwave/inversion/inversion_state.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/segy.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "revwave/schedule/two_level.hpp"
#include "toml_config.hpp"

namespace revwave::fuzz {
namespace {

[[noreturn]] void broken(const std::string& what) { throw std::logic_error("fuzz invariant broken: " + what); }

// Bytes read one field at a time; zeros once they run out.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint64_t take(int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = v << 8 | (pos_ < size_ ? data_[pos_++] : 0);
    return v;
  }
  // A value in [lo, hi], spread over the range.
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(span == 0 ? take(8) : take(8) % span);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

}  // namespace

void npy(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const NpyArray a = read_npy(in, "fuzz.npy");
    std::int64_t n = 1;
    for (std::int64_t d : a.shape) {
      if (d < 0) broken("a negative dimension was accepted");
      n *= d;
    }
    if (static_cast<std::int64_t>(a.data.size()) != n) broken("the data do not fill the shape");
  } catch (const IoError&) {}
}

void sidecar(const std::uint8_t* data, std::size_t size) {
  try {
    const ShotRecordMeta m = parse_sidecar(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!(std::isfinite(m.dt) && m.dt > 0)) broken("dt");
    if (m.nt < 1 || m.nt > max_trace_samples) broken("nt");
    if (!(std::isfinite(m.f0) && m.f0 > 0) || !std::isfinite(m.t0)) broken("f0 or t0");
    if (m.sources.empty() || m.receivers.empty()) broken("no source or receiver");
    for (const auto* list : {&m.sources, &m.receivers})
      for (const auto& p : *list)
        for (double c : p)
          if (!std::isfinite(c)) broken("a coordinate");
    if (m.precision != "float32" && m.precision != "float64") broken("precision");
  } catch (const IoError&) {}
}

void config(const std::uint8_t* data, std::size_t size) {
  // The real reader and the real options of two subcommands (their strict parsers and range
  // checks), then the strategy's own validation; no run starts.
  CLI::App app{"revwave"};
  app.config_formatter(std::make_shared<app::TomlConfig>());
  app.allow_config_extras(CLI::config_extras_mode::error);
  app::ProblemOptions forward;
  app::GradientJobOptions gradient;
  app::Presentation view;
  app::add_problem_options(app.add_subcommand("forward"), forward, view, app::CudaOptions::device);
  app::add_gradient_job_options(app.add_subcommand("gradient"), gradient, view, app::CudaOptions::all);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    app.parse_from_stream(in);
    plan_strategy(gradient.strategy, 100, 4096);
    app::device_budgets(gradient.problem);
  } catch (const CLI::ParseError&) {
  } catch (const InputError&) {
  } catch (const IoError&) {
  } catch (const OutOfMemoryError&) {}
}

void schedule(const std::uint8_t* data, std::size_t size) {
  Bytes b(data, size);
  const int kind = static_cast<int>(b.take(1) % 5);
  if (kind == 0) {
    // Revolve on any 64-bit N and S: the closed forms answer or refuse with the limit.
    const std::int64_t N = b.in(1, std::numeric_limits<std::int64_t>::max());
    const std::int64_t S = b.in(1, std::numeric_limits<std::int64_t>::max());
    try {
      const ScheduleCounts c = revolve_counts(N, S);
      if (c.forward_steps != optimal_forward_steps(N, S) || c.restores != N - 1 || c.stores < 0 || c.stores > N ||
          c.peak_slots != std::min(S, std::max<std::int64_t>(N - 2, 0)))
        broken("revolve_counts(" + std::to_string(N) + ", " + std::to_string(S) + ")");
    } catch (const InputError& e) {
      if (std::string(e.what()).find("exceeds 2^63 - 1") == std::string::npos) throw;
    }
    return;
  }
  const std::int64_t N = b.in(1, 1200), S = b.in(1, 40);
  if (kind == 1) {
    RevolveSchedule r(N, S);
    validate_schedule(r, N, S);
    RevolveSchedule again(N, S);
    const ScheduleCounts counted = count_schedule(again), closed = revolve_counts(N, S);
    if (counted.stores != closed.stores || counted.forward_steps != closed.forward_steps ||
        counted.peak_slots != closed.peak_slots || counted.restores != closed.restores)
      broken("revolve counts for N = " + std::to_string(N) + ", S = " + std::to_string(S));
  } else if (kind == 2) {
    validate_online(N, S, b.take(1) % 2 == 1);
  } else if (kind == 3) {
    std::vector<Tier> tiers;
    const int count = 1 + static_cast<int>(b.take(1) % 3);
    std::int64_t total = 0;
    for (int t = 0; t < count; ++t) {
      Tier tier{t == 0 ? "memory" : "disk", b.in(0, 12), double(b.in(0, 400)) / 8.0, double(b.in(0, 400)) / 8.0};
      total += tier.slots;
      tiers.push_back(tier);
    }
    if (total == 0) tiers[0].slots = 1;
    MultilevelSchedule m(N, tiers);
    validate_schedule(m, N, m.slots());
  } else {
    TwoLevelShape shape;
    shape.steps = N;
    shape.segment = b.in(1, N);
    shape.inner_slots = b.in(1, 20);
    TwoLevelSchedule t(shape);
    validate_schedule(t, N, t.slots());
  }
}

void segy(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  SegyReadOptions o;
  if (size > 2) {
    const unsigned a = data[1], b = data[2];
    o.endian = static_cast<SegyEndian>(a % 3);
    o.units = static_cast<SegyUnits>((a / 3) % 3);
    o.samples = (b & 0x80) ? (b & 0x1f) + 1 : 0;
    const std::int32_t scalars[] = {0, 1, -10, 100, -1000};
    o.coordinate_scalar = scalars[(b >> 5) % 5 > 3 ? 0 : (b >> 5) % 5];
  }
  try {
    const SegySurvey s = read_segy_bytes(bytes, "fuzz.sgy", o);
    if (!(std::isfinite(s.dt) && s.dt > 0)) broken("dt");
    if (s.nt < 1 || s.shots.empty()) broken("nt or shots");
    for (const SegyShot& shot : s.shots) {
      if (shot.receivers.empty() || shot.trace_numbers.size() != shot.receivers.size()) broken("receivers");
      if (shot.traces.size() != shot.receivers.size() * static_cast<std::size_t>(s.nt)) broken("traces");
      for (double v : shot.traces)
        if (!std::isfinite(v)) broken("a sample");
      for (double c : shot.source)
        if (!std::isfinite(c)) broken("a source coordinate");
      for (const auto& r : shot.receivers)
        for (double c : r)
          if (!std::isfinite(c)) broken("a receiver coordinate");
    }
  } catch (const IoError&) {
  } catch (const InputError&) {
  } catch (const OutOfMemoryError&) {}
}

namespace {
// The 8-byte little-endian checksum at the end of `bytes`, made right for its contents.
void reseal(std::string& bytes, int format) {
  const std::uint64_t sum = state_checksum(bytes.data(), bytes.size() - 8, format);
  for (int k = 0; k < 8; ++k) bytes[bytes.size() - 8 + k] = static_cast<char>((sum >> (8 * k)) & 0xff);
}
}  // namespace

void state(const std::uint8_t* data, std::size_t size) {
  // A state, and after a "\n#vectors\n" line a vector file that the reader gives for every name the
  // state asks for (format 4); the seeds hold both.
  std::string bytes(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> vectors;
  const std::string cut = "\n#vectors\n";
  if (const std::size_t at = bytes.find(cut); at != std::string::npos) {
    vectors = bytes.substr(at + cut.size());
    bytes.resize(at);
  }
  if (size > 8 && (data[size - 1] & 1) && bytes.size() > 8) {
    if (vectors && vectors->size() > 8) {
      // The vector file sealed, and every name in the state's header made its name, so that the
      // mutations reach the checks behind the checksum and the name.
      reseal(*vectors, 3);
      std::uint64_t sum = 0;
      for (int k = 0; k < 8; ++k)
        sum |= std::uint64_t(static_cast<unsigned char>((*vectors)[vectors->size() - 8 + k])) << (8 * k);
      char name[17];
      std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(sum));
      const std::size_t header = bytes.find('\n');
      const std::size_t header_end = header == std::string::npos ? header : bytes.find('\n', header + 1);
      if (header_end != std::string::npos && header_end - header < 100000) {
        std::string line = bytes.substr(header, header_end - header);
        line = std::regex_replace(line, std::regex("\"[0-9a-f]{16}\""), std::string("\"") + name + "\"");
        bytes.replace(header, header_end - header, line);
      }
    }
    // FNV-1a for format 2; XXH3 for 3 and 4.
    reseal(bytes, bytes.rfind("revwave-inversion-state 2", 0) == 0 ? 2 : 3);
  }
  const VectorFileReader read = [&](const std::string&) { return vectors; };
  try {
    const InversionState s = decode_inversion_state(bytes, "fuzz/state.bin", read);
    const std::size_t n = s.model.size();
    if (n == 0 || (!s.optimizer.x.empty() && s.optimizer.x.size() != n) || s.optimizer.g.size() != s.optimizer.x.size())
      broken("sizes");
    if (!s.diagonal.empty() && s.diagonal.size() != n) broken("the preconditioner's size");
    if (static_cast<std::size_t>(s.band) != s.ended.size()) broken("bands");
    if (s.band_started && s.optimizer.x.empty()) broken("a running band without an iterate");
    for (double v : s.model)
      if (!std::isfinite(v)) broken("a model value");
    const InversionState again = decode_inversion_state(encode_inversion_state(s), "fuzz/again.bin");  // format 4
    if (again.model != s.model || again.optimizer.x != s.optimizer.x || again.band != s.band ||
        again.iteration != s.iteration || again.optimizer.memory.size() != s.optimizer.memory.size())
      broken("the state does not encode back to itself");
  } catch (const IoError&) {}
}

}  // namespace revwave::fuzz
