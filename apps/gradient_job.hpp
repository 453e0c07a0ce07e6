// The gradient job's command-line options; the job itself is revwave/setup/gradient_job.hpp.
#pragma once
#include <string>
#include <vector>

#include "problem_options.hpp"
#include "revwave/setup/gradient_job.hpp"

namespace revwave::app {

using revwave::GradientJob;
using revwave::GradientJobOptions;

void add_gradient_job_options(CLI::App* cmd, GradientJobOptions& o, CudaOptions cuda);
// The files the job reads (model, true model, observed record and its sidecar, receivers, config).
std::vector<NamedPath> job_inputs(const GradientJobOptions& o, const CLI::App& cmd);

}  // namespace revwave::app
