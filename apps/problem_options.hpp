// Options shared by the subcommands that propagate waves, and the problem they describe.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "revwave/setup/option_text.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/run_files.hpp"

namespace revwave::app {

// The problem's set-up lives in the library (revwave/setup, shared with the Python package).
using revwave::apply_threads;
using revwave::BackendChoice;
using revwave::check_run_outputs;
using revwave::device_budgets;
using revwave::make_setup;
using revwave::make_time;
using revwave::NamedPath;
using revwave::parse_points;
using revwave::problem_inputs;
using revwave::ProblemOptions;
using revwave::ProblemSetup;
using revwave::refuse_cuda_options_on_cpu;
using revwave::refuse_overwriting_inputs;
using revwave::require_run_memory;
using revwave::resolve_backend;
using revwave::run_bytes;
using revwave::steps_without_yes;

// Which CUDA budget options a subcommand has: forward and adjtest take the device budget only.
enum class CudaOptions { none, device, all };

// How a command prints its summary (--json, --verbose): the command line's, not the problem's (the
// library returns summaries; a front end renders them).
struct Presentation {
  bool json = false;     // one JSON object instead of the text report
  bool verbose = false;  // also why --backend auto chose its backend
};

void add_problem_options(CLI::App* cmd, ProblemOptions& o, Presentation& view, CudaOptions cuda);
// --precision, --backend, --threads, the budgets, --json and --verbose.
void add_run_options(CLI::App* cmd, ProblemOptions& o, Presentation& view, CudaOptions cuda);

// The config file(s) the command line named (--config), as inputs: every output is checked against
// them, and against the files the run reads (revwave/setup/run_files.hpp), before anything is computed.
std::vector<NamedPath> config_inputs(const CLI::App& cmd);

}  // namespace revwave::app
