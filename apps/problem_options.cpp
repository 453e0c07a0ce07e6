#include "problem_options.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "choice_options.hpp"
#include "number_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "revwave/setup/option_text.hpp"
#include "revwave/setup/thread_limit.hpp"
#include "switch_options.hpp"

namespace revwave::app {

void add_problem_options(CLI::App* cmd, ProblemOptions& o, Presentation& view, CudaOptions cuda) {
  cmd->add_option("--model", o.model_file, "velocity model, .npy (nx, ny, nz), m/s")->check(CLI::ExistingFile);
  add_number(cmd, "--velocity", o.velocity, positive(), "m/s", "homogeneous velocity, m/s (instead of --model)");
  cmd->add_option("--density", o.density_file,
                  "density, .npy of the model's shape, kg/m^3: the variable-density equation (default: constant)")
      ->check(CLI::ExistingFile);
  // A number, or a .npy that must exist (the configuration file writes it absolute: toml_config.cpp).
  const CLI::Validator number_or_file(
      [](std::string& text) { return is_number_text(text) ? std::string() : CLI::ExistingFile(text); },
      "NUMBER or FILE", "number or file");
  cmd->add_option_function<std::string>(
         "--epsilon", [&o](const std::string& text) { o.epsilon = parse_parameter(text); },
         "Thomsen's epsilon, a number or a .npy of the model's shape: a VTI medium (pseudo-acoustic, vertical axis; "
         "needs --boundary sponge and --backend cpu; --delta 0 unless given)")
      ->check(number_or_file);
  cmd->add_option_function<std::string>(
         "--delta", [&o](const std::string& text) { o.delta = parse_parameter(text); },
         "Thomsen's delta, a number or a .npy of the model's shape, at most epsilon at every point (--epsilon 0 "
         "unless given)")
      ->check(number_or_file);
  cmd->add_option_function<std::string>(
         "--q", [&o](const std::string& text) { o.q = parse_parameter(text); },
         "quality factor Q, a number >= 5 or a .npy of the model's shape (inf: none there): a visco-acoustic "
         "medium, 3 standard linear solids fitting a constant Q over 0.25-3 f0 (needs --boundary sponge and "
         "--backend cpu)")
      ->check(number_or_file);
  add_number(cmd, "--q-frequency", o.q_frequency, positive(), "Hz",
             "the frequency at which the model's velocity is the attenuating medium's phase velocity (default: f0)");
  cmd->add_option_function<std::string>(
         "--shape",
         [&o](const std::string& text) {
           o.shape = parse_shape(text, "--shape");
           o.shape_given = true;
         },
         "interior points NX,NY,NZ (z is depth; NY = 1: a 2D model in x and z; with --model, the model's shape)")
      ->default_str(shape_text(o.shape));
  add_number(cmd, "--spacing", o.spacing, positive(), "m", "grid spacing h, m");
  add_integer(cmd, "--nbl", o.nbl, at_least(0), "absorbing points per side");
  add_switch(cmd, "--free-surface", o.free_surface,
             "the plane z = 0 is pressure-free (u = 0, no absorbing layer on the top face); sources below it");
  add_choice(cmd, "--boundary", o.boundary, parse_boundary, {"sponge", "cpml"},
             "absorbing layer: cpml (convolutional PML, the default) or sponge (damping)");
  add_integer(cmd, "--space-order", o.space_order, int_within(2, 16), "even order of the Laplacian, 2..16");
  add_number(cmd, "--tn", o.tn, positive(), "s", "simulated time, s");
  o.max_steps = steps_without_yes;
  add_switch(cmd, "--yes", o.yes,
             "run more than " + std::to_string(steps_without_yes) +
                 " time steps (without it such a run is refused: --tn in ms or --spacing in km is the usual cause)");
  add_number(cmd, "--dt", o.dt, positive(), "s", "time step, s (default: 0.9 x the stability bound)");
  add_number(cmd, "--f0", o.f0, positive(), "Hz", "Ricker peak frequency, Hz");
  cmd->add_option_function<std::vector<std::string>>(
      "--src", [&o](const std::vector<std::string>& texts) { o.sources = parse_points(texts, "--src"); },
      "source X,Y,Z in m (repeatable)");
  cmd->add_option_function<std::vector<std::string>>(
      "--rec", [&o](const std::vector<std::string>& texts) { o.receivers = parse_points(texts, "--rec"); },
      "receiver X,Y,Z in m (repeatable)");
  cmd->add_option("--rec-file", o.rec_file, "receivers, .npy of shape (n, 3), m")->check(CLI::ExistingFile);
  cmd->get_option("--model")->excludes(cmd->get_option("--velocity"));
  cmd->add_option_function<std::string>(
      "--rec-grid", [&o](const std::string& text) { o.rec_grid = parse_point_grid(text, "--rec-grid"); },
      "NX,NY,Z: a grid of NX x NY receivers over the x-y extent at depth Z (m)");
  cmd->get_option("--rec-file")->excludes(cmd->get_option("--rec"));
  cmd->get_option("--rec-grid")->excludes(cmd->get_option("--rec"));
  cmd->get_option("--rec-grid")->excludes(cmd->get_option("--rec-file"));
  add_run_options(cmd, o, view, cuda);
}

void add_run_options(CLI::App* cmd, ProblemOptions& o, Presentation& view, CudaOptions cuda) {
  add_choice(cmd, "--precision", o.precision, parse_precision, {"float", "double"}, "float or double");
  add_choice(cmd, "--backend", o.backend, parse_backend, {"auto", "cpu", "cuda"}, "auto, cpu or cuda");
  add_integer(cmd, "--threads", o.threads, int_within(1, 65536),
              "OpenMP threads (default: all cores; more than the runtime can start here is refused)")
      ->each([](const std::string& text) {
        check_thread_count("--threads", parse_integer("--threads", text, int_within(1, 65536)));
      });
  if (cuda != CudaOptions::none) {
    cmd->add_option_function<std::string>(
        "--device-memory", [&o](const std::string& v) { o.device_memory = parse_bytes(v); },
        "CUDA: device memory for checkpoint slots, e.g. 8GiB (default: what is free)");
  }
  if (cuda == CudaOptions::all) {
    cmd->add_option_function<std::string>(
        "--host-memory", [&o](const std::string& v) { o.host_memory = parse_bytes(v); },
        "CUDA: pinned host memory for spilled slots, e.g. 64GiB (default: half of what is available)");
    add_integer(cmd, "--host-spacing", o.host_spacing, at_least(1),
                "CUDA, revolve: fewest forward steps between checkpoints spilled to pinned host memory (two-level "
                "schedule; default 50)");
    add_integer(cmd, "--shots-at-once", o.shots_at_once, int_within(1, max_shots_at_once),
                "CUDA, surveys: shots run at once on the device, each on its own streams with its own fields and "
                "1/N of the device budget, so that small windows share the device; the same bits for any N "
                "(default 1)");
  }
  add_switch(cmd, "--json", view.json, "print one JSON object with the run's summary");
  add_switch(cmd, "--verbose", view.verbose,
             "also print why --backend auto chose its backend (e.g. why no GPU is usable)");
}

std::vector<NamedPath> config_inputs(const CLI::App& cmd) {
  const CLI::App* root = &cmd;
  while (root->get_parent() != nullptr) root = root->get_parent();
  std::vector<NamedPath> out;
  if (const CLI::Option* cfg = root->get_config_ptr(); cfg != nullptr && cfg->count() > 0) {
    for (const std::string& p : cfg->results()) out.push_back({"--config", p});
  }
  return out;
}

}  // namespace revwave::app
