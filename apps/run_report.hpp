// What every subcommand needs to report to people and programs: a progress bar on stderr,
// the JSON summary on stdout and the effective configuration.
#pragma once
#include <CLI/CLI.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/misfit/misfit.hpp"

namespace revwave::app {

class ProgressBar {
 public:
  ProgressBar(std::string label, bool enabled);
  ~ProgressBar();
  void operator()(index_t done, index_t total);
  void finish();

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// FILE.npy -> FILE.config.toml: the subcommand's effective configuration as TOML, so that
// `revwave <cmd> --config FILE.config.toml --out OTHER.npy` repeats the run.
std::string config_path_for(const std::string& output_path);
void write_effective_config(const CLI::App& cmd, const std::string& path);
// "" for l2 (the report as it always read), else " (misfit NAME)".
std::string misfit_note(MisfitKind kind);
// FILE.npy -> FILE.wavelet.npy: the signature --estimate-wavelet fitted (nt samples).
std::string wavelet_path_for(const std::string& output_path);

// Prints j on stdout, one object, doubles that round-trip.
void print_json(const nlohmann::json& j);

}  // namespace revwave::app
