// Options shared by the subcommands that propagate waves, and the problem they describe.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "revwave/driver/cuda_backend.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::app {

// Unset optionals were not given: they take their defaults. A given value is honoured or refused.
struct ProblemOptions {
  std::string model_file;
  std::optional<double> velocity;  // homogeneous model, m/s (unset: the built-in model)
  std::string shape = "80,80,80";
  double spacing = 10.0;
  index_t nbl = 10;
  int space_order = 8;
  double tn = 0.5;
  std::optional<double> dt;        // unset: 0.9 x the stability bound
  double f0 = 12.0;
  std::vector<std::string> src;    // "x,y,z" each
  std::vector<std::string> rec;
  std::string rec_file;
  std::string rec_grid;            // "NX,NY,Z": NX x NY receivers over the x-y extent at depth Z
  std::string precision = "float";
  std::string backend = "auto";
  std::optional<int> threads;      // unset: all cores
  bool json = false;
  std::optional<std::string> device_memory;  // CUDA: checkpoint budget in device memory (e.g. 8GiB)
  std::optional<std::string> host_memory;    // CUDA: checkpoint budget in pinned host memory
  std::optional<index_t> host_spacing;       // CUDA: fewest steps between checkpoints in pinned host memory (50)
};

// Which CUDA budget options a subcommand has: forward and adjtest take the device budget only.
enum class CudaOptions { none, device, all };

void add_problem_options(CLI::App* cmd, ProblemOptions& o, CudaOptions cuda);
void add_run_options(CLI::App* cmd, ProblemOptions& o, CudaOptions cuda);  // precision, backend, threads, json, budgets

// Everything but the time axis; validated.
struct ProblemSetup {
  Grid grid;
  VelocityModel model;
  Acquisition acquisition;
};
ProblemSetup make_setup(const ProblemOptions& o);
// The time axis from --dt/--tn, checked against the model's stability bound.
TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s);

// The backend that will run ("cpu" or "cuda") and, for auto, why it was chosen.
struct BackendChoice {
  std::string name;
  std::string note;
};
BackendChoice resolve_backend(const std::string& requested);
void apply_threads(const std::optional<int>& threads);
// --device-memory / --host-memory / --host-spacing as the CUDA backend's budgets.
CudaBudgets cuda_budgets(const ProblemOptions& o);
// Refuses the CUDA budget options when the run is on the CPU: they would be ignored.
void refuse_cuda_options_on_cpu(const ProblemOptions& o, const std::string& backend);

// Refuses up front a run whose host working set cannot fit: `fields` wavefields of the grid and
// `trace_copies` copies of the nt x nrec record of T, with the count and the need in the message.
void require_run_memory(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies,
                        const std::string& what);
// The same arithmetic, for plan_strategy's memory check.
std::size_t run_bytes(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies);

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

std::vector<Vec3> parse_points(const std::vector<std::string>& texts, const std::string& option);

}  // namespace revwave::app
