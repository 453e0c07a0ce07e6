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
void add_layout_options(CLI::App* cmd, SurveyOptions& o);  // --src-grid, --spread
void add_aperture_option(CLI::App* cmd, SurveyOptions& o);
// --segy-endian, --segy-samples, --segy-units, --segy-coordinate-scalar, --segy-elevation-scalar:
// what a SEG-Y file's headers say wrongly, stated (gradient and invert read SEG-Y).
void add_segy_read_options(CLI::App* cmd, SurveyOptions& o);

// Under mpirun other ranks print nothing: rank 0 speaks for the run (by the launcher's rank, so
// that it holds before MPI starts).
void quiet_unless_root();

}  // namespace revwave::app
