// revwave gradtest: the Taylor test of J and its gradient (revwave/setup/verification_runs.hpp).
#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "number_options.hpp"
#include "revwave/setup/verification_runs.hpp"
#include "run_report.hpp"

namespace revwave::app {
namespace {

struct GradtestOptions {
  GradientJobOptions job;
  Presentation view;
  int halvings = 6;
  double scale = 0.02;  // max |h0 dm| as a fraction of max m
};

template <class T>
bool run(GradtestOptions& o) {
  const GradtestRun r = run_gradtest<T>(o.job, o.halvings, o.scale);
  const TaylorResult& t = r.result;
  if (o.view.json) {
    nlohmann::json j = gradtest_summary(r, o.job);
    j["command"] = "gradtest";
    print_json(j);
  } else {
    std::cout.precision(6);
    std::cout << "revwave gradtest (" << to_string(o.job.problem.precision) << ", strategy "
              << to_string(o.job.strategy.strategy) << ", " << r.steps << " steps): J(m) = " << t.objective
              << ", <g, dm> = " << t.directional << "\n"
              << "           h   |J(m+h dm) - J(m)|   |J(m+h dm) - J(m) - h<g,dm>|\n";
    for (std::size_t i = 0; i < t.h.size(); ++i) {
      std::printf("  %10.6f   %18.6e   %28.6e\n", t.h[i], t.first[i], t.second[i]);
    }
    std::printf("  rates: first order %.3f (expect 1), second order %.3f (expect >= 1.9): %s\n", t.rate_first,
                t.rate_second, r.pass ? "PASS" : "FAIL");
  }
  return r.pass;
}

}  // namespace

void register_gradtest(CLI::App& app) {
  auto o = std::make_shared<GradtestOptions>();
  o->job.problem.shape = {40, 40, 40};
  o->job.problem.tn = 0.3;
  o->job.problem.precision = Precision::float64;
  CLI::App* cmd = app.add_subcommand("gradtest", "Taylor test: J(m + h dm) - J(m) - h <g, dm> falls as h^2");
  add_gradient_job_options(cmd, o->job, o->view, CudaOptions::all);
  add_integer(cmd, "--halvings", o->halvings, int_within(2, 40), "times h is halved");
  add_number(cmd, "--scale", o->scale, {0.0, 0.5, true, true}, "", "max |dm| at h = 1, as a fraction of max m");
  cmd->callback([o] {
    const bool pass = o->job.problem.precision == Precision::float64 ? run<double>(*o) : run<float>(*o);
    if (!pass) throw CLI::RuntimeError("Taylor test failed", 1);
  });
}

}  // namespace revwave::app
