// The files a run reads and writes, and the checks made on them before anything is computed, by the
// command line and by the Python package alike: no output overwrites an input or another output, and
// every output's directory exists and takes files.
#pragma once
#include <string>
#include <vector>

#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/problem_setup.hpp"

namespace revwave {

struct NamedPath {
  std::string option;  // "--model", "the config file", ...
  std::string path;
};

// InputError "OUTPUT PATH would overwrite INPUT PATH ..." when an output is an input (same_file).
void refuse_overwriting_inputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);
// InputError "A PATH and B PATH are the same file ..." when two outputs name one file (same_file:
// ./g.npy and g.npy, links), which would leave only the one written last.
void refuse_clashing_outputs(const std::vector<NamedPath>& outputs);
// IoError naming the output and its directory when that directory is missing, is not a directory or
// takes no new file (read-only, no permission): said before the run, not after it.
void refuse_unwritable_outputs(const std::vector<NamedPath>& outputs);
// The three, in that order: what every front end checks before a run that writes files.
void check_run_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// --model and --rec-file.
std::vector<NamedPath> problem_inputs(const ProblemOptions& o);
// The problem's, the observed data (each record of a directory, each record's sidecar) and --true-model.
std::vector<NamedPath> job_inputs(const GradientJobOptions& o);

// FILE.npy -> FILE.config.toml: the subcommand's effective configuration, written next to the output.
std::string config_path_for(const std::string& output_path);
// FILE.npy -> FILE.wavelet.npy: the signature --estimate-wavelet fitted (nt samples).
std::string wavelet_path_for(const std::string& output_path);
// What `revwave gradient` writes: --out, its configuration, the estimated wavelet (`wavelet`), the
// pictures of --png PREFIX (`png` non-empty) and --density-gradient (`density_out` non-empty).
std::vector<NamedPath> gradient_outputs(const std::string& out, const std::string& png, bool wavelet,
                                        const std::string& density_out = "");

}  // namespace revwave
