#include "gradient_job.hpp"

namespace revwave::app {

void add_gradient_job_options(CLI::App* cmd, GradientJobOptions& o) {
  add_problem_options(cmd, o.problem);
  auto* obs = cmd->add_option("--observed", o.observed,
                              "observed data: a shot record .npy (its sidecar .json gives dt, nt, geometry), or a survey: "
                              "SEG-Y files (.sgy, .segy), directories of records, several records")
                  ->check(CLI::ExistingPath);
  auto* tm = cmd->add_option("--true-model", o.true_model, "model the observed data in this velocity model (.npy)")
                 ->check(CLI::ExistingFile);
  obs->excludes(tm);
  // --f0 is checked at run time: a SEG-Y file may lack the wavelet that a record's sidecar carries.
  for (const char* name : {"--src", "--rec", "--rec-file", "--rec-grid", "--tn", "--dt"}) obs->excludes(cmd->get_option(name));
  cmd->get_option("--f0")->each([&o](const std::string&) { o.f0_given = true; });
  cmd->add_option("--strategy", o.strategy.strategy,
                  "full (store every step), revolve (optimal checkpointing), multilevel (memory + disk tiers) or "
                  "online (step count found by a stopping rule)")
      ->capture_default_str();
  cmd->add_option("--tier", o.strategy.tiers,
                  "multilevel tier NAME:SLOTS[:STORE_COST:RESTORE_COST] (memory or disk, fastest first; costs in "
                  "forward steps, measured at start-up when omitted)");
  cmd->add_option("--stop-energy", o.strategy.stop_energy,
                  "online: end the run once the wavefield energy falls below this fraction of its peak (--tn, or "
                  "the observed data, is the hard maximum)");
  cmd->add_option("--snaps", o.strategy.snaps, "checkpoint slots for revolve (default " + std::to_string(default_snaps) + ")");
  cmd->add_option("--checkpoint-memory", o.checkpoint_memory, "memory for checkpoints, e.g. 512M, 8GiB: derives --snaps");
  cmd->add_option("--store", o.strategy.store, "where checkpoints live: memory or disk")->capture_default_str();
  cmd->add_option("--checkpoint-dir", o.strategy.checkpoint_dir, "directory for --store disk (files removed at the end)");
}

void finish_strategy_options(GradientJobOptions& o) {
  if (!o.checkpoint_memory.empty()) o.strategy.checkpoint_memory = parse_bytes(o.checkpoint_memory);
}

VelocityModel load_model(const std::string& path, const Grid& grid, const char* option) {
  const NpyArray a = read_npy(path);
  if (a.shape.size() != 3 || a.shape[0] != grid.shape[0] || a.shape[1] != grid.shape[1] || a.shape[2] != grid.shape[2]) {
    std::string got;
    for (std::size_t i = 0; i < a.shape.size(); ++i) got += (i ? ", " : "") + std::to_string(a.shape[i]);
    throw InputError(std::string(option) + " " + path + " has shape (" + got + "), the grid is (" +
                     std::to_string(grid.shape[0]) + ", " + std::to_string(grid.shape[1]) + ", " +
                     std::to_string(grid.shape[2]) + ")");
  }
  VelocityModel m{grid.shape, a.data};
  validate(m);
  return m;
}

}  // namespace revwave::app
