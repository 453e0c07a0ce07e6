// What every subcommand needs to report to people and programs: a progress bar on stderr,
// the JSON summary on stdout, the effective configuration, and outputs that vanish on failure.
#pragma once
#include <CLI/CLI.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"

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

// Removes every registered output unless commit() was called: no partial output on error.
class OutputGuard {
 public:
  OutputGuard() = default;
  OutputGuard(const OutputGuard&) = delete;
  OutputGuard& operator=(const OutputGuard&) = delete;
  ~OutputGuard();
  void add(const std::string& path) { paths_.push_back(path); }
  void commit() { paths_.clear(); }

 private:
  std::vector<std::string> paths_;
};

// FILE.npy -> FILE.config.toml, written through CLI11's own config format so that
// `revwave <cmd> --config FILE.config.toml` repeats the run.
std::string config_path_for(const std::string& output_path);
void write_effective_config(const CLI::App& cmd, const std::string& path);

// Prints j on stdout, one object, doubles that round-trip.
void print_json(const nlohmann::json& j);

}  // namespace revwave::app
