// revwave adjtest: the dot-product test <F w, d> = <w, F^T d> of the modelling operator
// (revwave/setup/verification_runs.hpp).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "number_options.hpp"
#include "problem_options.hpp"
#include "revwave/setup/verification_runs.hpp"
#include "run_report.hpp"

namespace revwave::app {
namespace {

struct AdjtestOptions {
  ProblemOptions problem;
  Presentation view;
  std::uint32_t seed = 1234;
  std::optional<double> tolerance;  // unset: by precision
};

template <class T>
bool run(const AdjtestOptions& o) {
  const AdjtestRun r = run_adjtest<T>(o.problem, o.seed, o.tolerance);
  if (o.view.json) {
    nlohmann::json j = adjtest_summary(r, o.problem.precision);
    j["command"] = "adjtest";
    print_json(j);
  } else {
    std::cout.precision(17);
    std::cout << "revwave adjtest (" << to_string(o.problem.precision) << ", " << r.time.steps << " steps)\n"
              << "  <F w, d>       " << r.result.forward_product << "\n"
              << "  <w, F^T d>     " << r.result.adjoint_product << "\n";
    std::cout.precision(3);
    std::cout << "  relative error " << r.result.relative_error << " (tolerance " << r.tolerance
              << "): " << (r.pass ? "PASS" : "FAIL") << "\n";
  }
  return r.pass;
}

}  // namespace

void register_adjtest(CLI::App& app) {
  auto o = std::make_shared<AdjtestOptions>();
  o->problem.shape = {40, 40, 40};
  o->problem.tn = 0.25;
  o->problem.precision = Precision::float64;
  CLI::App* cmd = app.add_subcommand("adjtest", "dot-product test of the forward modelling operator and its adjoint");
  add_problem_options(cmd, o->problem, o->view, CudaOptions::device);
  add_integer(cmd, "--seed", o->seed, int_within(0, 4294967295), "random seed of w and d");
  add_number(cmd, "--tolerance", o->tolerance, positive(), "", "relative tolerance (default 1e-12 double, 1e-5 float)");
  cmd->callback([o] {
    const bool pass = o->problem.precision == Precision::float64 ? run<double>(*o) : run<float>(*o);
    if (!pass) throw CLI::RuntimeError("adjoint test failed", 1);
  });
}

}  // namespace revwave::app
