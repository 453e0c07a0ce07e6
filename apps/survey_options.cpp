#include "survey_options.hpp"

#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave::app {

void add_origin_and_wavelet_options(CLI::App* cmd, SurveyOptions& o) {
  cmd->add_option("--origin", o.origin,
                  "X0,Y0,Z0: SEG-Y file coordinates (m) of the model's first interior point; depth Z below the elevation datum");
  cmd->add_option("--wavelet", o.wavelet, "sampled source signature, .npy of nt samples (instead of the Ricker wavelet)")
      ->check(CLI::ExistingFile);
}

void add_layout_options(CLI::App* cmd, SurveyOptions& o) {
  cmd->add_option("--src-grid", o.src_grid, "NX,NY,Z: a survey of NX x NY sources over the x-y extent at depth Z (m), every one a shot");
  cmd->add_option("--spread", o.spread, "receivers of a survey: fixed (shared by every shot) or moving (the spread, centred on the "
                                        "model, moves with each source; receivers that leave the model are dropped)")
      ->check(CLI::IsMember({"fixed", "moving"}))
      ->capture_default_str();
}

void add_aperture_option(CLI::App* cmd, SurveyOptions& o) {
  cmd->add_option("--aperture", o.aperture,
                  "run each shot on the model window covering its sources and receivers plus this many metres on every side, "
                  "with its own absorbing layer (default: the whole model)");
}

std::array<double, 3> parse_origin(const SurveyOptions& o) {
  if (o.origin.empty()) return {0, 0, 0};
  const std::vector<Vec3> p = parse_points({o.origin}, "--origin");
  return p.front();
}

std::vector<double> read_wavelet(const std::string& path) {
  const NpyArray a = read_npy(path);
  if (a.shape.size() != 1 || a.shape[0] < 2) throw InputError("--wavelet " + path + ": a source signature is a 1-D array of at least 2 samples");
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    if (!std::isfinite(a.data[i])) throw InputError("--wavelet " + path + ": sample " + std::to_string(i) + " is not finite");
  }
  return a.data;
}

SurveyLayout make_layout(const SurveyOptions& o, const ProblemSetup& setup, const TimeAxis& time) {
  SurveyLayout l;
  const Grid& g = setup.grid;
  if (!o.src_grid.empty()) {
    const Vec3 v = parse_points({o.src_grid}, "--src-grid").front();
    if (v[0] < 1 || v[1] < 1 || v[0] != std::floor(v[0]) || v[1] != std::floor(v[1])) {
      throw InputError("--src-grid '" + o.src_grid + "' is invalid: NX and NY must be integers >= 1");
    }
    const int nx = static_cast<int>(v[0]), ny = static_cast<int>(v[1]);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        l.sources.push_back({nx > 1 ? g.extent(0) * i / (nx - 1) : 0.5 * g.extent(0),
                             ny > 1 ? g.extent(1) * j / (ny - 1) : 0.5 * g.extent(1), v[2]});
    trilinear_points(g, l.sources, "--src-grid source");
  } else {
    l.sources = setup.acquisition.sources;
  }
  l.receivers = setup.acquisition.receivers;
  l.moving_spread = o.spread == "moving";
  l.spread_centre = {0.5 * g.extent(0), 0.5 * g.extent(1), 0};
  l.f0 = setup.acquisition.f0;
  l.t0 = setup.acquisition.t0;
  if (!o.wavelet.empty()) l.wavelet = read_wavelet(o.wavelet);
  l.time = time;
  return l;
}

ObservedSurvey read_observed_survey(const ProblemOptions& problem, bool f0_given, const std::vector<std::string>& observed,
                                    const SurveyOptions& o) {
  if (!o.src_grid.empty()) throw InputError("--src-grid lays out a modelled survey: the observed data bring their own geometry");
  ObservedSurvey r;
  r.setup = make_survey_setup(problem);
  SurveyReadOptions ro;
  ro.origin = parse_origin(o);
  if (f0_given) ro.f0 = problem.f0;
  if (!o.wavelet.empty()) ro.wavelet = read_wavelet(o.wavelet);
  r.survey = read_survey(observed, ro);
  return r;
}

void quiet_unless_root() {
  if (launched_rank() == 0) return;
  std::cout.setstate(std::ios::badbit);
  std::cerr.setstate(std::ios::badbit);
}

void apply_threads_per_process(const std::optional<int>& threads, const MpiSession& mpi) {
  apply_threads(threads);
  if (threads || !mpi.active() || std::getenv("OMP_NUM_THREADS") != nullptr) return;
  // Bound to a few cores (mpirun binds), the process uses what it is given; unbound, its share.
  const int mine = omp_get_num_procs();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const int share = mine < online ? mine : std::max(1, mine / std::max(1, mpi.local_size()));
  omp_set_num_threads(share);
}

}  // namespace revwave::app
