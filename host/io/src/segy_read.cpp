// Reading SEG-Y on segyio's C library: the file's headers, each trace's header (timing, scalars,
// positions) and samples, and the grouping of live traces into shots.
#include <segyio/segy.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/segy.hpp"
#include "segy_scalars.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;
using namespace segy_detail;

// What the textual and binary headers and the file's size say about its traces.
struct FileLayout {
  std::vector<char> text;      // the textual header, NUL-terminated
  int format = 0, samples = 0;
  std::int32_t interval = 0;   // us, 0: not in the binary header
  double unit = 1;             // metres per coordinate unit
  long trace0 = 0;             // byte offset of the first trace
  int trace_bytes = 0;         // samples of one trace, in bytes
  long long traces = 0;
};

class TraceReader {
 public:
  TraceReader(std::string path, segy_file* fp, const FileLayout& l)
      : path_(std::move(path)), fp_(fp), trace0_(l.trace0), bytes_(l.trace_bytes), format_(l.format), samples_(l.samples),
        raw_(static_cast<std::size_t>(l.trace_bytes)) {}

  void header(int traceno, char* buf) {
    const int rc = segy_traceheader(fp_, traceno, buf, trace0_, bytes_);
    if (rc != SEGY_OK) throw IoError(path_ + ": trace " + std::to_string(traceno) + ": its header cannot be read (segyio error " + std::to_string(rc) + ")");
  }
  void samples(int traceno, double* out) {
    int rc = segy_readtrace(fp_, traceno, raw_.data(), trace0_, bytes_);
    if (rc == SEGY_OK) rc = segy_to_native(format_, samples_, raw_.data());
    if (rc != SEGY_OK) throw IoError(path_ + ": trace " + std::to_string(traceno) + ": its samples cannot be read (segyio error " + std::to_string(rc) + ")");
    const float* f = reinterpret_cast<const float*>(raw_.data());
    for (int i = 0; i < samples_; ++i) {
      if (!std::isfinite(f[i])) {
        throw IoError(path_ + ": trace " + std::to_string(traceno) + " sample " + std::to_string(i) + " is not finite");
      }
      out[i] = static_cast<double>(f[i]);
    }
  }

 private:
  std::string path_;
  segy_file* fp_;
  long trace0_;
  int bytes_, format_, samples_;
  std::vector<char> raw_;
};

std::int32_t field(const char* header, int f) {
  std::int32_t v = 0;
  segy_get_field(header, f, &v);
  return v;
}

// The wavelet stamp of a file revwave wrote ("REVWAVE RICKER F0=... T0=..."), if any.
void read_stamp(const char* text, SegySurvey& s) {
  const char* p = std::strstr(text, "REVWAVE RICKER F0=");
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

// ---- the file's headers ----

SegyHandle open_segy(const std::string& path, std::uintmax_t& size) {
  std::error_code ec;
  size = fs::file_size(path, ec);
  if (ec) throw IoError(path + ": cannot be read: " + ec.message());
  if (size < SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE) {
    throw IoError(path + ": is not SEG-Y: " + std::to_string(size) + " bytes, shorter than the 3600 bytes of textual and binary headers");
  }
  SegyHandle fp(segy_open(path.c_str(), "rb"));
  if (!fp) throw IoError(path + ": cannot be opened: " + std::strerror(errno));
  return fp;
}

// Sample format, count, interval and units from the binary header, each checked.
void read_binary_fields(const std::string& path, const char* bin, FileLayout& l) {
  l.format = segy_format(bin);
  if (l.format != SEGY_IBM_FLOAT_4_BYTE && l.format != SEGY_IEEE_FLOAT_4_BYTE) {
    if (l.format < 1 || l.format > 16) {
      throw IoError(path + ": is not SEG-Y (or not big-endian): binary header sample format code " + std::to_string(l.format));
    }
    throw IoError(path + ": sample format code " + std::to_string(l.format) + " is not supported: 1 (IBM float) or 5 (IEEE float)");
  }
  l.samples = segy_samples(bin);
  if (l.samples < 1) throw IoError(path + ": binary header sample count " + std::to_string(l.samples) + " is invalid: at least 1");
  std::int32_t ext_headers = 0, units = 0;
  segy_get_bfield(bin, SEGY_BIN_INTERVAL, &l.interval);
  segy_get_bfield(bin, SEGY_BIN_EXT_HEADERS, &ext_headers);
  segy_get_bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM, &units);
  if (l.interval < 0) throw IoError(path + ": binary header sample interval " + std::to_string(l.interval) + " us is invalid");
  if (ext_headers < 0 || ext_headers > 100) {
    throw IoError(path + ": binary header extended textual header count " + std::to_string(ext_headers) + " is not supported (0..100)");
  }
  if (units != 0 && units != 1 && units != 2) {
    throw IoError(path + ": binary header measurement system " + std::to_string(units) + " is invalid: 1 (metres) or 2 (feet)");
  }
  l.unit = units == 2 ? 0.3048 : 1.0;
}

FileLayout read_layout(const std::string& path, segy_file* fp, std::uintmax_t size) {
  FileLayout l;
  l.text.assign(static_cast<std::size_t>(segy_textheader_size()) + 1, 0);
  char bin[SEGY_BINARY_HEADER_SIZE];
  if (segy_read_textheader(fp, l.text.data()) != SEGY_OK || segy_binheader(fp, bin) != SEGY_OK) {
    throw IoError(path + ": its textual and binary headers cannot be read");
  }
  read_binary_fields(path, bin, l);
  l.trace0 = segy_trace0(bin);
  l.trace_bytes = segy_trsize(l.format, l.samples);
  if (segy_set_format(fp, l.format) != SEGY_OK) throw IoError(path + ": segyio refuses sample format " + std::to_string(l.format));
  const long long record = l.trace_bytes + SEGY_TRACE_HEADER_SIZE;
  if (static_cast<long long>(size) < l.trace0 || (static_cast<long long>(size) - l.trace0) % record != 0) {
    throw IoError(path + ": file size " + std::to_string(size) + " bytes is not its headers (" + std::to_string(l.trace0) +
                  ") plus whole traces of " + std::to_string(record) + " bytes: truncated, or not SEG-Y");
  }
  l.traces = (static_cast<long long>(size) - l.trace0) / record;
  if (l.traces < 1) throw IoError(path + ": holds no traces");
  if (l.traces > 2147483647LL) throw IoError(path + ": too many traces for segyio");
  return l;
}

// ---- each trace ----

struct RawTrace {
  int number;
  std::int64_t field_record;
  std::array<double, 3> source, receiver;
};

// The live traces in file order, with their samples one after another.
struct LiveTraces {
  std::vector<RawTrace> traces;
  std::vector<double> data;
  bool every_record = true;        // every live trace has a FieldRecord
  std::int32_t interval = 0;       // us: the binary header's, else the first trace's that has one
  std::int64_t dead = 0;
};

// A trace's sample count and interval against the file's (the first trace that has an interval sets
// it when the binary header does not).
void check_trace_timing(const std::string& where, const char* th, const FileLayout& l, std::int32_t& file_interval) {
  const std::int32_t count = field(th, SEGY_TR_SAMPLE_COUNT), dt_us = field(th, SEGY_TR_SAMPLE_INTER);
  if (count != 0 && count != l.samples) {
    throw IoError(where + " has " + std::to_string(count) + " samples, the binary header says " + std::to_string(l.samples) +
                  ": traces of different lengths are not supported");
  }
  if (dt_us < 0) throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us is invalid");
  if (dt_us == 0) return;
  if (file_interval == 0) file_interval = dt_us;
  if (dt_us != file_interval) {
    throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us disagrees with the file's " +
                  std::to_string(file_interval) + " us (" + (l.interval != 0 ? "binary header" : "earlier traces") + ")");
  }
}

// Source and receiver of a trace in the model's frame (metres, origin subtracted, depth down).
RawTrace trace_position(int t, const std::string& where, const char* th, double unit, const std::array<double, 3>& o) {
  const std::int32_t cs = field(th, SEGY_TR_SOURCE_GROUP_SCALAR), es = field(th, SEGY_TR_ELEV_SCALAR);
  if (!valid_scalar(cs)) throw IoError(where + ": SourceGroupScalar " + std::to_string(cs) + " is invalid: 0 or +-1, 10, 100, 1000, 10000");
  if (!valid_scalar(es)) throw IoError(where + ": ElevationScalar " + std::to_string(es) + " is invalid: 0 or +-1, 10, 100, 1000, 10000");
  const std::int32_t cu = field(th, SEGY_TR_COORD_UNITS);
  if (cu != 0 && cu != 1) {
    throw IoError(where + ": CoordinateUnits " + std::to_string(cu) + " is not supported: 1 (length); geographic coordinates need projecting first");
  }
  RawTrace r;
  r.number = t;
  r.field_record = field(th, SEGY_TR_FIELD_RECORD);
  r.source = {apply_scalar(field(th, SEGY_TR_SOURCE_X), cs) * unit - o[0], apply_scalar(field(th, SEGY_TR_SOURCE_Y), cs) * unit - o[1],
              (apply_scalar(field(th, SEGY_TR_SOURCE_DEPTH), es) - apply_scalar(field(th, SEGY_TR_SOURCE_SURF_ELEV), es)) * unit - o[2]};
  r.receiver = {apply_scalar(field(th, SEGY_TR_GROUP_X), cs) * unit - o[0], apply_scalar(field(th, SEGY_TR_GROUP_Y), cs) * unit - o[1],
                -apply_scalar(field(th, SEGY_TR_RECV_GROUP_ELEV), es) * unit - o[2]};
  return r;
}

LiveTraces read_live_traces(const std::string& path, segy_file* fp, const FileLayout& l, const SegyReadOptions& options) {
  TraceReader reader(path, fp, l);
  LiveTraces live;
  live.interval = l.interval;
  char th[SEGY_TRACE_HEADER_SIZE];
  for (int t = 0; t < static_cast<int>(l.traces); ++t) {
    reader.header(t, th);
    const std::int32_t id = field(th, SEGY_TR_TRACE_ID);
    if (id == 2 || id == 3) {  // dead or dummy
      ++live.dead;
      continue;
    }
    const std::string where = path + ": trace " + std::to_string(t);
    check_trace_timing(where, th, l, live.interval);
    const RawTrace r = trace_position(t, where, th, l.unit, options.origin);
    if (r.field_record == 0) live.every_record = false;
    live.traces.push_back(r);
    live.data.resize(live.data.size() + static_cast<std::size_t>(l.samples));
    reader.samples(t, live.data.data() + live.data.size() - static_cast<std::size_t>(l.samples));
  }
  if (live.traces.empty()) throw IoError(path + ": every one of its " + std::to_string(l.traces) + " traces is dead or dummy");
  if (live.interval == 0) throw IoError(path + ": sample interval is 0 us in the binary header and in every trace header");
  return live;
}

// ---- shots ----

// Each shot's live traces (indices into live.traces), shots in the order of their first trace; the
// shots' FieldRecord and source go into `s`.
std::vector<std::vector<std::size_t>> group_into_shots(const std::string& path, const LiveTraces& live, SegySurvey& s) {
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
      throw IoError(path + ": FieldRecord " + std::to_string(r.field_record) + " has traces " +
                    std::to_string(live.traces[members[shot].front()].number) + " and " + std::to_string(r.number) +
                    " with different source positions: one record must be one shot");
    }
    members[shot].push_back(i);
  }
  return members;
}

// Each shot's receivers, trace numbers and (nt, nrec) samples from its members.
void gather_shots(const LiveTraces& live, const std::vector<std::vector<std::size_t>>& members, int samples, SegySurvey& s) {
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    SegyShot& sh = s.shots[k];
    const std::size_t nrec = members[k].size();
    sh.traces.assign(nrec * static_cast<std::size_t>(samples), 0.0);
    for (std::size_t j = 0; j < nrec; ++j) {
      const std::size_t i = members[k][j];
      sh.receivers.push_back(live.traces[i].receiver);
      sh.trace_numbers.push_back(live.traces[i].number);
      const double* src = live.data.data() + i * static_cast<std::size_t>(samples);
      for (int n = 0; n < samples; ++n) sh.traces[static_cast<std::size_t>(n) * nrec + j] = src[n];
    }
  }
}

}  // namespace

SegySurvey read_segy(const std::string& path, const SegyReadOptions& options) {
  std::uintmax_t size = 0;
  const SegyHandle fp = open_segy(path, size);
  const FileLayout layout = read_layout(path, fp.get(), size);
  SegySurvey s;
  s.nt = layout.samples;
  read_stamp(layout.text.data(), s);
  const LiveTraces live = read_live_traces(path, fp.get(), layout, options);
  s.dead_traces = live.dead;
  s.dt = segy_dt(live.interval);
  const auto members = group_into_shots(path, live, s);
  gather_shots(live, members, layout.samples, s);
  return s;
}

}  // namespace revwave
