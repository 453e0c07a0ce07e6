// Writing SEG-Y on segyio's C library: the checks, the headers revwave writes, one trace per
// receiver shot after shot, and the coordinate rounding that makes modelled data match the file.
#include <segyio/segy.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/segy.hpp"
#include "segy_scalars.hpp"

namespace revwave {
namespace {

using namespace segy_detail;

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
      "SYNTHETIC SURVEY WRITTEN BY REVWAVE " REVWAVE_VERSION ": ACOUSTIC WAVE EQUATION",
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

// Returns where the first trace starts.
long write_binary_header(segy_file* fp, const std::string& path, const SegySurvey& s, std::int64_t interval_us) {
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
  check_rc(segy_write_binheader(fp, bin), path, "binary header");
  return segy_trace0(bin);
}

// The header of trace `traceno`: receiver r of shot k.
void fill_trace_header(char* th, int traceno, std::size_t k, std::size_t r, const SegyShot& sh, const SegySurvey& s,
                       const std::array<double, 3>& origin, std::int64_t interval_us, const Scalars& sc) {
  const auto& g = sh.receivers[r];
  segy_set_field(th, SEGY_TR_SEQ_LINE, traceno + 1);
  segy_set_field(th, SEGY_TR_SEQ_FILE, traceno + 1);
  segy_set_field(th, SEGY_TR_FIELD_RECORD, static_cast<std::int32_t>(k + 1));
  segy_set_field(th, SEGY_TR_NUMBER_ORIG_FIELD, static_cast<std::int32_t>(r + 1));
  segy_set_field(th, SEGY_TR_ENERGY_SOURCE_POINT, static_cast<std::int32_t>(k + 1));
  segy_set_field(th, SEGY_TR_NUM_IN_ENSEMBLE, static_cast<std::int32_t>(r + 1));
  segy_set_field(th, SEGY_TR_TRACE_ID, 1);
  segy_set_field(th, SEGY_TR_DATA_USE, 1);
  segy_set_field(th, SEGY_TR_OFFSET,
                 static_cast<std::int32_t>(std::llround(std::hypot(g[0] - sh.source[0], g[1] - sh.source[1]))));
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
}

void write_segy_to(const std::string& path, const std::string& tmp, const SegySurvey& s,
                   const std::array<double, 3>& origin, std::int64_t interval_us, const Scalars& sc) {
  SegyHandle fp(segy_open(tmp.c_str(), "w+b"));
  if (!fp) throw IoError(path + ": cannot create file: " + std::strerror(errno));
  const std::string text = text_header(s, origin, interval_us);
  check_rc(segy_write_textheader(fp.get(), 0, text.c_str()), path, "textual header");
  const long trace0 = write_binary_header(fp.get(), path, s, interval_us);
  check_rc(segy_set_format(fp.get(), SEGY_IEEE_FLOAT_4_BYTE), path, "sample format");
  const int trace_bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, static_cast<int>(s.nt));
  std::vector<float> samples(static_cast<std::size_t>(s.nt));
  int traceno = 0;
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    const SegyShot& sh = s.shots[k];
    const std::size_t nrec = sh.receivers.size();
    for (std::size_t r = 0; r < nrec; ++r, ++traceno) {
      char th[SEGY_TRACE_HEADER_SIZE] = {};
      fill_trace_header(th, traceno, k, r, sh, s, origin, interval_us, sc);
      check_rc(segy_write_traceheader(fp.get(), traceno, th, trace0, trace_bytes), path, "trace header");
      for (std::int64_t n = 0; n < s.nt; ++n)
        samples[static_cast<std::size_t>(n)] = static_cast<float>(sh.traces[static_cast<std::size_t>(n) * nrec + r]);
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
