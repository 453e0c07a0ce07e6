// Options shared by the subcommands that propagate waves, and the problem they describe.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "revwave/setup/problem_setup.hpp"

namespace revwave::app {

// The problem's set-up lives in the library (revwave/setup, shared with the Python package).
using revwave::apply_threads;
using revwave::BackendChoice;
using revwave::cuda_budgets;
using revwave::make_setup;
using revwave::make_time;
using revwave::parse_points;
using revwave::ProblemOptions;
using revwave::ProblemSetup;
using revwave::refuse_cuda_options_on_cpu;
using revwave::require_run_memory;
using revwave::resolve_backend;
using revwave::run_bytes;

// Which CUDA budget options a subcommand has: forward and adjtest take the device budget only.
enum class CudaOptions { none, device, all };

void add_problem_options(CLI::App* cmd, ProblemOptions& o, CudaOptions cuda);
void add_run_options(CLI::App* cmd, ProblemOptions& o, CudaOptions cuda);  // precision, backend, threads, json, budgets

// The files a run reads: every output is checked against them before anything is computed.
struct NamedPath {
  std::string option;  // "--model", "the config file", ...
  std::string path;
};
// The config file(s) the command line named (--config), as inputs.
std::vector<NamedPath> config_inputs(const CLI::App& cmd);
// InputError "OUTPUT PATH would overwrite INPUT PATH ..." when an output is an input.
void refuse_overwriting_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);
std::vector<NamedPath> problem_inputs(const ProblemOptions& o);

}  // namespace revwave::app
