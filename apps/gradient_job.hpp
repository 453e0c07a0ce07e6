// The gradient job's command-line options; the job itself is revwave/setup/gradient_job.hpp.
#pragma once
#include <string>
#include <vector>

#include "problem_options.hpp"
#include "revwave/setup/gradient_job.hpp"

namespace revwave::app {

using revwave::GradientJob;
using revwave::GradientJobOptions;
using revwave::load_model;
using revwave::model_observed;
using revwave::prepare_gradient_job;

void add_gradient_job_options(CLI::App* cmd, GradientJobOptions& o, Presentation& view, CudaOptions cuda);
// --estimate-wavelet (gradient and invert).
void add_estimate_wavelet_option(CLI::App* cmd, GradientJobOptions& o);
// The files the job reads (model, true model, observed record and its sidecar, receivers) and the config.
std::vector<NamedPath> job_inputs(const GradientJobOptions& o, const CLI::App& cmd);

}  // namespace revwave::app
