// Options of the survey paths of forward and gradient: SEG-Y origin, sampled wavelet, source grid,
// moving spread, aperture; and the process set-up under mpirun.
#pragma once
#include <optional>
#include <CLI/CLI.hpp>
#include <array>
#include <string>
#include <vector>

#include "problem_options.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/survey/survey.hpp"

namespace revwave::app {

struct SurveyOptions {
  std::string origin;          // "X0,Y0,Z0": file coordinates of the model's first interior point
  std::string wavelet;         // sampled source signature, .npy of nt samples
  std::string src_grid;        // "NX,NY,Z": a grid of NX x NY sources, every one a shot
  std::string spread = "fixed";  // fixed, or moving with the source
  double aperture = -1;        // m; < 0: every shot on the whole model
};

void add_origin_and_wavelet_options(CLI::App* cmd, SurveyOptions& o);
void add_layout_options(CLI::App* cmd, SurveyOptions& o);  // --src-grid, --spread
void add_aperture_option(CLI::App* cmd, SurveyOptions& o);

std::array<double, 3> parse_origin(const SurveyOptions& o);
// The signature in `path`: a 1-D .npy of finite samples.
std::vector<double> read_wavelet(const std::string& path);
// Every source of the layout, one shot each: --src-grid, else the sources of `setup` (--src or the default).
SurveyLayout make_layout(const SurveyOptions& o, const ProblemSetup& setup, const TimeAxis& time);

// A survey read from observed data (--observed) on the grid and model of `problem`, whose own
// --src/--rec options are ignored (the data bring their geometry); --f0 only where it was given.
struct ObservedSurvey {
  ProblemSetup setup;
  Survey survey;
};
ObservedSurvey read_observed_survey(const ProblemOptions& problem, bool f0_given, const std::vector<std::string>& observed,
                                    const SurveyOptions& o);

// Under mpirun: other ranks print nothing (rank 0 speaks for the run), and each process gets its
// share of the cores unless --threads or OMP_NUM_THREADS says otherwise.
void quiet_unless_root();  // by the launcher's rank, so that it holds before MPI starts
void apply_threads_per_process(const std::optional<int>& threads, const MpiSession& mpi);

}  // namespace revwave::app
