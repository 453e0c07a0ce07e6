#include "revwave/survey/survey.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/misfit/wavelet_estimate.hpp"
#include "revwave/numerics/sparse_points.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

std::string number(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// Where a shot's source comes from, by the rules of read_survey.
void set_wavelet(Shot& shot, bool file_has_wavelet, double file_f0, double file_t0, const std::string& file,
                 const SurveyReadOptions& o) {
  if (!o.wavelet.empty()) {
    shot.wavelet = o.wavelet;
    shot.acquisition.f0 = file_has_wavelet ? file_f0 : 1.0;  // unused by a sampled signature
    shot.acquisition.t0 = file_has_wavelet ? file_t0 : 0.0;
    return;
  }
  if (file_has_wavelet) {
    if (o.f0 != 0 && o.f0 != file_f0) {
      throw InputError("--f0 " + number(o.f0) + " Hz contradicts the wavelet recorded in " + file +
                       " (f0 = " + number(file_f0) + " Hz): leave --f0 out");
    }
    shot.acquisition.f0 = file_f0;
    shot.acquisition.t0 = file_t0;
    return;
  }
  if (o.f0 == 0 && o.estimate_wavelet) {  // its data's peak frequency, once they are read (read_survey)
    shot.acquisition.f0 = 0;
    shot.acquisition.t0 = 0;
    return;
  }
  if (o.f0 == 0) {
    throw InputError(
        file + " does not say what the source wavelet was: give --f0 HZ (Ricker, delay 1.5/f0) or --wavelet FILE.npy");
  }
  shot.acquisition.f0 = o.f0;
  shot.acquisition.t0 = checked_wavelet_delay(o.f0, "--f0");
}

// Shots whose file said nothing of the wavelet, under --estimate-wavelet: f0 is their data's peak
// frequency (for the checks that need a band; the signature itself is estimated), t0 = 1.5 / f0.
void take_f0_from_data(Survey& out) {
  std::string said;
  for (Shot& shot : out.shots) {
    if (shot.acquisition.f0 != 0 || !shot.wavelet.empty()) continue;
    const auto nrec = static_cast<index_t>(shot.acquisition.receivers.size());
    const double f = data_peak_frequency(shot.data.data(), shot.time.nt(), nrec, shot.time.dt);
    if (!(f > 0)) {
      throw InputError(shot.name +
                       ": its data are zero everywhere and the file says nothing of the wavelet: give --f0 HZ");
    }
    shot.acquisition.f0 = f;
    shot.acquisition.t0 = 1.5 / f;
    if (said.empty()) {
      char hz[32];
      std::snprintf(hz, sizeof hz, "%.3g", f);
      said = std::string(hz) + " Hz for " + shot.name;
    }
  }
  if (!said.empty()) {
    out.warnings.push_back(
        "the survey says nothing of its source wavelet: --estimate-wavelet estimates it, and the "
        "sampling checks take each shot's data's peak frequency as f0 (" +
        said + ")");
  }
}

void read_record(const std::string& path, const SurveyReadOptions& o, Survey& out) {
  const ShotRecord rec = read_shot_record(path);
  Shot shot;
  shot.name = path;
  shot.acquisition.sources = rec.meta.sources;
  shot.acquisition.receivers = rec.meta.receivers;
  set_wavelet(shot, true, rec.meta.f0, rec.meta.t0, path, o);
  shot.time.dt = rec.meta.dt;
  shot.time.steps = rec.meta.nt - 1;
  shot.data = rec.traces;
  out.shots.push_back(std::move(shot));
}

}  // namespace

void from_segy(const SegySurvey& s, const std::string& path, Survey& out) {
  for (std::size_t k = 0; k < s.shots.size(); ++k) {
    const SegyShot& g = s.shots[k];
    Shot shot;
    shot.name = path + " shot " + std::to_string(k);
    if (g.field_record != 0) shot.name += " (FieldRecord " + std::to_string(g.field_record) + ")";
    shot.acquisition.sources = {g.source};
    shot.acquisition.receivers = g.receivers;
    shot.acquisition.f0 = s.f0;
    shot.acquisition.t0 = s.t0;
    shot.time.dt = s.dt;
    shot.time.steps = s.nt - 1;
    shot.data = g.traces;
    shot.trace_numbers = g.trace_numbers;
    out.shots.push_back(std::move(shot));
  }
}

namespace {

// A survey directory's .npy records, in name order (the order its shots are read in).
std::vector<std::string> directory_records(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> records;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".npy") records.push_back(e.path().string());
  std::sort(records.begin(), records.end());
  return records;
}

// The files `path` reads: a directory's records, else the path itself.
std::vector<std::string> files_read(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) ? directory_records(path) : std::vector<std::string>{path};
}

// A record given twice (rec.npy ./rec.npy, or a directory and a record in it) would count its shots
// twice in J and g: refused, naming both. Files are told apart by device and inode.
void refuse_repeated_files(const std::vector<std::string>& paths) {
  std::map<std::pair<dev_t, ino_t>, std::string> seen;  // a file read, and the path that read it
  for (const std::string& path : paths) {
    for (const std::string& f : files_read(path)) {
      struct stat st {};
      if (::stat(f.c_str(), &st) != 0) continue;  // the reader names a file it cannot open
      const auto [it, fresh] = seen.emplace(std::make_pair(st.st_dev, st.st_ino), path);
      if (!fresh) {
        throw InputError("--observed " + it->second + " and " + path + " read one file, " + f +
                         ", twice: each record counts once in J and the gradient, give it once");
      }
    }
  }
}

}  // namespace

Survey read_survey(const std::vector<std::string>& paths, const SurveyReadOptions& o) {
  if (paths.empty()) throw InputError("a survey needs at least one file");
  refuse_repeated_files(paths);
  Survey out;
  std::vector<std::string> parts;
  for (const std::string& path : paths) {
    std::error_code ec;
    const std::size_t before = out.shots.size();
    if (fs::is_directory(path, ec)) {
      const std::vector<std::string> records = directory_records(path);
      if (records.empty())
        throw InputError(path + ": a survey directory must hold .npy shot records with their sidecars");
      for (const std::string& r : records) read_record(r, o, out);
      parts.push_back(path + ": " + std::to_string(records.size()) + " records");
    } else if (is_segy_path(path)) {
      SegyReadOptions ro = o.segy;
      ro.origin = o.origin;
      const SegySurvey s = read_segy(path, ro);
      out.warnings.insert(out.warnings.end(), s.warnings.begin(), s.warnings.end());
      from_segy(s, path, out);
      for (std::size_t k = before; k < out.shots.size(); ++k) set_wavelet(out.shots[k], s.f0 > 0, s.f0, s.t0, path, o);
      parts.push_back(path + ": " + std::to_string(s.shots.size()) + " shots grouped by " + s.grouping +
                      (s.dead_traces ? ", " + std::to_string(s.dead_traces) + " dead traces skipped" : ""));
    } else {
      read_record(path, o, out);
      parts.push_back(path);
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) out.description += (i ? "; " : "") + parts[i];
  take_f0_from_data(out);
  return out;
}

void check_survey(const Survey& survey, const Grid& grid, const VelocityModel& model) {
  if (survey.shots.empty()) throw InputError("the survey has no shots");
  const double vmax = max_velocity(model);
  const double physics_factor = physics_dt_factor(grid, model);
  for (const Shot& shot : survey.shots) {
    const auto& a = shot.acquisition;
    if (a.sources.empty()) throw InputError(shot.name + ": no source");
    if (a.receivers.empty()) throw InputError(shot.name + ": no receiver");
    check_sources_below_free_surface(grid, a.sources, shot.name + ": source");
    trilinear_points(grid, a.sources, shot.name + ": source");
    for (std::size_t r = 0; r < a.receivers.size(); ++r) {
      std::string what = shot.name + ": receiver";
      if (r < shot.trace_numbers.size())
        what = shot.name + ": trace " + std::to_string(shot.trace_numbers[r]) + ", receiver";
      std::vector<Vec3> one{a.receivers[r]};
      try {
        trilinear_points(grid, one, what);
      } catch (const InputError& e) {
        // Name the receiver's number in the shot, not 0.
        std::string msg = e.what();
        const std::string prefix = what + " 0 ";
        if (msg.rfind(prefix, 0) == 0) msg = what + " " + std::to_string(r) + " " + msg.substr(prefix.size());
        throw InputError(msg);
      }
    }
    if (shot.time.steps < 1)
      throw InputError(shot.name + ": nt " + std::to_string(shot.time.nt()) + " is too short: at least 2 samples");
    const auto expected = static_cast<std::size_t>(shot.time.nt()) * a.receivers.size();
    if (!shot.data.empty() && shot.data.size() != expected) {
      throw InputError(shot.name + ": data have " + std::to_string(shot.data.size()) +
                       " values, expected nt x nrec = " + std::to_string(shot.time.nt()) + " x " +
                       std::to_string(a.receivers.size()));
    }
    if (!shot.wavelet.empty() && static_cast<index_t>(shot.wavelet.size()) != shot.time.nt()) {
      throw InputError(shot.name + ": the source signature has " + std::to_string(shot.wavelet.size()) +
                       " samples, the shot's time axis " + std::to_string(shot.time.nt()));
    }
    for (double w : shot.wavelet) {
      if (!std::isfinite(w)) throw InputError(shot.name + ": the source signature has a sample that is not finite");
    }
    if (shot.substeps < 1)
      throw InputError(shot.name + ": substeps " + std::to_string(shot.substeps) + " is invalid: at least 1");
    try {
      check_stable(simulation_time(shot).dt, grid, vmax, physics_factor);
    } catch (const InputError& e) {
      throw InputError(shot.name + ": " + e.what());
    }
  }
}

TimeAxis simulation_time(const Shot& shot) { return simulation_time(shot.time, shot.substeps); }

TimeAxis simulation_time(const TimeAxis& data, index_t substeps) {
  if (substeps == 1) return data;
  TimeAxis t;
  t.dt = data.dt / static_cast<double>(substeps);
  t.steps = simulation_samples(data.nt(), substeps) - 1;  // past the record's end: record_resampling.hpp
  return t;
}

std::vector<double> simulation_wavelet(const Shot& shot) { return interpolate_signature(shot.wavelet, shot.substeps); }

index_t stable_substeps(double dt, const Grid& grid, double max_velocity, double physics_factor,
                        const std::string& record) {
  const double limit = max_stable_dt(grid, max_velocity) * physics_factor;
  if (!(std::isfinite(dt) && dt > 0) || !(limit > 0)) return 1;  // check_stable names a bad dt
  const double k = dt <= limit ? 1.0 : std::ceil(dt / (0.9 * limit));
  // A sample interval a million times finer than the stable step, or one that takes a million steps a
  // sample, is a unit slip (ns or ks for s), not data: refused in the words of the record's dt, not
  // later in those of m / dt^2 or of a step count.
  if (dt < limit * 1e-6 || !(k < 1e6)) {
    std::ostringstream os;
    os.precision(6);
    os << record << ": dt " << dt << " s ";
    if (k == 1.0) {
      os << "is " << limit / dt << " times finer than the largest stable step, " << limit
         << " s, and a sample interval must be at least 1e-6 of it: check the record's sample interval and its units";
    } else {
      os << "would take " << k << " simulation steps per sample (the largest stable step is " << limit
         << " s): check the record's sample interval and the model's units";
    }
    throw InputError(os.str());
  }
  return static_cast<index_t>(k);
}

std::string substeps_sentence(double dt, index_t substeps, double max_velocity) {
  std::ostringstream os;
  os.precision(6);
  os << "records sampled every " << dt * 1e3 << " ms are simulated in " << substeps << " steps of "
     << dt / static_cast<double>(substeps) * 1e3 << " ms each (stable for " << max_velocity
     << " m/s) and the traces resampled to them, band-limited to " << 0.45 / dt << " Hz";
  return os.str();
}

std::vector<std::string> choose_substeps(Survey& survey, const Grid& grid, double max_velocity, double physics_factor) {
  std::vector<std::string> said;
  for (Shot& shot : survey.shots) {
    shot.substeps = stable_substeps(shot.time.dt, grid, max_velocity, physics_factor, shot.name);
    if (shot.substeps == 1) continue;
    const std::string sentence = substeps_sentence(shot.time.dt, shot.substeps, max_velocity);
    if (std::find(said.begin(), said.end(), sentence) == said.end()) said.push_back(sentence);
  }
  return said;
}

Survey layout_survey(const SurveyLayout& l, const Grid& grid) {
  if (l.sources.empty()) throw InputError("a survey needs at least one source");
  Survey out;
  for (std::size_t s = 0; s < l.sources.size(); ++s) {
    Shot shot;
    shot.name = "shot " + std::to_string(s);
    shot.acquisition.sources = {l.sources[s]};
    shot.acquisition.f0 = l.f0;
    shot.acquisition.t0 = l.t0;
    shot.wavelet = l.wavelet;
    shot.time = l.time;
    if (!l.moving_spread) {
      shot.acquisition.receivers = l.receivers;
    } else {
      for (const Vec3& r : l.receivers) {
        const Vec3 p{r[0] - l.spread_centre[0] + l.sources[s][0], r[1] - l.spread_centre[1] + l.sources[s][1], r[2]};
        if (p[0] >= 0 && p[0] <= grid.extent(0) && p[1] >= 0 && p[1] <= grid.extent(1))
          shot.acquisition.receivers.push_back(p);
      }
      if (shot.acquisition.receivers.empty()) {
        throw InputError("shot " + std::to_string(s) + ": the moving spread has no receiver left inside the grid");
      }
    }
    out.shots.push_back(std::move(shot));
  }
  out.description = std::to_string(out.shots.size()) + " shots laid out";
  return out;
}

SegySurvey to_segy(const Survey& survey) {
  SegySurvey s;
  if (survey.shots.empty()) throw InputError("the survey has no shots");
  const Shot& first = survey.shots.front();
  s.dt = first.time.dt;
  s.nt = first.time.nt();
  s.f0 = first.wavelet.empty() ? first.acquisition.f0 : 0.0;
  s.t0 = first.wavelet.empty() ? first.acquisition.t0 : 0.0;
  for (const Shot& shot : survey.shots) {
    if (shot.acquisition.sources.size() != 1) {
      throw InputError(
          shot.name + " has " + std::to_string(shot.acquisition.sources.size()) +
          " simultaneous sources: a SEG-Y trace header holds one source position (write .npy records instead)");
    }
    if (shot.time.dt != s.dt || shot.time.nt() != s.nt)
      throw InputError(shot.name + ": every shot of a SEG-Y file has the same dt and nt");
    SegyShot g;
    g.source = shot.acquisition.sources.front();
    g.receivers = shot.acquisition.receivers;
    g.traces = shot.data;
    s.shots.push_back(std::move(g));
  }
  return s;
}

}  // namespace revwave
