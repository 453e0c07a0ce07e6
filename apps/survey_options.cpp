#include "survey_options.hpp"

#include <iostream>

#include "choice_options.hpp"
#include "number_options.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/mpi/mpi_runner.hpp"
#include "revwave/setup/option_text.hpp"
#include "run_report.hpp"

namespace revwave::app {

void add_origin_and_wavelet_options(CLI::App* cmd, SurveyOptions& o) {
  cmd->add_option_function<std::string>(
      "--origin", [&o](const std::string& text) { o.origin = parse_point(text, "--origin"); },
      "X0,Y0,Z0: SEG-Y file coordinates (m) of the model's first interior point; depth Z below the elevation datum");
  cmd->add_option("--wavelet", o.wavelet,
                  "sampled source signature, .npy of nt samples (instead of the Ricker wavelet)")
      ->check(CLI::ExistingFile);
}

void warn_unused_f0(const CLI::App& cmd) {
  const CLI::Option* wavelet = cmd.get_option_no_throw("--wavelet");
  const CLI::Option* f0 = cmd.get_option_no_throw("--f0");
  if (wavelet != nullptr && f0 != nullptr && wavelet->count() > 0 && f0->count() > 0) {
    defer_warning("--f0 " + f0->as<std::string>() + " is not used: --wavelet " + wavelet->as<std::string>() +
                  " is the source signature");
  }
}

void add_layout_options(CLI::App* cmd, SurveyOptions& o) {
  cmd->add_option_function<std::string>(
      "--src-grid", [&o](const std::string& text) { o.src_grid = parse_point_grid(text, "--src-grid"); },
      "NX,NY,Z: a survey of NX x NY sources over the x-y extent at depth Z (m), every one a shot");
  cmd->add_option("--spread", o.spread,
                  "receivers of a survey: fixed (shared by every shot) or moving (the spread, centred on the "
                  "model, moves with each source; receivers that leave the model are dropped)")
      ->check(one_of({"fixed", "moving"}))
      ->capture_default_str();
}

void add_aperture_option(CLI::App* cmd, SurveyOptions& o) {
  // -1 is the options' "not given"; a given value must be a distance (-1 too is refused).
  cmd->add_option_function<std::string>(
      "--aperture",
      [&o](const std::string& text) { o.aperture = parse_number("--aperture", text, non_negative(), "m"); },
      "run each shot on the model window covering its sources and receivers plus this many metres on every side, "
      "with its own absorbing layer (default: the whole model)");
}

void add_segy_read_options(CLI::App* cmd, SurveyOptions& o) {
  SegyReadOptions& r = o.segy;
  add_choice(cmd, "--segy-endian", r.endian, parse_segy_endian, {"big", "little"},
             "SEG-Y --observed: byte order, where the file's binary header does not tell (default: found from it)")
      ->default_str("");
  add_integer(cmd, "--segy-samples", r.samples, int_within(1, 2147483647),
              "SEG-Y --observed: samples per trace, where the headers disagree and the file's size does not settle it")
      ->default_str("");
  add_choice(cmd, "--segy-units", r.units, parse_segy_units, {"metres", "feet"},
             "SEG-Y --observed: unit of the coordinates, overriding MeasurementSystem and CoordinateUnits")
      ->default_str("");
  add_integer(cmd, "--segy-coordinate-scalar", r.coordinate_scalar, int_within(-10000, 10000),
              "SEG-Y --observed: the scalar of x and y (+-1, 10, 100, 1000, 10000; negative divides) instead of every "
              "trace's SourceGroupScalar")
      ->default_str("");
  add_integer(cmd, "--segy-elevation-scalar", r.elevation_scalar, int_within(-10000, 10000),
              "SEG-Y --observed: the scalar of depths and elevations instead of every trace's ElevationScalar")
      ->default_str("");
  for (const char* name : {"--segy-coordinate-scalar", "--segy-elevation-scalar"}) {
    cmd->get_option(name)->each([name](const std::string& text) {
      const std::int64_t s = parse_integer(name, text, int_within(-10000, 10000));
      const std::int64_t m = s < 0 ? -s : s;
      if (m != 1 && m != 10 && m != 100 && m != 1000 && m != 10000) {
        throw InputError(std::string(name) + " " + text + " is invalid: it must be +-1, 10, 100, 1000 or 10000");
      }
    });
  }
}

void quiet_unless_root() {
  if (launched_rank() == 0) return;
  std::cout.setstate(std::ios::badbit);
  std::cerr.setstate(std::ios::badbit);
}

}  // namespace revwave::app
