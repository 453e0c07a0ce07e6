// revwave forward over a survey: every source a shot, written as one SEG-Y file or a directory
// of .npy records with their sidecars.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "revwave/core/checks.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/survey/survey_gradient.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"

namespace revwave::app {

namespace fs = std::filesystem;

bool forward_is_survey(const SurveyOptions& survey, const std::string& out) {
  return !survey.src_grid.empty() || is_segy_path(out) || survey.spread != "fixed";
}

namespace {

// The records of a survey in a new directory, shot_0000.npy + shot_0000.json, ...; built under a
// temporary name and renamed when complete.
void write_record_directory(const std::string& dir, const Survey& survey, const std::string& precision) {
  std::error_code ec;
  if (fs::exists(dir, ec)) throw InputError("--out " + dir + " exists: a survey of records goes into a new directory");
  const std::string tmp = dir + ".tmp." + std::to_string(::getpid());
  try {
    fs::create_directories(tmp);
    for (std::size_t s = 0; s < survey.shots.size(); ++s) {
      const Shot& shot = survey.shots[s];
      char name[32];
      std::snprintf(name, sizeof name, "shot_%04zu.npy", s);
      ShotRecordMeta meta;
      meta.dt = shot.time.dt;
      meta.nt = shot.time.nt();
      meta.f0 = shot.acquisition.f0;
      meta.t0 = shot.acquisition.t0;
      meta.sources = shot.acquisition.sources;
      meta.receivers = shot.acquisition.receivers;
      meta.precision = precision;
      write_shot_record((fs::path(tmp) / name).string(), meta, shot.data);
    }
    fs::rename(tmp, dir);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

}  // namespace

template <class T>
void run_survey_forward(const ProblemOptions& problem, const SurveyOptions& so, const std::string& out, const CLI::App& cmd) {
  const auto t_start = std::chrono::steady_clock::now();
  if (launched_size() > 1) {
    quiet_unless_root();
    throw InputError("revwave forward runs in one process: mpirun -n K is for revwave gradient");
  }
  const bool segy = is_segy_path(out);
  if (!so.wavelet.empty() && !segy) {
    throw InputError("--wavelet: a record's sidecar cannot hold a sampled signature: write SEG-Y (--out FILE.sgy) and give "
                     "gradient the same --wavelet");
  }
  const ProblemSetup setup = make_setup(problem);
  ProblemOptions po = problem;
  if (segy) {
    // SEG-Y keeps whole microseconds: the default dt is rounded down to one, a given dt must be one.
    if (!po.dt) po.dt = segy_dt_floor(default_dt(setup.grid, max_velocity(setup.model)));
    else po.dt = segy_dt(segy_interval_us(*po.dt));
  }
  const TimeAxis time = make_time(po, setup);
  const BackendChoice backend = resolve_backend(problem.backend);
  apply_threads(problem.threads);
  const std::array<double, 3> origin = parse_origin(so);
  Survey survey = layout_survey(make_layout(so, setup, time), setup.grid);
  if (segy) {
    if (time.nt() > 32767) throw InputError("nt " + std::to_string(time.nt()) + " samples cannot be written to SEG-Y: at most 32767");
    // Model at the positions the file will hold, so that its headers describe its data exactly.
    SegySurvey g = to_segy(survey);
    round_to_segy_coordinates(g, origin);
    for (std::size_t s = 0; s < survey.shots.size(); ++s) {
      survey.shots[s].acquisition.sources = {g.shots[s].source};
      survey.shots[s].acquisition.receivers = g.shots[s].receivers;
    }
  } else if (survey.shots.size() > 1 && fs::path(out).extension() == ".npy") {
    throw InputError("--out " + out + ": a survey of " + std::to_string(survey.shots.size()) +
                     " shots goes into a SEG-Y file (.sgy, .segy) or a directory of records, not one .npy");
  }
  check_survey(survey, setup.grid, setup.model);
  ProgressBar bar("shots", !problem.json);
  const double step_seconds =
      survey_forward<T>(setup.grid, setup.model, survey, backend.kind, cuda_budgets(problem), [&](index_t d, index_t t) { bar(d, t); });
  bar.finish();
  // A result that is not finite is never written as a success.
  for (const Shot& shot : survey.shots) check_finite_result(shot.data.data(), shot.data.size(), "the shot record of " + shot.name);

  const std::string cfg = config_path_for(out);
  std::size_t traces = 0;
  for (const Shot& s : survey.shots) traces += s.acquisition.receivers.size();
  if (segy || fs::path(out).extension() == ".npy") {
    OutputTransaction outputs_together;
    if (segy) {
      write_segy(out, to_segy(survey), origin);
    } else {  // one shot: one record
      const Shot& shot = survey.shots.front();
      ShotRecordMeta meta;
      meta.dt = shot.time.dt;
      meta.nt = shot.time.nt();
      meta.f0 = shot.acquisition.f0;
      meta.t0 = shot.acquisition.t0;
      meta.sources = shot.acquisition.sources;
      meta.receivers = shot.acquisition.receivers;
      meta.precision = sizeof(T) == 4 ? "float32" : "float64";
      write_shot_record(out, meta, shot.data);
    }
    write_effective_config(cmd, cfg);
    outputs_together.commit();
  } else {
    // The directory is complete or absent (its own temporary name), outside any transaction: a
    // transaction would hold its records under temporary names until after the directory's rename.
    write_record_directory(out, survey, sizeof(T) == 4 ? "float32" : "float64");
    try {
      OutputTransaction config_file;
      write_effective_config(cmd, cfg);
      config_file.commit();
    } catch (...) {
      std::error_code ec;
      fs::remove_all(out, ec);
      throw;
    }
  }

  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  const double gpts = double(setup.grid.interior_points()) * double(time.steps) * double(survey.shots.size()) / step_seconds / 1e9;
  if (problem.json) {
    nlohmann::json j;
    j["command"] = "forward";
    j["shots"] = survey.shots.size();
    j["traces"] = traces;
    j["nt"] = time.nt();
    j["steps"] = time.steps;
    j["dt"] = time.dt;
    j["shape"] = setup.grid.shape;
    j["spacing"] = setup.grid.spacing;
    j["nbl"] = setup.grid.nbl;
    j["space_order"] = setup.grid.space_order;
    j["backend"] = to_string(backend.kind);
    j["backend_note"] = backend.note;
    j["precision"] = to_string(problem.precision);
    j["spread"] = so.spread;
    j["format"] = segy ? "segy" : "npy-directory";
    j["origin"] = origin;
    j["seconds"] = step_seconds;
    j["total_seconds"] = total;
    j["gpts_per_s"] = gpts;
    j["peak_rss_bytes"] = peak_rss_bytes();
    j["out"] = out;
    j["config"] = cfg;
    print_json(j);
    return;
  }
  std::cout << "revwave forward: survey of " << survey.shots.size() << " shots, " << setup.grid.shape[0] << " x " << setup.grid.shape[1]
            << " x " << setup.grid.shape[2] << " points (h = " << setup.grid.spacing << " m), " << time.steps << " steps of dt = "
            << time.dt * 1e3 << " ms, " << to_string(problem.precision) << " on " << to_string(backend.kind)
            << (backend.note.empty() ? "" : " (" + backend.note + ")") << "\n"
            << "  time loops    " << step_seconds << " s (" << gpts << " GPts/s)\n"
            << "  peak memory   " << format_bytes(double(peak_rss_bytes())) << "\n"
            << "  survey        " << out << " (" << (segy ? "SEG-Y, " : "records, ") << traces << " traces of " << time.nt()
            << " samples), " << cfg << "\n";
}

template void run_survey_forward<float>(const ProblemOptions&, const SurveyOptions&, const std::string&, const CLI::App&);
template void run_survey_forward<double>(const ProblemOptions&, const SurveyOptions&, const std::string&, const CLI::App&);

}  // namespace revwave::app
