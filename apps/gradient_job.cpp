#include "gradient_job.hpp"

#include "choice_options.hpp"
#include "number_options.hpp"
#include "switch_options.hpp"

namespace revwave::app {

void add_gradient_job_options(CLI::App* cmd, GradientJobOptions& o, Presentation& view, CudaOptions cuda) {
  add_problem_options(cmd, o.problem, view, cuda);
  auto* obs =
      cmd->add_option("--observed", o.observed,
                      "observed data: a shot record .npy (its sidecar .json gives dt, nt, geometry), or a survey: "
                      "SEG-Y files (.sgy, .segy), directories of records, several records")
          ->check(CLI::ExistingPath);
  auto* tm = cmd->add_option("--true-model", o.true_model, "model the observed data in this velocity model (.npy)")
                 ->check(CLI::ExistingFile);
  obs->excludes(tm);
  // --f0 is checked at run time: a SEG-Y file may lack the wavelet that a record's sidecar carries.
  for (const char* name : {"--src", "--rec", "--rec-file", "--rec-grid", "--tn", "--dt"})
    obs->excludes(cmd->get_option(name));
  cmd->get_option("--f0")->each([&o](const std::string&) { o.f0_given = true; });
  add_choice(cmd, "--strategy", o.strategy.strategy, parse_strategy, {"full", "revolve", "multilevel", "online"},
             "full (store every step), revolve (optimal checkpointing), multilevel (memory + disk tiers) or "
             "online (step count found by a stopping rule)");
  cmd->add_option(
      "--tier", o.strategy.tiers,
      "multilevel tier NAME:SLOTS[:STORE_COST:RESTORE_COST] (memory, pinned or disk, fastest first; memory "
      "is device memory and pinned is pinned host memory on CUDA; costs in forward steps, measured at start-up when omitted)");
  add_number(cmd, "--stop-energy", o.strategy.stop_energy, {0.0, 1.0, true, true}, "",
             "online: end the run once the wavefield energy falls below this fraction of its peak (--tn, or "
             "the observed data, is the hard maximum)");
  add_integer(cmd, "--snaps", o.strategy.snaps, at_least(1),
              "checkpoint slots for revolve and online (default " + std::to_string(default_snaps) + ")");
  cmd->add_option_function<std::string>(
      "--checkpoint-memory", [&o](const std::string& v) { o.strategy.checkpoint_memory = parse_bytes(v); },
      "memory for checkpoints, e.g. 512M, 8GiB: derives --snaps (revolve, online)");
  add_choice(cmd, "--store", o.strategy.store, parse_store, {"memory", "disk"},
             "where revolve's and online's checkpoints live: memory (default) or disk");
  cmd->add_option_function<std::string>(
         "--compress", [&o](const std::string& v) { o.strategy.compression = parse_compression(v); },
         "lossy checkpoint compression: none (default: the gradient equals full's bit for bit), fp16, bf16, "
         "zfp-rate:R (R bits per value) or zfp-accuracy:E (absolute error <= E); memory slots only; on the CUDA backend "
         "ZFP encodes the slots spilled to pinned host memory (device slots stay exact)")
      ->type_name("MODE")
      ->default_str("none");
  cmd->add_option("--checkpoint-dir", o.strategy.checkpoint_dir,
                  "directory for --store disk and disk tiers (files removed at the end)");
  add_choice(
      cmd, "--misfit", o.misfit.kind, parse_misfit, {"l2", "correlation", "envelope"},
      "what J measures: l2 (1/2 sum |S u - d|^2), correlation (minus the sum over traces of the normalised "
      "zero-lag cross-correlation: blind to amplitudes) or envelope (1/2 sum (E[S u] - E[d])^2, E the Hilbert envelope)");
}

void add_estimate_wavelet_option(CLI::App* cmd, GradientJobOptions& o) {
  add_switch(
      cmd, "--estimate-wavelet", o.estimate_wavelet,
      "fit one source signature to the observed data first (least squares against the starting model's response "
      "to an impulse, one for the whole survey), use it for every shot and write it out (FILE.wavelet.npy next to "
      "--out; DIR/wavelet.npy for invert)");
}

std::vector<NamedPath> job_inputs(const GradientJobOptions& o, const CLI::App& cmd) {
  std::vector<NamedPath> in = revwave::job_inputs(o);
  for (const NamedPath& c : config_inputs(cmd)) in.push_back(c);
  return in;
}

}  // namespace revwave::app
