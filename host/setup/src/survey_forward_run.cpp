#include "revwave/setup/survey_forward_run.hpp"
#include "revwave/setup/problem_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/segy.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/option_text.hpp"
#include "revwave/setup/plausibility.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {
namespace {

namespace fs = std::filesystem;

// SEG-Y keeps whole microseconds: the default dt is rounded down to one, a given dt must be one.
TimeAxis survey_time(const ProblemOptions& o, const ProblemSetup& setup, SurveyFormat format) {
  ProblemOptions po = o;
  if (format == SurveyFormat::segy) {
    if (!po.dt)
      po.dt = segy_dt_floor(default_dt(setup.grid, setup.model));
    else
      po.dt = segy_dt(segy_interval_us(*po.dt));
  }
  return make_time(po, setup);
}

// The file's limits on the survey; for SEG-Y, the shots moved to the positions the file will hold, so
// that its headers describe its data exactly. Returns how far the farthest point moved (m).
double fit_to_format(Survey& survey, const TimeAxis& time, SurveyFormat format, const std::array<double, 3>& origin,
                     const std::string& out) {
  double moved = 0;
  if (format == SurveyFormat::segy) {
    if (time.nt() > 32767)
      throw InputError("nt " + std::to_string(time.nt()) + " samples cannot be written to SEG-Y: at most 32767");
    SegySurvey g = to_segy(survey);
    round_to_segy_coordinates(g, origin);
    const auto farthest = [&moved](const std::vector<Vec3>& before, const std::vector<Vec3>& after) {
      for (std::size_t i = 0; i < before.size() && i < after.size(); ++i)
        for (int a = 0; a < 3; ++a) moved = std::max(moved, std::abs(after[i][a] - before[i][a]));
    };
    for (std::size_t s = 0; s < survey.shots.size(); ++s) {
      farthest(survey.shots[s].acquisition.sources, {g.shots[s].source});
      farthest(survey.shots[s].acquisition.receivers, g.shots[s].receivers);
      survey.shots[s].acquisition.sources = {g.shots[s].source};
      survey.shots[s].acquisition.receivers = g.shots[s].receivers;
    }
  } else if (format == SurveyFormat::record && survey.shots.size() > 1) {
    throw InputError("--out " + out + ": a survey of " + std::to_string(survey.shots.size()) +
                     " shots goes into a SEG-Y file (.sgy, .segy) or a directory of records, not one .npy");
  }
  return moved;
}

// The records of a survey in a new directory, shot_0000.npy + shot_0000.json, ...; built under a
// temporary name and renamed when complete.
void refuse_existing_directory(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) throw InputError("--out " + dir + " exists: a survey of records goes into a new directory");
}

void write_record_directory(const std::string& dir, const Survey& survey, Precision precision) {
  std::error_code ec;
  refuse_existing_directory(dir);
  const std::string tmp = dir + ".tmp." + std::to_string(::getpid());
  try {
    fs::create_directories(tmp);
    for (std::size_t s = 0; s < survey.shots.size(); ++s) {
      const Shot& shot = survey.shots[s];
      char name[32];
      std::snprintf(name, sizeof name, "shot_%04zu.npy", s);
      write_shot_record((fs::path(tmp) / name).string(), record_meta(shot.acquisition, shot.time, precision),
                        shot.data);
    }
    fs::rename(tmp, dir);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

// Every file the run writes and reads, checked before it computes anything.
void check_survey_files(const ProblemOptions& o, const SurveyOptions& so, const std::string& out, SurveyFormat format,
                        std::vector<NamedPath> outputs, std::vector<NamedPath> inputs) {
  if (format == SurveyFormat::none) return;
  outputs.insert(outputs.begin(), NamedPath{"--out", out});
  if (format == SurveyFormat::record)
    outputs.insert(outputs.begin() + 1, NamedPath{"the sidecar of --out", sidecar_path(out)});
  std::vector<NamedPath> read = problem_inputs(o);
  if (!so.wavelet.empty()) read.push_back({"--wavelet", so.wavelet});
  read.insert(read.end(), inputs.begin(), inputs.end());
  // A directory of records goes into a new directory: an existing one is refused as such first
  // (check_run_outputs would call it a file that cannot replace a directory).
  if (format == SurveyFormat::directory) refuse_existing_directory(out);
  check_run_outputs(outputs, read);
}

}  // namespace

SurveyFormat survey_format(const std::string& out) {
  if (out.empty()) return SurveyFormat::none;
  if (is_segy_path(out)) return SurveyFormat::segy;
  if (is_npy_path(out)) return SurveyFormat::record;
  if (fs::path(out).extension().empty()) return SurveyFormat::directory;
  throw InputError(
      "--out " + out + ": its ending " + fs::path(out).extension().string() +
      " is none of revwave's: FILE.npy (one shot record and its sidecar), FILE.sgy or FILE.segy (SEG-Y), or a "
      "new directory of records (a name without an ending, or ending in /)");
}

bool is_npy_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".npy";
}

template <class T>
SurveyForwardRun run_survey_forward_job(const ProblemOptions& o, const SurveyOptions& so, const std::string& out,
                                        const Progress& shots_done, const std::vector<NamedPath>& more_outputs,
                                        const std::vector<NamedPath>& more_inputs) {
  SurveyForwardRun r;
  r.format = survey_format(out);
  check_survey_files(o, so, out, r.format, more_outputs, more_inputs);
  if ((!so.wavelet.empty() || so.wavelet_samples) &&
      (r.format == SurveyFormat::record || r.format == SurveyFormat::directory)) {
    throw InputError(
        "--wavelet: a record's sidecar cannot hold a sampled signature: write SEG-Y (--out FILE.sgy) and give "
        "gradient the same --wavelet");
  }
  r.setup = make_setup(o);
  r.time = survey_time(o, r.setup, r.format);
  r.backend = resolve_backend(o.backend);
  refuse_cuda_options_on_cpu(o, r.backend.kind);
  apply_threads(o.threads);
  r.origin = origin_of(so);
  r.survey = layout_survey(make_layout(so, r.setup, r.time, o.sources.has_value()), r.setup.grid);
  const double moved = fit_to_format(r.survey, r.time, r.format, r.origin, out);
  check_survey(r.survey, r.setup.grid, r.setup.model);
  r.layouts = survey_layouts(so, r.setup);
  r.warnings = survey_warnings(r.setup.grid, min_velocity(r.setup.model), r.survey);
  // SEG-Y's 32-bit coordinates with one scalar hold positions to a step that grows with --origin: a
  // point moved by more than 1% of the spacing is modelled (and written) where the file can say.
  if (moved > 0.01 * r.setup.grid.spacing) {
    r.warnings.push_back("SEG-Y's 32-bit coordinates hold these positions (--origin " + point_text(r.origin) +
                         ") only to a coarser step: points move by up to " + number_text(moved) +
                         " m, and are modelled and written there (a smaller --origin keeps them)");
  }
  r.step_seconds =
      survey_forward<T>(r.setup.grid, r.setup.model, r.survey, r.backend.kind, device_budgets(o), shots_done);
  // A result that is not finite is never written as a success.
  for (const Shot& shot : r.survey.shots)
    check_finite_result(shot.data.data(), shot.data.size(), "the shot record of " + shot.name);
  return r;
}

void write_survey_records(const SurveyForwardRun& r, const std::string& out, Precision precision,
                          const std::function<void()>& also_write) {
  if (r.format == SurveyFormat::segy || r.format == SurveyFormat::record) {
    OutputTransaction outputs_together;
    if (r.format == SurveyFormat::segy) {
      write_segy(out, to_segy(r.survey), r.origin);
    } else {  // one shot: one record
      const Shot& shot = r.survey.shots.front();
      write_shot_record(out, record_meta(shot.acquisition, shot.time, precision), shot.data);
    }
    if (also_write) also_write();
    outputs_together.commit();
    return;
  }
  if (r.format == SurveyFormat::none) throw std::invalid_argument("write_survey_records: no output named");
  // The directory is complete or absent (its own temporary name), outside any transaction: a
  // transaction would hold its records under temporary names until after the directory's rename.
  write_record_directory(out, r.survey, precision);
  try {
    OutputTransaction also;
    if (also_write) also_write();
    also.commit();
  } catch (...) {
    std::error_code ec;
    fs::remove_all(out, ec);
    throw;
  }
}

nlohmann::json survey_forward_summary(const SurveyForwardRun& r, const SurveyOptions& so, Precision precision) {
  const Grid& grid = r.setup.grid;
  std::size_t traces = 0;
  for (const Shot& s : r.survey.shots) traces += s.acquisition.receivers.size();
  nlohmann::json j;
  j["shots"] = r.survey.shots.size();
  j["traces"] = traces;
  put_forward_run(j, r.time, grid, r.backend, precision);
  j["spread"] = so.spread;
  j["format"] = r.format == SurveyFormat::segy ? "segy" : "npy-directory";
  j["origin"] = r.origin;
  j["seconds"] = r.step_seconds;
  j["gpts_per_s"] =
      double(grid.interior_points()) * double(r.time.steps) * double(r.survey.shots.size()) / r.step_seconds / 1e9;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["peak_rss_counts"] = peak_rss_counts();
  j["layouts"] = layouts_json(r.layouts);
  j["warnings"] = r.warnings;
  return j;
}

template SurveyForwardRun run_survey_forward_job<float>(const ProblemOptions&, const SurveyOptions&, const std::string&,
                                                        const Progress&, const std::vector<NamedPath>&,
                                                        const std::vector<NamedPath>&);
template SurveyForwardRun run_survey_forward_job<double>(const ProblemOptions&, const SurveyOptions&,
                                                         const std::string&, const Progress&,
                                                         const std::vector<NamedPath>&, const std::vector<NamedPath>&);

}  // namespace revwave
