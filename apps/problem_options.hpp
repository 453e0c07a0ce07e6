// Options shared by the subcommands that propagate waves, and the problem they describe.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "revwave/driver/cuda_backend.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::app {

struct ProblemOptions {
  std::string model_file;
  double velocity = 0;           // homogeneous model, m/s (0: the built-in model)
  std::string shape = "80,80,80";
  double spacing = 10.0;
  index_t nbl = 10;
  int space_order = 8;
  double tn = 0.5;
  double dt = 0;                 // 0: from the stability bound
  double f0 = 12.0;
  std::vector<std::string> src;  // "x,y,z" each
  std::vector<std::string> rec;
  std::string rec_file;
  std::string rec_grid;          // "NX,NY,Z": NX x NY receivers over the x-y extent at depth Z
  std::string precision = "float";
  std::string backend = "auto";
  int threads = 0;
  bool json = false;
  std::string device_memory;     // CUDA: checkpoint budget in device memory (e.g. 8GiB)
  std::string host_memory;       // CUDA: checkpoint budget in pinned host memory
  std::int64_t host_spacing = 50;  // CUDA: fewest steps between checkpoints in pinned host memory
};

void add_problem_options(CLI::App* cmd, ProblemOptions& o);
void add_run_options(CLI::App* cmd, ProblemOptions& o);  // precision, backend, threads, json

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
void apply_threads(int threads);
// --device-memory / --host-memory as the CUDA backend's budgets.
CudaBudgets cuda_budgets(const ProblemOptions& o);

std::vector<Vec3> parse_points(const std::vector<std::string>& texts, const std::string& option);

}  // namespace revwave::app
