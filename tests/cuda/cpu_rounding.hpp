// The tolerances of a device run against the CPU's where the two round apart (a GPU, whose nvcc
// contracts a * b + c into one fused multiply-add where it chooses, or cudasim built with
// REVWAVE_CUDASIM_FP_CONTRACT), derived from how far the CPU's own run moves when its roundings
// move (docs/gpu.md, "Tolerances on a GPU"). Where the device rounds as written they are not
// needed: the comparisons are bitwise.
#pragma once
#include <cfenv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cuda_test_support.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave::cuda_testing {

// One whole run's tolerances, as relative_rms: the traces of the true model, then J (relative),
// dJ/dm and dJ/drho (where the problem images it) of the start model against them, strategy full.
struct RunTolerances {
  double traces = 0;
  double objective = 0;
  double gradient = 0;
  double density_gradient = 0;
};

template <class T>
struct CpuRun {
  std::vector<T> traces;        // of the true model: the observed data
  std::vector<T> start_traces;  // of the start model: S u, whose residual J sums
  GradientOutput gradient;
};

// This thread and every thread of the OpenMP pool round in `mode` while it lives (the floating-point
// environment is each thread's own; threads made later copy their maker's).
class RoundingMode {
 public:
  explicit RoundingMode(int mode) { EXPECT_EQ(set(mode), 0) << "fesetround(" << mode << ")"; }
  ~RoundingMode() { set(FE_TONEAREST); }
  RoundingMode(const RoundingMode&) = delete;
  RoundingMode& operator=(const RoundingMode&) = delete;

 private:
  static int set(int mode) {
    int failed = std::fesetround(mode) != 0;
#pragma omp parallel reduction(+ : failed)
    failed += std::fesetround(mode) != 0;
    return failed;
  }
};

template <class T>
CpuRun<T> cpu_run(const Problem<T>& truth, const Problem<T>& start, int rounding = FE_TONEAREST) {
  const RoundingMode mode(rounding);
  CpuRun<T> r;
  CpuPropagator<T> t(truth);
  r.traces = run_forward(t).traces;
  CpuPropagator<T> s(start);
  r.start_traces = run_forward(s).traces;
  StrategyOptions full;
  full.strategy = Strategy::full;
  const StrategyPlan plan =
      plan_strategy(full, start.time.steps, physics_state(start.grid, physics_of(start)), field_layout<T>(start.grid));
  r.gradient = run_gradient(s, l2_misfit<T>(), r.traces.data(), full, plan);
  return r;
}

// The CPU's run of (truth, start) in T three times: rounded to nearest, as it runs, and with every
// operation rounded up, then down. A directed rounding pushes each operation's error the same way,
// so its errors tend to add up along the run where round-to-nearest's partly cancel: the directed
// runs' move from the nearest one is taken to bound how far any rounding of these operations lies
// from the exact result, the device's included (the same formulas in the same order, one rounding
// where the CPU has two, never more). A heuristic, not a proof (the errors of a field that changes
// sign do not all add up), checked against an emulated GPU rounding (docs/gpu.md). The device and
// the CPU then differ by at most twice that move: the tolerance, for each field over all of its
// points (relative_rms). Measured in T itself, so no scaling between precisions is assumed. J is
// one number whose move may cancel: its tolerance follows from the start traces' instead. J =
// |r|^2 / 2 with r = S u - d, so to first order |dJ| = |r . d(S u)| <= |r|_2 |d(S u)|_2
// (Cauchy-Schwarz), and |d(S u)|_2 is at most the traces' tolerance times |S u|_2. Where the device
// rounds as written only the nearest run is made: the comparisons are bitwise and take no
// tolerance (zeros). The nearest run is the reference the device is compared with, made once.
template <class T>
struct CpuReference {
  CpuRun<T> run;      // rounded to nearest
  RunTolerances tol;  // zeros where the device rounds as written
};
template <class T>
CpuReference<T> cpu_reference(const Problem<T>& truth, const Problem<T>& start) {
  CpuReference<T> ref{cpu_run(truth, start), {}};
  if (rounds_as_written()) return ref;
  const CpuRun<T>& near = ref.run;
  const CpuRun<T> up = cpu_run(truth, start, FE_UPWARD);
  const CpuRun<T> down = cpu_run(truth, start, FE_DOWNWARD);
  const auto twice_the_move = [](const auto& n, const auto& u, const auto& d) {
    return 2 * std::max(relative_rms(u, n), relative_rms(d, n));
  };
  RunTolerances& t = ref.tol;
  t.traces = twice_the_move(near.traces, up.traces, down.traces);
  const double start_traces = twice_the_move(near.start_traces, up.start_traces, down.start_traces);
  double r2 = 0, su2 = 0;
  for (std::size_t i = 0; i < near.traces.size(); ++i) {
    const double r = double(near.start_traces[i]) - double(near.traces[i]);
    r2 += r * r;
    su2 += double(near.start_traces[i]) * double(near.start_traces[i]);
  }
  t.objective = r2 > 0 ? 2 * start_traces * std::sqrt(su2 / r2) : start_traces;
  t.gradient = twice_the_move(near.gradient.gradient, up.gradient.gradient, down.gradient.gradient);
  if (!near.gradient.density_gradient.empty())
    t.density_gradient =
        twice_the_move(near.gradient.density_gradient, up.gradient.density_gradient, down.gradient.density_gradient);
  // A directed run that did not stay finite, or that moved by more than a percent, bounds nothing.
  for (const double v : {t.traces, t.objective, t.gradient, t.density_gradient})
    EXPECT_TRUE(std::isfinite(v) && v < 1e-2) << "a derived tolerance of " << v;
  return ref;
}

// A gradient against the CPU's. Where the device rounds as written: in double the CPU's bits; in
// float the CPU's sweeps flush subnormals and the kernels do not, so a few ulps of the largest value
// (measured on cudasim: at most 4e-32 of it, in the C-PML's 3D case; 1.2e-24 in the density's
// dJ/drho). Where it rounds apart (a GPU): within `tolerance`, derived above.
template <class T>
void expect_gradient_is_the_cpus(const std::vector<double>& gpu, const std::vector<double>& cpu, double tolerance,
                                 const std::string& what) {
  if (rounds_as_written() && sizeof(T) == sizeof(float))
    EXPECT_LE(relative_to_max(gpu, cpu), 64 * std::numeric_limits<float>::epsilon()) << what;
  else
    expect_within_rounding(gpu, cpu, tolerance, what);
}

}  // namespace revwave::cuda_testing
