// Reading SEG-Y: each trace's header (timing, scalars, positions, units) and samples, and the
// grouping of live traces into shots. The file's layout is segy_layout.cpp's.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/io/segy.hpp"
#include "segy_layout.hpp"
#include "segy_samples.hpp"
#include "segy_scalars.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;
using namespace segy_detail;

// Trace header fields by byte number (segyio's SEGY_TR_*).
enum TraceField {
  field_record = 9,
  trace_id = 29,
  group_elevation = 41,
  source_surface_elevation = 45,
  source_depth = 49,
  elevation_scalar = 69,
  coordinate_scalar = 71,
  source_x = 73,
  source_y = 77,
  group_x = 81,
  group_y = 85,
  coordinate_units = 89,
  sample_count = 115,
  sample_interval = 117
};

// The wavelet stamp of a file revwave wrote ("REVWAVE RICKER F0=... T0=..."), if any.
void read_stamp(const std::string& text, SegySurvey& s) {
  const char* p = std::strstr(text.c_str(), "REVWAVE RICKER F0=");
  if (p == nullptr) return;
  char* end = nullptr;
  const double f0 = std::strtod(p + std::strlen("REVWAVE RICKER F0="), &end);
  const char* q = std::strstr(end, "T0=");
  if (q == nullptr) return;
  const double t0 = std::strtod(q + 3, nullptr);
  if (std::isfinite(f0) && f0 > 0 && std::isfinite(t0)) {
    s.f0 = f0;
    s.t0 = t0;
  }
}

struct RawTrace {
  std::int64_t number;
  std::int64_t field_record;
  std::array<double, 3> source, receiver;
};

// The live traces in file order, with their samples one after another.
struct LiveTraces {
  std::vector<RawTrace> traces;
  std::vector<double> data;
  bool every_record = true;  // every live trace has a FieldRecord
  double interval = 0;       // us: the binary header's, else the first trace's that has one
  std::int64_t dead = 0;
};

// A trace's sample count and interval against the file's (the first trace that has an interval sets
// it when the binary header does not).
void check_trace_timing(const std::string& where, const Header& th, const FileLayout& l, double& file_interval) {
  const auto count = static_cast<std::int64_t>(th.u16(sample_count));
  const std::int64_t dt_us = th.i16(sample_interval);
  if (count != 0 && count != l.samples && count != l.other_count) {
    throw IoError(where + " has " + std::to_string(count) + " samples, the binary header says " +
                  std::to_string(l.samples) + ": traces of different lengths are not supported");
  }
  if (dt_us < 0) throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us is invalid");
  if (dt_us == 0) return;
  if (file_interval == 0) file_interval = static_cast<double>(dt_us);
  if (static_cast<double>(dt_us) != file_interval) {
    throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us disagrees with the file's " +
                  number_text(file_interval) + " us (" + (l.interval_us != 0 ? "binary header" : "earlier traces") +
                  ")");
  }
}

// Trace positions: the scalars (the file's, or the options'), and the coordinate units. Angles the
// coordinates cannot be are read as lengths, counted for one warning.
class Positions {
 public:
  Positions(const std::string& name, const FileLayout& l, const SegyReadOptions& o)
      : name_(name), layout_(l), options_(o) {}

  RawTrace of(std::int64_t t, const std::string& where, const Header& th) {
    const std::int32_t cs = scalar(th.i16(coordinate_scalar), options_.coordinate_scalar, where, "SourceGroupScalar",
                                   "--segy-coordinate-scalar");
    const std::int32_t es = scalar(th.i16(elevation_scalar), options_.elevation_scalar, where, "ElevationScalar",
                                   "--segy-elevation-scalar");
    const double sx = apply_scalar(th.i32(source_x), cs), sy = apply_scalar(th.i32(source_y), cs);
    const double gx = apply_scalar(th.i32(group_x), cs), gy = apply_scalar(th.i32(group_y), cs);
    if (!layout_.units_stated) check_units(t, where, th.i16(coordinate_units), {sx, sy, gx, gy});
    const double u = layout_.unit;
    const auto& o = options_.origin;
    RawTrace r;
    r.number = t;
    r.field_record = th.i32(field_record);
    r.source = {
        sx * u - o[0], sy * u - o[1],
        (apply_scalar(th.i32(source_depth), es) - apply_scalar(th.i32(source_surface_elevation), es)) * u - o[2]};
    r.receiver = {gx * u - o[0], gy * u - o[1], -apply_scalar(th.i32(group_elevation), es) * u - o[2]};
    return r;
  }

  // The sentences of what was overridden, once per file.
  void report(std::vector<std::string>& warnings) const {
    if (angle_traces_ > 0) {
      warnings.push_back(name_ + ": CoordinateUnits " + std::to_string(angle_units_) + " (" + unit_name(angle_units_) +
                         ") on " + std::to_string(angle_traces_) + " traces from trace " +
                         std::to_string(first_angle_trace_) + ", but their coordinates are no angles (" +
                         number_text(angle_example_) + " lies beyond " + number_text(angle_limit(angle_units_)) +
                         "): read as lengths in " + (layout_.unit == 1.0 ? "metres" : "feet") +
                         " (MeasurementSystem; --segy-units states the unit)");
    }
    for (const auto& [what, seen] : overridden_) {
      warnings.push_back(name_ + ": " + what + " replaces the trace headers' " + seen);
    }
  }

 private:
  static const char* unit_name(std::int64_t cu) {
    return cu == 2 ? "seconds of arc" : cu == 3 ? "decimal degrees" : cu == 4 ? "degrees, minutes, seconds" : "unknown";
  }
  // The largest |longitude| an angle in these units can be (latitude: half of it).
  static double angle_limit(std::int64_t cu) { return cu == 2 ? 648000.0 : cu == 3 ? 180.0 : 1800000.0; }

  std::int32_t scalar(std::int64_t stored, std::int32_t given, const std::string& where, const char* field,
                      const char* option) {
    if (given != 0) {
      if (stored != given)
        overridden_.emplace(std::string(option) + " " + std::to_string(given),
                            std::string(field) + " " + std::to_string(stored));
      return given;
    }
    if (!valid_scalar(static_cast<std::int32_t>(stored))) {
      throw IoError(where + ": " + field + " " + std::to_string(stored) +
                    " is invalid: 0 or +-1, 10, 100, 1000, 10000 (" + option + " states the right one)");
    }
    return static_cast<std::int32_t>(stored);
  }

  void check_units(std::int64_t t, const std::string& where, std::int64_t cu, const std::array<double, 4>& xyxy) {
    if (cu == 0 || cu == 1) return;
    if (cu >= 2 && cu <= 4) {
      const double lim = angle_limit(cu);
      const double ex = std::max(std::abs(xyxy[0]), std::abs(xyxy[2])),
                   ey = std::max(std::abs(xyxy[1]), std::abs(xyxy[3]));
      if (ex > lim || ey > lim / 2) {
        if (angle_traces_++ == 0) {
          first_angle_trace_ = t;
          angle_units_ = cu;
          angle_example_ = ex > lim ? (std::abs(xyxy[0]) > lim ? xyxy[0] : xyxy[2])
                                    : (std::abs(xyxy[1]) > lim / 2 ? xyxy[1] : xyxy[3]);
        }
        return;
      }
    }
    throw IoError(where + ": CoordinateUnits " + std::to_string(cu) +
                  " is not supported: 1 (length); geographic coordinates need "
                  "projecting first (--segy-units metres or feet if they are lengths)");
  }

  std::string name_;
  const FileLayout& layout_;
  const SegyReadOptions& options_;
  std::int64_t angle_traces_ = 0, first_angle_trace_ = 0, angle_units_ = 0;
  double angle_example_ = 0;
  std::map<std::string, std::string> overridden_;
};

void decode_trace(const std::string& where, const FileLayout& l, const char* bytes, double* out) {
  decode_samples(l.format, l.little, bytes, static_cast<std::size_t>(l.samples), out);
  if (l.format != 5 && l.format != 6) return;
  for (std::int64_t i = 0; i < l.samples; ++i) {
    if (!std::isfinite(out[i])) throw IoError(where + " sample " + std::to_string(i) + " is not finite");
  }
}

LiveTraces read_live_traces(ByteSource& src, const std::string& name, const FileLayout& l,
                            const SegyReadOptions& options, std::vector<std::string>& warnings) {
  // The samples are held twice (in file order, then by shot): refuse a file that cannot fit before reading it.
  const std::string what =
      name + ": its " + std::to_string(l.traces) + " traces of " + std::to_string(l.samples) + " samples";
  require_memory(
      checked_bytes({static_cast<std::size_t>(l.traces), static_cast<std::size_t>(l.samples), 2 * sizeof(double)},
                    what),
      what);
  LiveTraces live;
  live.interval = l.interval_us;
  Positions positions(name, l, options);
  std::vector<char> record(static_cast<std::size_t>(l.record));
  const std::size_t samples_at = static_cast<std::size_t>(trace_header_bytes * l.headers);
  for (std::uint64_t t = 0; t < l.traces; ++t) {
    src.read(l.trace0 + t * l.record, record.size(), record.data());
    const Header th{record.data(), 1, l.little};
    const std::int64_t id = th.i16(trace_id);
    if (id == 2 || id == 3) {  // dead or dummy
      ++live.dead;
      continue;
    }
    const std::string where = name + ": trace " + std::to_string(t);
    check_trace_timing(where, th, l, live.interval);
    const RawTrace r = positions.of(static_cast<std::int64_t>(t), where, th);
    if (r.field_record == 0) live.every_record = false;
    live.traces.push_back(r);
    live.data.resize(live.data.size() + static_cast<std::size_t>(l.samples));
    decode_trace(where, l, record.data() + samples_at,
                 live.data.data() + live.data.size() - static_cast<std::size_t>(l.samples));
  }
  if (live.traces.empty())
    throw IoError(name + ": every one of its " + std::to_string(l.traces) + " traces is dead or dummy");
  if (live.interval == 0)
    throw IoError(name + ": sample interval is 0 us in the binary header and in every trace header");
  positions.report(warnings);
  return live;
}

// Each shot's live traces (indices into live.traces), shots in the order of their first trace; the
// shots' FieldRecord and source go into `s`.
std::vector<std::vector<std::size_t>> group_into_shots(const std::string& name, const LiveTraces& live, SegySurvey& s) {
  s.grouping = live.every_record ? "FieldRecord" : "source position";
  std::map<std::int64_t, std::size_t> by_record;
  std::map<std::array<double, 3>, std::size_t> by_source;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < live.traces.size(); ++i) {
    const RawTrace& r = live.traces[i];
    const std::size_t next = members.size();
    const std::size_t shot = live.every_record ? by_record.emplace(r.field_record, next).first->second
                                               : by_source.emplace(r.source, next).first->second;
    if (shot == next) {
      members.emplace_back();
      SegyShot sh;
      sh.field_record = r.field_record;
      sh.source = r.source;
      s.shots.push_back(sh);
    } else if (live.every_record && s.shots[shot].source != r.source) {
      throw IoError(name + ": FieldRecord " + std::to_string(r.field_record) + " has traces " +
                    std::to_string(live.traces[members[shot].front()].number) + " and " + std::to_string(r.number) +
                    " with different source positions: one record must be one shot");
    }
    members[shot].push_back(i);
  }
  return members;
}

// Each shot's receivers, trace numbers and (nt, nrec) samples from its members.
void gather_shots(const LiveTraces& live, const std::vector<std::vector<std::size_t>>& members, std::int64_t samples,
                  SegySurvey& s) {
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    SegyShot& sh = s.shots[k];
    const std::size_t nrec = members[k].size();
    sh.traces.assign(nrec * static_cast<std::size_t>(samples), 0.0);
    for (std::size_t j = 0; j < nrec; ++j) {
      const std::size_t i = members[k][j];
      sh.receivers.push_back(live.traces[i].receiver);
      sh.trace_numbers.push_back(live.traces[i].number);
      const double* src = live.data.data() + i * static_cast<std::size_t>(samples);
      for (std::int64_t n = 0; n < samples; ++n) sh.traces[static_cast<std::size_t>(n) * nrec + j] = src[n];
    }
  }
}

SegySurvey read_from(ByteSource& src, const std::string& name, const SegyReadOptions& options) {
  SegySurvey s;
  const FileLayout layout = read_layout(src, name, options, s.warnings);
  s.nt = layout.samples;
  read_stamp(layout.text, s);
  const LiveTraces live = read_live_traces(src, name, layout, options, s.warnings);
  s.dead_traces = live.dead;
  s.dt = live.interval / 1e6;
  const auto members = group_into_shots(name, live, s);
  gather_shots(live, members, layout.samples, s);
  return s;
}

}  // namespace

SegySurvey read_segy(const std::string& path, const SegyReadOptions& options) {
  require_regular_file(path);
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw IoError(path + ": cannot be read: " + ec.message());
  FileBytes src(path, size);
  return read_from(src, path, options);
}

SegySurvey read_segy_bytes(const std::string& bytes, const std::string& name, const SegyReadOptions& options) {
  MemoryBytes src(bytes, name);
  return read_from(src, name, options);
}

SegyEndian parse_segy_endian(const std::string& text) {
  if (text == "big") return SegyEndian::big;
  if (text == "little") return SegyEndian::little;
  throw InputError("--segy-endian " + text + " is invalid: it must be one of big, little");
}

const char* to_string(SegyEndian e) {
  return e == SegyEndian::big ? "big" : e == SegyEndian::little ? "little" : "detect";
}

SegyUnits parse_segy_units(const std::string& text) {
  if (text == "metres") return SegyUnits::metres;
  if (text == "feet") return SegyUnits::feet;
  throw InputError("--segy-units " + text + " is invalid: it must be one of metres, feet");
}

const char* to_string(SegyUnits u) {
  return u == SegyUnits::metres ? "metres" : u == SegyUnits::feet ? "feet" : "file";
}

}  // namespace revwave
