// SEG-Y reading and writing on segyio's C library: headers, scalars, grouping into shots.
#include "revwave/io/segy.hpp"

#include <segyio/segy.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

struct SegyCloser {
  void operator()(segy_file* f) const { segy_close(f); }
};
using SegyHandle = std::unique_ptr<segy_file, SegyCloser>;

std::string format_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// ---- scalars: value = stored * s (s > 0) or stored / |s| (s < 0); 0 means 1 ----

bool valid_scalar(std::int32_t s) {
  for (std::int32_t p : {0, 1, 10, 100, 1000, 10000}) {
    if (s == p || s == -p) return true;
  }
  return false;
}

double apply_scalar(std::int32_t stored, std::int32_t scalar) {
  if (scalar > 1) return static_cast<double>(stored) * scalar;
  if (scalar < -1) return static_cast<double>(stored) / static_cast<double>(-scalar);
  return static_cast<double>(stored);
}

// The finest scalar (mm, cm, dm, m, 10 m, ...) at which every |value| fits an int32 with room to spare.
std::int32_t choose_scalar(double max_abs) {
  const double limit = 2.0e9;
  for (std::int32_t k : {-1000, -100, -10, 1, 10, 100, 1000, 10000}) {
    const double factor = k < 0 ? -static_cast<double>(k) : 1.0 / k;
    if (max_abs * factor < limit) return k;
  }
  throw InputError("a coordinate of " + format_double(max_abs) + " m is too large for SEG-Y's 32-bit headers");
}

std::int32_t to_stored(double value, std::int32_t scalar) {
  const double scaled = scalar < 0 ? value * static_cast<double>(-scalar) : value / static_cast<double>(scalar);
  return static_cast<std::int32_t>(std::llround(scaled));
}

// ---- reading ----

class TraceReader {
 public:
  TraceReader(std::string path, segy_file* fp, long trace0, int trace_bytes, int format, int samples)
      : path_(std::move(path)), fp_(fp), trace0_(trace0), bytes_(trace_bytes), format_(format), samples_(samples),
        raw_(static_cast<std::size_t>(trace_bytes)) {}

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

struct RawTrace {
  int number;
  std::int64_t field_record;
  std::array<double, 3> source, receiver;
};

}  // namespace

bool is_segy_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".sgy" || ext == ".segy";
}

std::int64_t segy_interval_us(double dt) {
  const double us = dt * 1e6;
  const double whole = std::round(us);
  if (!(std::isfinite(dt) && dt > 0) || std::abs(us - whole) > 1e-9 * std::max(1.0, whole) || whole < 1 || whole > 32767) {
    std::ostringstream os;
    os.precision(17);
    os << "dt " << dt << " s cannot be written to SEG-Y: its sample interval is a whole number of microseconds, 1..32767 us";
    throw InputError(os.str());
  }
  return static_cast<std::int64_t>(whole);
}

double segy_dt_floor(double dt) {
  const double us = std::floor(dt * 1e6 + 1e-9);
  if (!(us >= 1)) throw InputError("dt " + format_double(dt) + " s is below SEG-Y's smallest sample interval of 1 us");
  return segy_dt(static_cast<std::int64_t>(std::min(us, 32767.0)));
}

SegySurvey read_segy(const std::string& path, const SegyReadOptions& options) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw IoError(path + ": cannot be read: " + ec.message());
  if (size < SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE) {
    throw IoError(path + ": is not SEG-Y: " + std::to_string(size) + " bytes, shorter than the 3600 bytes of textual and binary headers");
  }
  SegyHandle fp(segy_open(path.c_str(), "rb"));
  if (!fp) throw IoError(path + ": cannot be opened: " + std::strerror(errno));
  std::vector<char> text(static_cast<std::size_t>(segy_textheader_size()) + 1, 0);
  char bin[SEGY_BINARY_HEADER_SIZE];
  if (segy_read_textheader(fp.get(), text.data()) != SEGY_OK || segy_binheader(fp.get(), bin) != SEGY_OK) {
    throw IoError(path + ": its textual and binary headers cannot be read");
  }
  const int format = segy_format(bin);
  if (format != SEGY_IBM_FLOAT_4_BYTE && format != SEGY_IEEE_FLOAT_4_BYTE) {
    if (format < 1 || format > 16) {
      throw IoError(path + ": is not SEG-Y (or not big-endian): binary header sample format code " + std::to_string(format));
    }
    throw IoError(path + ": sample format code " + std::to_string(format) + " is not supported: 1 (IBM float) or 5 (IEEE float)");
  }
  const int samples = segy_samples(bin);
  if (samples < 1) throw IoError(path + ": binary header sample count " + std::to_string(samples) + " is invalid: at least 1");
  std::int32_t interval = 0, ext_headers = 0, units = 0;
  segy_get_bfield(bin, SEGY_BIN_INTERVAL, &interval);
  segy_get_bfield(bin, SEGY_BIN_EXT_HEADERS, &ext_headers);
  segy_get_bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM, &units);
  if (interval < 0) throw IoError(path + ": binary header sample interval " + std::to_string(interval) + " us is invalid");
  if (ext_headers < 0 || ext_headers > 100) {
    throw IoError(path + ": binary header extended textual header count " + std::to_string(ext_headers) + " is not supported (0..100)");
  }
  if (units != 0 && units != 1 && units != 2) {
    throw IoError(path + ": binary header measurement system " + std::to_string(units) + " is invalid: 1 (metres) or 2 (feet)");
  }
  const double unit = units == 2 ? 0.3048 : 1.0;
  const long trace0 = segy_trace0(bin);
  const int trace_bytes = segy_trsize(format, samples);
  if (segy_set_format(fp.get(), format) != SEGY_OK) throw IoError(path + ": segyio refuses sample format " + std::to_string(format));
  const long long record = trace_bytes + SEGY_TRACE_HEADER_SIZE;
  if (static_cast<long long>(size) < trace0 || (static_cast<long long>(size) - trace0) % record != 0) {
    throw IoError(path + ": file size " + std::to_string(size) + " bytes is not its headers (" + std::to_string(trace0) +
                  ") plus whole traces of " + std::to_string(record) + " bytes: truncated, or not SEG-Y");
  }
  const long long ntraces = (static_cast<long long>(size) - trace0) / record;
  if (ntraces < 1) throw IoError(path + ": holds no traces");
  if (ntraces > 2147483647LL) throw IoError(path + ": too many traces for segyio");

  SegySurvey s;
  s.nt = samples;
  read_stamp(text.data(), s);
  TraceReader reader(path, fp.get(), trace0, trace_bytes, format, samples);
  std::vector<RawTrace> live;
  std::vector<double> data;  // live traces' samples, one after another
  char th[SEGY_TRACE_HEADER_SIZE];
  bool every_record = true;
  std::int32_t file_interval = interval;
  for (int t = 0; t < static_cast<int>(ntraces); ++t) {
    reader.header(t, th);
    const std::string where = path + ": trace " + std::to_string(t);
    const std::int32_t id = field(th, SEGY_TR_TRACE_ID);
    if (id == 2 || id == 3) {  // dead or dummy
      ++s.dead_traces;
      continue;
    }
    const std::int32_t count = field(th, SEGY_TR_SAMPLE_COUNT), dt_us = field(th, SEGY_TR_SAMPLE_INTER);
    if (count != 0 && count != samples) {
      throw IoError(where + " has " + std::to_string(count) + " samples, the binary header says " + std::to_string(samples) +
                    ": traces of different lengths are not supported");
    }
    if (dt_us < 0) throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us is invalid");
    if (dt_us != 0) {
      if (file_interval == 0) file_interval = dt_us;
      if (dt_us != file_interval) {
        throw IoError(where + ": sample interval " + std::to_string(dt_us) + " us disagrees with the file's " +
                      std::to_string(file_interval) + " us (" + (interval != 0 ? "binary header" : "earlier traces") + ")");
      }
    }
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
    if (r.field_record == 0) every_record = false;
    const auto& o = options.origin;
    r.source = {apply_scalar(field(th, SEGY_TR_SOURCE_X), cs) * unit - o[0], apply_scalar(field(th, SEGY_TR_SOURCE_Y), cs) * unit - o[1],
                (apply_scalar(field(th, SEGY_TR_SOURCE_DEPTH), es) - apply_scalar(field(th, SEGY_TR_SOURCE_SURF_ELEV), es)) * unit - o[2]};
    r.receiver = {apply_scalar(field(th, SEGY_TR_GROUP_X), cs) * unit - o[0], apply_scalar(field(th, SEGY_TR_GROUP_Y), cs) * unit - o[1],
                  -apply_scalar(field(th, SEGY_TR_RECV_GROUP_ELEV), es) * unit - o[2]};
    live.push_back(r);
    data.resize(data.size() + static_cast<std::size_t>(samples));
    reader.samples(t, data.data() + data.size() - static_cast<std::size_t>(samples));
  }
  if (live.empty()) throw IoError(path + ": every one of its " + std::to_string(ntraces) + " traces is dead or dummy");
  if (file_interval == 0) throw IoError(path + ": sample interval is 0 us in the binary header and in every trace header");
  s.dt = segy_dt(file_interval);

  // Group into shots, in the order of their first trace.
  s.grouping = every_record ? "FieldRecord" : "source position";
  std::map<std::int64_t, std::size_t> by_record;
  std::map<std::array<double, 3>, std::size_t> by_source;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < live.size(); ++i) {
    const RawTrace& r = live[i];
    std::size_t shot = members.size();
    if (every_record) {
      const auto it = by_record.emplace(r.field_record, shot).first;
      shot = it->second;
    } else {
      const auto it = by_source.emplace(r.source, shot).first;
      shot = it->second;
    }
    if (shot == members.size()) {
      members.emplace_back();
      SegyShot sh;
      sh.field_record = r.field_record;
      sh.source = r.source;
      s.shots.push_back(sh);
    } else if (every_record && s.shots[shot].source != r.source) {
      throw IoError(path + ": FieldRecord " + std::to_string(r.field_record) + " has traces " +
                    std::to_string(live[members[shot].front()].number) + " and " + std::to_string(r.number) +
                    " with different source positions: one record must be one shot");
    }
    members[shot].push_back(i);
  }
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    SegyShot& sh = s.shots[k];
    const std::size_t nrec = members[k].size();
    sh.traces.assign(nrec * static_cast<std::size_t>(samples), 0.0);
    for (std::size_t j = 0; j < nrec; ++j) {
      const std::size_t i = members[k][j];
      sh.receivers.push_back(live[i].receiver);
      sh.trace_numbers.push_back(live[i].number);
      const double* src = data.data() + i * static_cast<std::size_t>(samples);
      for (int n = 0; n < samples; ++n) sh.traces[static_cast<std::size_t>(n) * nrec + j] = src[n];
    }
  }
  return s;
}

namespace {

struct Scalars {
  std::int32_t coord = 1, elev = 1;
};

Scalars choose_scalars(const SegySurvey& s, const std::array<double, 3>& origin) {
  double xy = 0, z = 0;
  auto visit = [&](const std::array<double, 3>& p) {
    xy = std::max({xy, std::abs(p[0] + origin[0]), std::abs(p[1] + origin[1])});
    z = std::max(z, std::abs(p[2] + origin[2]));
  };
  for (const SegyShot& sh : s.shots) {
    visit(sh.source);
    for (const auto& r : sh.receivers) visit(r);
  }
  return {choose_scalar(xy), choose_scalar(z)};
}

// What the file stores for a point, and what reading it back gives.
double round_trip(double value, double origin, std::int32_t scalar) {
  return apply_scalar(to_stored(value + origin, scalar), scalar) - origin;
}

void check_writable(const SegySurvey& s) {
  if (s.shots.empty()) throw InputError("a SEG-Y survey needs at least one shot");
  if (s.nt < 1 || s.nt > 32767) {
    throw InputError("nt " + std::to_string(s.nt) + " samples cannot be written to SEG-Y: 1..32767 samples per trace");
  }
  segy_interval_us(s.dt);
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    const SegyShot& sh = s.shots[k];
    const std::string which = "shot " + std::to_string(k);
    if (sh.receivers.empty()) throw InputError(which + " has no receivers");
    if (sh.traces.size() != sh.receivers.size() * static_cast<std::size_t>(s.nt)) {
      throw InputError(which + " has " + std::to_string(sh.traces.size()) + " samples, expected nt x nrec = " +
                       std::to_string(s.nt) + " x " + std::to_string(sh.receivers.size()));
    }
    for (double v : sh.traces) {
      if (!std::isfinite(static_cast<float>(v))) throw InputError(which + ": a sample is not finite as float32");
    }
    for (double c : sh.source) {
      if (!std::isfinite(c)) throw InputError(which + ": source coordinates must be finite");
    }
    for (const auto& r : sh.receivers) {
      for (double c : r) {
        if (!std::isfinite(c)) throw InputError(which + ": receiver coordinates must be finite");
      }
    }
  }
}

std::string text_header(const SegySurvey& s, const std::array<double, 3>& origin, std::int64_t interval_us) {
  std::size_t traces = 0;
  for (const SegyShot& sh : s.shots) traces += sh.receivers.size();
  std::vector<std::string> lines = {
      "SYNTHETIC SURVEY WRITTEN BY REVWAVE 0.1.0: 3D ACOUSTIC, CONSTANT DENSITY",
      "SHOTS " + std::to_string(s.shots.size()) + "  TRACES " + std::to_string(traces) + "  SAMPLES " +
          std::to_string(s.nt) + "  INTERVAL " + std::to_string(interval_us) + " US  IEEE FLOAT32",
      s.f0 > 0 ? "REVWAVE RICKER F0=" + format_double(s.f0) + " T0=" + format_double(s.t0)
               : std::string("SOURCE: A SAMPLED SIGNATURE, NOT STORED IN THIS FILE"),
      "WAVELET: UNIT-PEAK RICKER, F0 IN HZ, DELAY T0 IN S, DELTA SOURCE OF WEIGHT 1/H^3",
      "COORDINATES IN METRES: X, Y WITH SOURCEGROUPSCALAR (BYTES 71-72)",
      "DEPTH POSITIVE DOWN: SOURCE = SOURCEDEPTH, RECEIVER = -RECEIVERGROUPELEVATION",
      "DEPTHS AND ELEVATIONS WITH ELEVATIONSCALAR (BYTES 69-70)",
      "MODEL ORIGIN IN FILE COORDINATES X0=" + format_double(origin[0]) + " Y0=" + format_double(origin[1]) +
          " Z0=" + format_double(origin[2]),
      "SHOT SORTED: FIELDRECORD = SHOT NUMBER, TRACENUMBER = CHANNEL, FROM 1",
  };
  std::string text;
  for (int i = 0; i < 40; ++i) {
    char head[8];
    std::snprintf(head, sizeof head, "C%2d ", i + 1);
    std::string line = head;
    if (i < static_cast<int>(lines.size())) line += lines[static_cast<std::size_t>(i)];
    if (i == 38) line += "SEG Y REV1";
    if (i == 39) line += "END TEXTUAL HEADER";
    line.resize(80, ' ');
    text += line;
  }
  return text;
}

void check_rc(int rc, const std::string& path, const char* what) {
  if (rc != SEGY_OK) throw IoError(path + ": cannot write the " + what + " (segyio error " + std::to_string(rc) + ")");
}

void write_segy_to(const std::string& path, const std::string& tmp, const SegySurvey& s, const std::array<double, 3>& origin,
                   std::int64_t interval_us, const Scalars& sc) {
  SegyHandle fp(segy_open(tmp.c_str(), "w+b"));
  if (!fp) throw IoError(path + ": cannot create file: " + std::strerror(errno));
  const std::string text = text_header(s, origin, interval_us);
  check_rc(segy_write_textheader(fp.get(), 0, text.c_str()), path, "textual header");
  std::size_t max_fold = 0;
  for (const SegyShot& sh : s.shots) max_fold = std::max(max_fold, sh.receivers.size());
  char bin[SEGY_BINARY_HEADER_SIZE] = {};
  const auto fold = static_cast<std::int32_t>(std::min<std::size_t>(max_fold, 32767));
  segy_set_bfield(bin, SEGY_BIN_JOB_ID, 1);
  segy_set_bfield(bin, SEGY_BIN_LINE_NUMBER, 1);
  segy_set_bfield(bin, SEGY_BIN_REEL_NUMBER, 1);
  segy_set_bfield(bin, SEGY_BIN_TRACES, fold);
  segy_set_bfield(bin, SEGY_BIN_INTERVAL, static_cast<std::int32_t>(interval_us));
  segy_set_bfield(bin, SEGY_BIN_SAMPLES, static_cast<std::int32_t>(s.nt));
  segy_set_bfield(bin, SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE);
  segy_set_bfield(bin, SEGY_BIN_ENSEMBLE_FOLD, fold);
  segy_set_bfield(bin, SEGY_BIN_SORTING_CODE, 1);  // as recorded: shot gathers
  segy_set_bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM, 1);
  segy_set_bfield(bin, SEGY_BIN_SEGY_REVISION, 0x0100);
  segy_set_bfield(bin, SEGY_BIN_TRACE_FLAG, 1);
  segy_set_bfield(bin, SEGY_BIN_EXT_HEADERS, 0);
  check_rc(segy_write_binheader(fp.get(), bin), path, "binary header");
  check_rc(segy_set_format(fp.get(), SEGY_IEEE_FLOAT_4_BYTE), path, "sample format");
  const long trace0 = segy_trace0(bin);
  const int trace_bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, static_cast<int>(s.nt));
  std::vector<float> samples(static_cast<std::size_t>(s.nt));
  int traceno = 0;
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    const SegyShot& sh = s.shots[k];
    const std::size_t nrec = sh.receivers.size();
    for (std::size_t r = 0; r < nrec; ++r, ++traceno) {
      const auto& g = sh.receivers[r];
      char th[SEGY_TRACE_HEADER_SIZE] = {};
      segy_set_field(th, SEGY_TR_SEQ_LINE, traceno + 1);
      segy_set_field(th, SEGY_TR_SEQ_FILE, traceno + 1);
      segy_set_field(th, SEGY_TR_FIELD_RECORD, static_cast<std::int32_t>(k + 1));
      segy_set_field(th, SEGY_TR_NUMBER_ORIG_FIELD, static_cast<std::int32_t>(r + 1));
      segy_set_field(th, SEGY_TR_ENERGY_SOURCE_POINT, static_cast<std::int32_t>(k + 1));
      segy_set_field(th, SEGY_TR_NUM_IN_ENSEMBLE, static_cast<std::int32_t>(r + 1));
      segy_set_field(th, SEGY_TR_TRACE_ID, 1);
      segy_set_field(th, SEGY_TR_DATA_USE, 1);
      segy_set_field(th, SEGY_TR_OFFSET, static_cast<std::int32_t>(std::llround(std::hypot(g[0] - sh.source[0], g[1] - sh.source[1]))));
      segy_set_field(th, SEGY_TR_RECV_GROUP_ELEV, -to_stored(g[2] + origin[2], sc.elev));
      segy_set_field(th, SEGY_TR_SOURCE_SURF_ELEV, 0);
      segy_set_field(th, SEGY_TR_SOURCE_DEPTH, to_stored(sh.source[2] + origin[2], sc.elev));
      segy_set_field(th, SEGY_TR_ELEV_SCALAR, sc.elev);
      segy_set_field(th, SEGY_TR_SOURCE_GROUP_SCALAR, sc.coord);
      segy_set_field(th, SEGY_TR_SOURCE_X, to_stored(sh.source[0] + origin[0], sc.coord));
      segy_set_field(th, SEGY_TR_SOURCE_Y, to_stored(sh.source[1] + origin[1], sc.coord));
      segy_set_field(th, SEGY_TR_GROUP_X, to_stored(g[0] + origin[0], sc.coord));
      segy_set_field(th, SEGY_TR_GROUP_Y, to_stored(g[1] + origin[1], sc.coord));
      segy_set_field(th, SEGY_TR_COORD_UNITS, 1);
      segy_set_field(th, SEGY_TR_SAMPLE_COUNT, static_cast<std::int32_t>(s.nt));
      segy_set_field(th, SEGY_TR_SAMPLE_INTER, static_cast<std::int32_t>(interval_us));
      check_rc(segy_write_traceheader(fp.get(), traceno, th, trace0, trace_bytes), path, "trace header");
      for (std::int64_t n = 0; n < s.nt; ++n) samples[static_cast<std::size_t>(n)] = static_cast<float>(sh.traces[static_cast<std::size_t>(n) * nrec + r]);
      check_rc(segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, s.nt, samples.data()), path, "samples");
      check_rc(segy_writetrace(fp.get(), traceno, samples.data(), trace0, trace_bytes), path, "samples");
    }
  }
  check_rc(segy_flush(fp.get(), false), path, "file");
  segy_file* raw = fp.release();
  check_rc(segy_close(raw), path, "file");
}

}  // namespace

void round_to_segy_coordinates(SegySurvey& s, const std::array<double, 3>& origin) {
  const Scalars sc = choose_scalars(s, origin);
  auto round_point = [&](std::array<double, 3>& p) {
    p[0] = round_trip(p[0], origin[0], sc.coord);
    p[1] = round_trip(p[1], origin[1], sc.coord);
    p[2] = round_trip(p[2], origin[2], sc.elev);
  };
  for (SegyShot& sh : s.shots) {
    round_point(sh.source);
    for (auto& r : sh.receivers) round_point(r);
  }
}

void write_segy(const std::string& path, const SegySurvey& s, const std::array<double, 3>& origin) {
  check_writable(s);
  const std::int64_t interval_us = segy_interval_us(s.dt);
  const Scalars sc = choose_scalars(s, origin);
  write_file_atomically_at(path, [&](const std::string& tmp) { write_segy_to(path, tmp, s, origin, interval_us, sc); });
}

}  // namespace revwave
