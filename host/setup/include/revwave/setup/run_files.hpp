// The files a run reads, and the refusal of an output that would overwrite one of them: checked
// before anything is computed, by the command line and by the Python package alike.
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
// --model and --rec-file.
std::vector<NamedPath> problem_inputs(const ProblemOptions& o);
// The problem's, the observed data (each record of a directory, each record's sidecar) and --true-model.
std::vector<NamedPath> job_inputs(const GradientJobOptions& o);

}  // namespace revwave
