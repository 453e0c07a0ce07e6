// Options of the survey paths of forward, gradient and invert: SEG-Y origin, sampled wavelet, source
// grid, moving spread, aperture, parsed into the library's SurveyOptions (revwave/setup); and the
// process's voice under mpirun.
#pragma once
#include <CLI/CLI.hpp>

#include "problem_options.hpp"
#include "revwave/setup/survey_setup.hpp"

namespace revwave::app {

using revwave::SurveyOptions;

void add_origin_and_wavelet_options(CLI::App* cmd, SurveyOptions& o);
// The Ricker's peak frequency is not used beside a sampled signature: a warning where both were given
// (on the command line or in a configuration: those written before 0.3 hold --f0's default beside
// --wavelet, so refusing it would stop their replay and `invert --resume`). The configuration a run
// writes leaves --f0's default out beside --wavelet (unused_defaults).
void warn_unused_f0(const CLI::App& cmd);
void add_layout_options(CLI::App* cmd, SurveyOptions& o);  // --src-grid, --spread
void add_aperture_option(CLI::App* cmd, SurveyOptions& o);
// --segy-endian, --segy-samples, --segy-units, --segy-coordinate-scalar, --segy-elevation-scalar:
// what a SEG-Y file's headers say wrongly, stated (gradient and invert read SEG-Y).
void add_segy_read_options(CLI::App* cmd, SurveyOptions& o);

// Under mpirun other ranks print nothing: rank 0 speaks for the run (by the launcher's rank, so
// that it holds before MPI starts).
void quiet_unless_root();

}  // namespace revwave::app
