// What every subcommand needs to report to people and programs: a progress bar on stderr,
// the JSON summary on stdout and the effective configuration.
#pragma once
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/misfit/misfit.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/run_files.hpp"

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

// The check of an option that names an output: an empty name is refused (it would be taken for the
// option not given, or make a hidden file such as ".npy").
// Why an output's name cannot be written into the configuration beside it as one line: a control
// character (a newline would split the file's "repeat with" comment); empty where it can.
inline std::string control_character_in(const std::string& name) {
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", u);
      return std::string("a control character (byte ") + code +
             ") in an output's name: the configuration written beside the outputs could not replay it";
    }
  }
  return {};
}

// An output's name that is the next option's (`--out --json`: CLI11 gives --out the word that
// follows it, and the switch is lost): refused, with the way to name such a file.
inline std::string option_as_name(const std::string& name) {
  if (name.size() < 3 || name.compare(0, 2, "--") != 0) return {};
  return "'" + name + "' is an option, not a file name: give the file's name first (./" + name +
         " names a file so called)";
}

inline CLI::Validator named_output() {
  return CLI::Validator(
      [](std::string& name) {
        if (name.empty()) return std::string("an empty name: give a file name");
        if (std::string why = option_as_name(name); !why.empty()) return why;
        return control_character_in(name);
      },
      "", "named output");
}

// A prefix of output files (--png PREFIX writes PREFIX_gradient_xz.png ...): a name as named_output
// asks, whose last part is a file's start, not a directory (`/` or `out/` would write `/_shot.png`).
inline CLI::Validator named_prefix() {
  return CLI::Validator(
      [](std::string& name) {
        if (name.empty()) return std::string("an empty name: give a file name");
        if (std::string why = option_as_name(name); !why.empty()) return why;
        if (std::string why = control_character_in(name); !why.empty()) return why;
        const auto ends = [&name](const std::string& e) {
          return name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
        };
        if (ends("/") || name == "." || name == ".." || ends("/.") || ends("/.."))
          return "'" + name +
                 "' names a directory: a prefix starts the files' names (give DIR/run1 for DIR/run1_shot.png)";
        return std::string();
      },
      "", "file prefix");
}

// An output that is one .npy array: `out`, with .npy added when it has no ending (another ending is
// left for require_npy_ending, after the outputs were checked against the inputs).
std::string npy_output(const std::string& out);
// InputError naming `option` unless `out` ends in .npy.
void require_npy_ending(const std::string& option, const std::string& out);

// FILE.npy -> FILE.config.toml (revwave/setup/run_files.hpp): the subcommand's effective configuration
// as TOML, so that `revwave <cmd> --config FILE.config.toml --out OTHER.npy` repeats the run.
using revwave::config_path_for;
using revwave::wavelet_path_for;
// `values`: what the run found for options not given (--shape: a model's shape); `leave_out`: keys
// that are not the run's configuration (invert's --resume).
void write_effective_config(const CLI::App& cmd, const std::string& path,
                            const std::map<std::string, std::string>& values = {},
                            const std::set<std::string>& leave_out = {}, const std::string& replay = "--out OTHER");

// Keys a configuration leaves out because this run did not use them: --f0's default beside --observed
// or --wavelet (the data or the signature carry the wavelet; a given --f0 is kept, refused beside
// --observed and warned of beside --wavelet).
std::set<std::string> unused_defaults(const CLI::App& cmd);
// "" for l2 (the report as it always read), else " (misfit NAME)".
std::string misfit_note(MisfitKind kind);
// "cpu", "cpu (auto)" or "cuda (auto: a CUDA device is present)"; with --verbose also why (for a
// CPU run under --backend auto: why no GPU is usable).
std::string backend_words(const BackendChoice& backend, bool verbose);

// Prints j on stdout, one object, doubles that round-trip.
void print_json(const nlohmann::json& j);
// One line on stderr per warning (revwave/setup/plausibility.hpp), "revwave: warning: ...". Prints the warnings a command said before its run (defer_warning), then `warnings`, one line each
// on stderr: a run refused during its set-up prints its refusal alone.
void print_warnings(const std::vector<std::string>& warnings);
// A warning the command finds while it reads its options, printed with the run's own warnings.
void defer_warning(std::string warning);

}  // namespace revwave::app
