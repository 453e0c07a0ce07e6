#include "survey_options.hpp"

#include <iostream>

#include "revwave/mpi/mpi_runner.hpp"

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

void quiet_unless_root() {
  if (launched_rank() == 0) return;
  std::cout.setstate(std::ios::badbit);
  std::cerr.setstate(std::ios::badbit);
}

}  // namespace revwave::app
